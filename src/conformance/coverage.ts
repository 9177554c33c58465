/**
 * The per-method coverage matrix: for every method of both documents, whether a success case
 * exists and passes, whether each declared error is covered, and whether each optional param is
 * exercised both present and absent.
 * @module
 */
import { isObject } from './check.ts';
import type { Documents, Surface } from './documents.ts';
import type { Fixture } from './fixture-file.ts';
import type { CaseResult } from './results.ts';

/**
 * `pass`: a case passed (by value or schema). `shape`: only document examples, and the node gave a
 * different but valid answer (the documented situation could not be staged). `fail`,
 * `not-implemented`: the best case had that outcome. `missing`: no case at all.
 */
export type CoverageState = 'pass' | 'shape' | 'fail' | 'not-implemented' | 'missing';

/** One method's row. */
export interface CoverageRow {
  readonly surface: Surface;
  readonly method: string;
  readonly success: CoverageState;
  readonly errors: readonly { readonly code: number; readonly name: string; readonly state: CoverageState }[];
  readonly optionalParams: readonly { readonly name: string; readonly present: boolean; readonly absent: boolean }[];
}

const RANK: Record<CoverageState, number> = { pass: 4, shape: 3, 'not-implemented': 2, fail: 1, missing: 0 };

/** Builds the matrix from the fixtures that ran and their results. */
export function buildCoverage(
  docs: Documents,
  fixtures: readonly Fixture[],
  results: readonly CaseResult[],
): CoverageRow[] {
  const byPath = new Map(results.filter((r) => r.path !== undefined).map((r) => [r.path!, r]));
  const rows: CoverageRow[] = [];
  for (const surface of ['public', 'admin'] as const) {
    for (const [method, descriptor] of Object.entries(docs.methods[surface])) {
      const mine = fixtures.filter((f) => f.surface === surface && f.method === method);
      const stateOf = (code: number | null): CoverageState => {
        let best: CoverageState = 'missing';
        for (const f of mine) {
          const r = byPath.get(f.path);
          if (r === undefined || r.expectedCode !== code) continue;
          const state: CoverageState =
            r.outcome !== 'pass' ? r.outcome : r.mode === 'document' && r.actualCode !== code ? 'shape' : 'pass';
          if (RANK[state] > RANK[best]) best = state;
        }
        return best;
      };
      const catalogue = docs.errors[surface];
      const params = mine.flatMap((f) => f.requests.flatMap((t) => paramsOf(t, method)));
      rows.push({
        surface,
        method,
        success: stateOf(null),
        errors: descriptor.errors.map((code) => ({
          code,
          name: catalogue.get(code)?.name ?? String(code),
          state: stateOf(code),
        })),
        optionalParams: descriptor.params.flatMap((p, i) =>
          p.required
            ? []
            : [
                {
                  name: p.name,
                  present: params.some((ps) => ps[i] !== undefined && ps[i] !== null),
                  absent: params.some((ps) => ps[i] === undefined || ps[i] === null),
                },
              ],
        ),
      });
    }
  }
  return rows;
}

/** Renders the matrix as a Markdown table. */
export function coverageMarkdown(rows: readonly CoverageRow[]): string {
  const lines = [
    '| surface | method | success | declared errors | optional params (present/absent) |',
    '|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const errors = r.errors.map((e) => `${e.name} ${e.state}`).join(', ') || '—';
    const params =
      r.optionalParams.map((p) => `${p.name} ${p.present ? '✓' : '✗'}/${p.absent ? '✓' : '✗'}`).join(', ') || '—';
    lines.push(`| ${r.surface} | ${r.method} | ${r.success} | ${errors} | ${params} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** Totals: methods with a passing success case, errors covered, optional params seen both ways. */
export function coverageTotals(rows: readonly CoverageRow[]): {
  methods: number;
  successPassing: number;
  errors: number;
  errorsCovered: number;
  optionalParams: number;
  optionalBothWays: number;
} {
  const errors = rows.flatMap((r) => r.errors);
  const optional = rows.flatMap((r) => r.optionalParams);
  return {
    methods: rows.length,
    successPassing: rows.filter((r) => r.success === 'pass').length,
    errors: errors.length,
    errorsCovered: errors.filter((e) => e.state === 'pass').length,
    optionalParams: optional.length,
    optionalBothWays: optional.filter((p) => p.present && p.absent).length,
  };
}

function paramsOf(text: string, method: string): unknown[][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const elements = Array.isArray(parsed) ? parsed : [parsed];
  return elements
    .filter((e) => isObject(e) && e.method === method)
    .map((e) => (Array.isArray((e as { params?: unknown }).params) ? (e as { params: unknown[] }).params : []));
}

/** One SPEC §8 limit case (a recorded fixture whose description names the limit). */
export interface LimitCase {
  readonly path: string;
  /** `inside`: a value at the limit, served; `outside`: one past it, -32602. */
  readonly side: 'inside' | 'outside';
  readonly state: CoverageState;
}

/** The limit cases among `fixtures`: recorded ones whose description cites SPEC §8 or a document maximum. */
export function limitCases(fixtures: readonly Fixture[], results: readonly CaseResult[]): LimitCase[] {
  const byPath = new Map(results.filter((r) => r.path !== undefined).map((r) => [r.path!, r]));
  return fixtures
    .filter((f) => !f.fromDocument && f.comments.some((c) => /SPEC §8|document maximum/.test(c)))
    .map((f) => {
      const r = byPath.get(f.path);
      const side = f.flags.has('deliberate-error') ? 'outside' : 'inside';
      return { path: f.path, side, state: r === undefined ? 'missing' : r.outcome };
    });
}

/**
 * The committed coverage file (docs/CONFORMANCE-COVERAGE.md): totals, the matrix and the limit
 * cases. Written by `npm run conformance:coverage`; the integration test fails when it is stale.
 */
export function coverageDocument(
  rows: readonly CoverageRow[],
  limits: readonly LimitCase[],
  notImplemented: readonly string[],
): string {
  const t = coverageTotals(rows);
  const inside = limits.filter((l) => l.side === 'inside'),
    outside = limits.filter((l) => l.side === 'outside');
  const passing = (ls: readonly LimitCase[]) => ls.filter((l) => l.state === 'pass').length;
  return [
    '# Conformance coverage',
    '',
    'Generated by `npm run conformance:coverage` (the suite against this node on the conformance chain). DO NOT EDIT;',
    '`test/conformance/conformance.test.ts` fails when this file differs from its own run.',
    '',
    `- methods with a passing success case: ${t.successPassing}/${t.methods}`,
    `- declared errors covered by a passing case: ${t.errorsCovered}/${t.errors}`,
    `- optional params sent both present and absent: ${t.optionalBothWays}/${t.optionalParams}`,
    `- SPEC §8 (and document) limits: ${passing(inside)}/${inside.length} just-inside cases pass, ${passing(outside)}/${outside.length} just-outside cases pass`,
    `- not implemented (-32001) on this node: ${notImplemented.length === 0 ? 'none' : notImplemented.join(', ')}`,
    '',
    '## Per method',
    '',
    coverageMarkdown(rows).trimEnd(),
    '',
    '## Limit cases',
    '',
    '| fixture | side | state |',
    '|---|---|---|',
    ...limits.map((l) => `| ${l.path} | ${l.side} | ${l.state} |`),
    '',
  ].join('\n');
}
