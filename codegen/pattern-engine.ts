/**
 * The regular-expression engine the validators use for the documents' `pattern`s (ajv's
 * `code.regExp`): the native RegExp, except for the base64 pattern of `Tx.data` and
 * `Tx.chonkProof`, ~50 and ~80 KB in every tx, where V8's RegExp takes ~0.75 ms per 80 KB
 * (issue #21: ~1.2 ms of the event loop per tx sent). There a string is first decoded and
 * re-encoded with Buffer (~0.05 ms): Buffer's encoder only writes canonical padded base64, so an
 * exact round trip means the pattern matches; anything else (non-canonical padding bits, junk,
 * no Buffer in a browser) is decided by the RegExp itself. The answer is always the pattern's.
 *
 * The engine is emitted into the standalone validators as source text (ajv's `useFunc`), so it is
 * kept here as text and evaluated once for ajv's own use at generation time.
 * @module
 */

/** The documents' strict base64 pattern (standard alphabet, `=` padding). */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$';

/** What ajv needs of a compiled pattern. */
export interface PatternTester {
  test(s: string): boolean;
  toString(): string;
}

const SOURCE = `(pattern, flags) => {
  const rx = new RegExp(pattern, flags);
  if (pattern !== ${JSON.stringify(BASE64_PATTERN)} || typeof Buffer === "undefined") return rx;
  return { test: (s) => Buffer.from(s, "base64").toString("base64") === s || rx.test(s), toString: () => rx.toString() };
}`;

/** ajv's `code.regExp` option: the engine, with its source as `code` for standalone output. */
export const patternEngine: ((pattern: string, flags: string) => PatternTester) & { code: string } = Object.assign(
  new Function(`return ${SOURCE}`)() as (pattern: string, flags: string) => PatternTester,
  { code: SOURCE },
);
