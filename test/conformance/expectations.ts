/**
 * What the conformance runs against this node expect, shared by the SQLite run
 * (conformance.test.ts) and the Postgres run (conformance-postgres.test.ts): the same known
 * failures, the same not-implemented list, the same checks.
 * @module
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { summarize } from '../../src/conformance/results.ts';
import type { CaseResult } from '../../src/conformance/results.ts';

/**
 * Failures found by the suite that belong to other parts; each says whose fix it is. Remove an
 * entry when it is fixed (the tests fail until then, so the list cannot go stale).
 */
export const KNOWN_FAILURES: Readonly<Record<string, string>> = {};

/**
 * The fixtures this node answers with -32001 NOT_IMPLEMENTED today, and why: exactly these, so the
 * list can only shrink (an entry that starts passing, or a new -32001, fails the test).
 */
export const NOT_IMPLEMENTED: Readonly<Record<string, string>> = {};

/** The node's request limits the suite is told about. */
export const LIMITS = { maxBodyBytes: 1_048_576, maxBatchSize: 100 } as const;

/** Every protocol case passes. */
export function assertProtocolPasses(results: readonly CaseResult[]): void {
  const protocol = results.filter((r) => r.suite === 'protocol');
  assert.ok(protocol.length >= 25, `protocol cases ran (${protocol.length})`);
  assert.deepEqual(
    protocol.filter((r) => r.outcome !== 'pass').map((r) => `${r.name}: ${r.detail}`),
    [],
  );
}

/** No fixture fails except the known ones. */
export function assertNoUnknownFailures(results: readonly CaseResult[]): void {
  const failed = Object.fromEntries(
    results.filter((r) => r.outcome === 'fail').map((r) => [r.path!.slice(0, -3), r.detail]),
  );
  assert.deepEqual(
    Object.keys(failed).sort(),
    Object.keys(KNOWN_FAILURES).sort(),
    `unexpected failures:\n${JSON.stringify(failed, null, 2)}`,
  );
}

/** Not implemented: exactly the listed fixtures, each answered -32001; the totals add up. */
export function assertNotImplementedList(results: readonly CaseResult[], t: TestContext, label: string): void {
  const missing = results.filter((r) => r.outcome === 'not-implemented');
  assert.deepEqual(
    missing.map((r) => r.path).sort(),
    Object.keys(NOT_IMPLEMENTED).sort(),
    'update NOT_IMPLEMENTED: the list only shrinks',
  );
  for (const r of missing) assert.match(r.detail, /answered -32001/, r.path);
  const s = summarize(results);
  assert.equal(s.pass + s.fail + s.notImplemented, s.total);
  t.diagnostic(
    `${label}: ${s.total} cases: ${s.pass} pass, ${s.fail} fail (known), ${s.notImplemented} not implemented`,
  );
}
