/**
 * The result of one conformance case, shared by the runner, the coverage matrix and the reports.
 * @module
 */

/** `not-implemented`: the node answered -32001 where the case expects something else. Never a pass. */
export type Outcome = 'pass' | 'fail' | 'not-implemented';

/**
 * How a case was judged. `value`: deep equality. `schema-only`: against the documents' schemas.
 * `document`: a codegen example whose values describe the documents' imagined chain, so the answer
 * must be *a* valid answer of the method. `unauthorized`: sent without a key, exact 401 body.
 * `protocol`: a programmatic HTTP-level case.
 */
export type CheckMode = 'value' | 'schema-only' | 'document' | 'unauthorized' | 'protocol';

/** One case's result. */
export interface CaseResult {
  /** `protocol`, or the surface of the fixture. */
  readonly suite: 'protocol' | 'public' | 'admin';
  /** The wire method, or `protocol` for the protocol suite. */
  readonly method: string;
  readonly name: string;
  /** Fixture path relative to the fixtures root; absent for protocol cases. */
  readonly path?: string;
  readonly mode: CheckMode;
  readonly outcome: Outcome;
  /** Empty on pass; else why, with the structural diff where there is one. */
  readonly detail: string;
  readonly ms: number;
  /** Expected error code of the (first) exchange; null when a result is expected. */
  readonly expectedCode?: number | null;
  /** Actual error code of the (first) exchange; null when a result came back. */
  readonly actualCode?: number | null;
}

/** Counts by outcome. */
export interface Summary {
  readonly total: number;
  readonly pass: number;
  readonly fail: number;
  readonly notImplemented: number;
}

/** Counts the outcomes of `results`. */
export function summarize(results: readonly CaseResult[]): Summary {
  const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
  return { total: results.length, pass: count('pass'), fail: count('fail'), notImplemented: count('not-implemented') };
}
