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
export function buildCoverage(docs: Documents, fixtures: readonly Fixture[], results: readonly CaseResult[]): CoverageRow[] {
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
          const state: CoverageState = r.outcome !== 'pass' ? r.outcome : r.mode === 'document' && r.actualCode !== code ? 'shape' : 'pass';
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
        errors: descriptor.errors.map((code) => ({ code, name: catalogue.get(code)?.name ?? String(code), state: stateOf(code) })),
        optionalParams: descriptor.params.flatMap((p, i) =>
          p.required ? [] : [{ name: p.name, present: params.some((ps) => ps[i] !== undefined && ps[i] !== null), absent: params.some((ps) => ps[i] === undefined || ps[i] === null) }],
        ),
      });
    }
  }
  return rows;
}

/** Renders the matrix as a Markdown table. */
export function coverageMarkdown(rows: readonly CoverageRow[]): string {
  const lines = ['| surface | method | success | declared errors | optional params (present/absent) |', '|---|---|---|---|---|'];
  for (const r of rows) {
    const errors = r.errors.map((e) => `${e.name} ${e.state}`).join(', ') || '—';
    const params = r.optionalParams.map((p) => `${p.name} ${p.present ? '✓' : '✗'}/${p.absent ? '✓' : '✗'}`).join(', ') || '—';
    lines.push(`| ${r.surface} | ${r.method} | ${r.success} | ${errors} | ${params} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** Totals: methods with a passing success case, errors covered, optional params seen both ways. */
export function coverageTotals(rows: readonly CoverageRow[]): { methods: number; successPassing: number; errors: number; errorsCovered: number; optionalParams: number; optionalBothWays: number } {
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
  return elements.filter((e) => isObject(e) && e.method === method).map((e) => (Array.isArray((e as { params?: unknown }).params) ? ((e as { params: unknown[] }).params) : []));
}
