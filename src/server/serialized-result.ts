/**
 * A handler result already in its JSON text form. The dispatcher writes `json` as the call's
 * `result` without stringifying anything, so an answer served from a byte cache (an immutable
 * block, a historical witness) costs a copy of its text, not a walk over an object tree.
 * @module
 */

/** JSON text standing for a handler's result; the text must be one valid JSON value. */
export class SerializedResult {
  readonly json: string;
  constructor(json: string) {
    this.json = json;
  }
}
