/**
 * Pure report model and Markdown rendering for docs/PERFORMANCE.md: each figure carries its value,
 * its baseline measured in the same run, the ratio, the goal and whether it was met (and when not,
 * by how much). No I/O.
 * @module
 */
import { renderBudget } from './budget.ts';
import type { TimedStep } from './budget.ts';
import { ratio } from './stats.ts';

/**
 * A goal on a figure. `ratio-min`/`ratio-max` compare value ÷ baseline with `target`;
 * `value-min`/`value-max` compare the value itself.
 */
export interface Goal {
  readonly kind: 'ratio-min' | 'ratio-max' | 'value-min' | 'value-max';
  readonly target: number;
}

/** One measured figure. `value` undefined means "not measured", and `note` then says why. */
export interface Figure {
  readonly name: string;
  readonly unit: string;
  readonly value?: number;
  readonly baseline?: number;
  /** What the baseline is, e.g. "bare node:http". */
  readonly baselineName?: string;
  readonly goal?: Goal;
  /** Free text: how it was measured, what was used, or why it is missing. */
  readonly note?: string;
  /** Why the goal is not met, when the runner knows (shown next to the shortfall). */
  readonly cause?: string;
}

/** A titled group of figures with an optional paragraph above the table. */
export interface Section {
  readonly title: string;
  readonly intro?: string;
  readonly figures: readonly Figure[];
}

/** Everything the page shows. */
export interface Report {
  readonly date: string;
  readonly mode: string;
  readonly durationSeconds: number;
  readonly machine: {
    readonly cpuModel: string;
    readonly cores: number;
    readonly memoryGiB: number;
    readonly loadAverage: readonly number[];
    readonly os: string;
  };
  readonly nodeVersion: string;
  readonly commit: string;
  readonly method: readonly string[];
  /** Wall-clock seconds of each step of the run, in order. */
  readonly timeBudget?: readonly TimedStep[];
  readonly sections: readonly Section[];
}

/** Outcome of a figure against its goal. */
export interface Verdict {
  readonly status: 'met' | 'not met' | 'no goal' | 'not measured';
  /** For "not met": the plain sentence saying by how much. */
  readonly shortfall?: string;
}

/** The number a goal is compared against: the ratio for ratio goals, else the value. */
export function goalSubject(f: Figure): number {
  if (f.value === undefined) return Number.NaN;
  return f.goal?.kind.startsWith('ratio') ? ratio(f.value, f.baseline) : f.value;
}

/** Judges a figure against its goal. */
export function verdict(f: Figure): Verdict {
  if (f.value === undefined || !Number.isFinite(f.value)) return { status: 'not measured' };
  if (f.goal === undefined) return { status: 'no goal' };
  const x = goalSubject(f);
  if (!Number.isFinite(x)) return { status: 'not measured' };
  const { kind, target } = f.goal;
  const isMin = kind.endsWith('-min');
  const met = isMin ? x >= target : x <= target;
  if (met) return { status: 'met' };
  const shown = kind.startsWith('ratio') ? `${fmtRatio(x)}` : `${fmtNumber(x)} ${f.unit}`;
  const wanted = kind.startsWith('ratio') ? `${fmtRatio(target)}` : `${fmtNumber(target)} ${f.unit}`;
  const pct = isMin ? ((target - x) / target) * 100 : ((x - target) / target) * 100;
  const factor = isMin ? target / x : x / target;
  const how =
    factor >= 2
      ? `${factor.toFixed(1)}× ${isMin ? 'below' : 'above'} the goal`
      : `${pct.toFixed(0)}% ${isMin ? 'below' : 'above'} the goal`;
  return { status: 'not met', shortfall: `${shown} against ${isMin ? '≥' : '≤'} ${wanted}: ${how}` };
}

/** A number with a sensible precision and thousands separators. */
export function fmtNumber(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return '—';
  const abs = Math.abs(x);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return x.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: digits });
}

/** A ratio as "0.83×". */
export function fmtRatio(x: number): string {
  if (!Number.isFinite(x)) return '—';
  return `${x >= 10 ? x.toFixed(1) : x.toFixed(2)}×`;
}

function fmtGoal(g: Goal | undefined, unit: string): string {
  if (g === undefined) return '—';
  const op = g.kind.endsWith('-min') ? '≥' : '≤';
  return g.kind.startsWith('ratio') ? `ratio ${op} ${fmtRatio(g.target)}` : `${op} ${fmtNumber(g.target)} ${unit}`;
}

/** Escapes the pipe so free text cannot break a table row. */
function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** One table row for a figure. */
export function renderRow(f: Figure): string {
  const v = verdict(f);
  const value = f.value === undefined ? 'not measured' : `${fmtNumber(f.value)} ${f.unit}`;
  const baseline =
    f.baseline === undefined
      ? '—'
      : `${fmtNumber(f.baseline)} ${f.unit}${f.baselineName ? ` (${f.baselineName})` : ''}`;
  const r = fmtRatio(ratio(f.value, f.baseline));
  const status =
    v.status === 'met'
      ? '**met**'
      : v.status === 'not met'
        ? `**NOT MET** — ${v.shortfall}${f.cause ? `. Cause: ${f.cause}` : ''}`
        : v.status;
  return `| ${cell(f.name)} | ${cell(value)} | ${cell(baseline)} | ${r} | ${cell(fmtGoal(f.goal, f.unit))} | ${cell(status)} | ${cell(f.note ?? '')} |`;
}

/** The whole page. */
export function renderReport(r: Report): string {
  const all = r.sections.flatMap((s) => s.figures);
  const judged = all.map(verdict);
  const count = (s: Verdict['status']) => judged.filter((v) => v.status === s).length;
  const missed = all.filter((f) => verdict(f).status === 'not met');
  const lines: string[] = [
    '# Performance',
    '',
    '<!-- Generated by `npm run bench` (bench/run.ts). Do not edit by hand: rerun the benchmarks. -->',
    '',
    `Measured ${r.date} (${r.mode} run, ${Math.round(r.durationSeconds)} s) at commit \`${r.commit}\`.`,
    '',
    `- Machine: ${r.machine.cpuModel}, ${r.machine.cores} cores, ${r.machine.memoryGiB.toFixed(1)} GiB memory, ${r.machine.os}; load average at start ${r.machine.loadAverage.map((x) => x.toFixed(2)).join(' / ')}`,
    `- Node.js ${r.nodeVersion}`,
    ...r.method.map((m) => `- ${m}`),
    ...(r.timeBudget && r.timeBudget.length > 0
      ? [`- Time budget (${Math.round(r.durationSeconds)} s in all): ${renderBudget(r.timeBudget)}`]
      : []),
    '',
    `**Summary:** ${count('met')} goals met, ${count('not met')} not met, ${count('not measured')} figures not measured, ${count('no goal')} figures without a goal.`,
    '',
  ];
  if (missed.length > 0) {
    lines.push('Goals not met:', '');
    for (const f of missed)
      lines.push(
        `- ${f.name}: ${verdict(f).shortfall}.${f.cause ? ` Cause: ${f.cause}` : ' Cause: not established by this run.'}`,
      );
    lines.push('');
  }
  for (const s of r.sections) {
    lines.push(`## ${s.title}`, '');
    if (s.intro) lines.push(s.intro, '');
    lines.push('| figure | value | baseline | ratio | goal | status | notes |', '|---|---:|---:|---:|---|---|---|');
    for (const f of s.figures) lines.push(renderRow(f));
    lines.push('');
  }
  return lines.join('\n');
}
