/**
 * Report files of a run: JSON (machine-readable), JUnit XML (CI test tabs; `not-implemented` is a
 * skipped test case with its reason, never a pass) and one self-contained HTML page.
 * @module
 */
import { coverageTotals } from './coverage.ts';
import type { CoverageRow } from './coverage.ts';
import { summarize } from './results.ts';
import type { CaseResult } from './results.ts';

/** Everything a report shows. */
export interface Report {
  readonly target: { readonly publicUrl: string; readonly adminUrl: string };
  readonly results: readonly CaseResult[];
  readonly coverage: readonly CoverageRow[];
}

/** Report formats. */
export type ReportFormat = 'json' | 'junit' | 'html';

/** Renders `report` in `format`. */
export function renderReport(report: Report, format: ReportFormat): string {
  if (format === 'json') return renderJson(report);
  if (format === 'junit') return renderJunit(report);
  return renderHtml(report);
}

/** JSON: summary, every case, the coverage matrix and its totals. */
export function renderJson(report: Report): string {
  const notImplemented = report.results.filter((r) => r.outcome === 'not-implemented').map((r) => r.path ?? r.name);
  return `${JSON.stringify({ target: report.target, summary: summarize(report.results), notImplemented, results: report.results, coverage: { totals: coverageTotals(report.coverage), methods: report.coverage } }, null, 2)}\n`;
}

/** JUnit XML: one testsuite per suite (protocol, public, admin), one testcase per case. */
export function renderJunit(report: Report): string {
  const suites = ['protocol', 'public', 'admin'] as const;
  const body = suites.map((suite) => {
    const cases = report.results.filter((r) => r.suite === suite);
    const s = summarize(cases);
    const seconds = cases.reduce((t, r) => t + r.ms, 0) / 1000;
    const items = cases.map((r) => {
      const open = `    <testcase classname="${xml(`${suite}.${r.method}`)}" name="${xml(r.name)}" time="${(r.ms / 1000).toFixed(3)}"`;
      if (r.outcome === 'pass') return `${open}/>`;
      if (r.outcome === 'not-implemented')
        return `${open}>\n      <skipped message="not implemented (-32001)">${xml(r.detail)}</skipped>\n    </testcase>`;
      return `${open}>\n      <failure message="${xml(r.detail.split('\n')[0] ?? '')}">${xml(r.detail)}</failure>\n    </testcase>`;
    });
    return `  <testsuite name="${suite}" tests="${s.total}" failures="${s.fail}" skipped="${s.notImplemented}" time="${seconds.toFixed(3)}">\n${items.join('\n')}\n  </testsuite>`;
  });
  const all = summarize(report.results);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="l2node-conformance" tests="${all.total}" failures="${all.fail}" skipped="${all.notImplemented}">\n${body.join('\n')}\n</testsuites>\n`;
}

const STYLE = `body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top}
.pass{background:#e6f4ea}.fail{background:#fce8e6}.not-implemented,.shape{background:#fef7e0}.missing{background:#eee}pre{margin:0;white-space:pre-wrap;font-size:12px}`;

/** A single HTML page with inline CSS and no scripts: summary, failures first, all cases, coverage. */
export function renderHtml(report: Report): string {
  const s = summarize(report.results);
  const t = coverageTotals(report.coverage);
  const order = { fail: 0, 'not-implemented': 1, pass: 2 };
  const sorted = [...report.results].sort((a, b) => order[a.outcome] - order[b.outcome]);
  const caseRows = sorted.map(
    (r) =>
      `<tr class="${r.outcome}"><td>${r.outcome}</td><td>${html(r.suite)}</td><td>${html(r.method)}</td><td>${html(r.name)}</td><td>${r.mode}</td><td><pre>${html(r.detail)}</pre></td></tr>`,
  );
  const coverageRows = report.coverage.map((r) => {
    const errors = r.errors.map((e) => `<span class="${e.state}">${html(e.name)}: ${e.state}</span>`).join('<br>');
    const params = r.optionalParams
      .map((p) => `${html(p.name)} present ${p.present ? 'yes' : 'no'}, absent ${p.absent ? 'yes' : 'no'}`)
      .join('<br>');
    return `<tr><td>${r.surface}</td><td>${html(r.method)}</td><td class="${r.success}">${r.success}</td><td>${errors || '—'}</td><td>${params || '—'}</td></tr>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>l2node conformance report</title><style>${STYLE}</style></head><body>
<h1>Conformance report</h1>
<p>Public ${html(report.target.publicUrl)}, admin ${html(report.target.adminUrl)}.</p>
<p><b>${s.total}</b> cases: <b>${s.pass}</b> passed, <b>${s.fail}</b> failed, <b>${s.notImplemented}</b> not implemented (-32001, not counted as passing).</p>
<p>Coverage: ${t.successPassing}/${t.methods} methods with a passing success case; ${t.errorsCovered}/${t.errors} declared errors covered; ${t.optionalBothWays}/${t.optionalParams} optional params seen present and absent.</p>
<h2>Cases</h2>
<table><tr><th>outcome</th><th>suite</th><th>method</th><th>case</th><th>mode</th><th>detail</th></tr>
${caseRows.join('\n')}
</table>
<h2>Coverage by method</h2>
<table><tr><th>surface</th><th>method</th><th>success case</th><th>declared errors</th><th>optional params</th></tr>
${coverageRows.join('\n')}
</table>
</body></html>
`;
}

function xml(text: string): string {
  return text
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

function html(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}
