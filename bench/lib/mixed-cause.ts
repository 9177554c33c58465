/**
 * Why the cheap calls' p99 in the mixed workload (issue #21: 80 % cheap, 15 % medium, 5 % heavy at
 * half the bare rate) is what it is against the bare server's, from the same run's numbers
 * (bench/rpc/mixed-workload.ts samples them): each server's event loop on a CPU and waiting for one
 * (schedstat, bench/lib/proc-threads.ts), the load client's and other processes' CPU, the node's
 * garbage collections and event-loop delay (prom-client's default metrics on its /metrics), and the
 * p99 of every call class. Pure: numbers in, the cause sentence out.
 * @module
 */

import { type RunUsage, type Side, sideOf } from './busy-cause.ts';
import { type GroupShare, groupShare, totalShare, type Usage } from './proc-threads.ts';

/** One kind of collection ("minor", "major", "incremental", "weakcb") over a window. */
export interface GcKind {
  readonly count: number;
  readonly seconds: number;
  /** Collections that paused the loop longer than 1 ms. */
  readonly over1ms: number;
  /** … longer than 10 ms. */
  readonly over10ms: number;
}

/** No collections. */
export const NO_GC: GcKind = Object.freeze({ count: 0, seconds: 0, over1ms: 0, over10ms: 0 });

/** Two collection tallies combined field by field (`sign` −1: the first less the second). */
function combineGc(a: GcKind, b: GcKind, sign: 1 | -1): GcKind {
  return {
    count: a.count + sign * b.count,
    seconds: a.seconds + sign * b.seconds,
    over1ms: a.over1ms + sign * b.over1ms,
    over10ms: a.over10ms + sign * b.over10ms,
  };
}

/** What the node's /metrics says about its loop: collections by kind (cumulative) and the delay since the last scrape. */
export interface LoopMetrics {
  readonly gc: Readonly<Record<string, GcKind>>;
  /** prom-client's event-loop delay percentiles since its previous scrape (monitorEventLoopDelay, 10 ms resolution). */
  readonly lagP99Ms: number;
  readonly lagMaxMs: number;
}

/** Labels of one exposition line, e.g. `{le="0.001",kind="minor"}` → { le: "0.001", kind: "minor" }. */
function labelsOf(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  const open = line.indexOf('{');
  if (open < 0) return out;
  for (const m of line.slice(open, line.indexOf('}', open)).matchAll(/(\w+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

/** Reads prom-client's `nodejs_gc_duration_seconds` (by kind) and `nodejs_eventloop_lag_{p99,max}_seconds`. */
export function parseLoopMetrics(exposition: string): LoopMetrics | undefined {
  const gc: Record<string, { -readonly [F in keyof GcKind]: number }> = {};
  const kind = (k: string) => (gc[k] ??= { ...NO_GC });
  const upTo: Record<string, Record<string, number>> = {};
  let lagP99: number | undefined;
  let lagMax: number | undefined;
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#') || line.length === 0) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith('nodejs_gc_duration_seconds_bucket{')) {
      const l = labelsOf(line);
      if (l.kind !== undefined && l.le !== undefined) (upTo[l.kind] ??= {})[l.le] = value;
    } else if (line.startsWith('nodejs_gc_duration_seconds_count{')) kind(labelsOf(line).kind ?? '?').count = value;
    else if (line.startsWith('nodejs_gc_duration_seconds_sum{')) kind(labelsOf(line).kind ?? '?').seconds = value;
    else if (line.startsWith('nodejs_eventloop_lag_p99_seconds')) lagP99 = value;
    else if (line.startsWith('nodejs_eventloop_lag_max_seconds')) lagMax = value;
  }
  if (lagP99 === undefined || lagMax === undefined) return undefined;
  for (const [k, buckets] of Object.entries(upTo)) {
    const g = kind(k);
    g.over1ms = g.count - (buckets['0.001'] ?? 0);
    g.over10ms = g.count - (buckets['0.01'] ?? 0);
  }
  return { gc, lagP99Ms: lagP99 * 1000, lagMaxMs: lagMax * 1000 };
}

/** Collections between two cumulative readings, by kind. */
export function gcDifference(
  before: Readonly<Record<string, GcKind>>,
  after: Readonly<Record<string, GcKind>>,
): Record<string, GcKind> {
  const out: Record<string, GcKind> = {};
  for (const [k, a] of Object.entries(after)) out[k] = combineGc(a, before[k] ?? NO_GC, -1);
  return out;
}

/** Collections of several windows summed by kind. */
export function sumGc(parts: readonly Readonly<Record<string, GcKind>>[]): Record<string, GcKind> {
  const out: Record<string, GcKind> = {};
  for (const p of parts) for (const [k, g] of Object.entries(p)) out[k] = combineGc(out[k] ?? NO_GC, g, 1);
  return out;
}

/** One fixed-rate run of one server: its cheap calls' p99 and what its threads did. */
export interface MixedRunSample {
  readonly p99Ms: number;
  readonly usage: RunUsage;
}

/** One server's side of the comparison. */
export interface MixedSide {
  readonly runs: readonly MixedRunSample[];
  /** Its collections over its runs (undefined when not read) and the wall time they were read over. */
  readonly gc: Readonly<Record<string, GcKind>> | undefined;
  readonly gcWallSeconds: number;
}

/** Everything the mixed workload's cause is written from. */
export interface MixedRun {
  readonly cpus: number;
  readonly load: readonly number[];
  readonly node: MixedSide;
  readonly bare: MixedSide;
  /** Every class's p99 on the node (ms), cheap first. */
  readonly classP99Ms: readonly number[];
  /** Median over the node's runs of prom-client's event-loop delay p99, less its 10 ms timer (ms). */
  readonly lagP99Ms: number | undefined;
}

const f2 = (x: number): string => x.toFixed(2);
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

/** The event loop's share of a run or a side: on a CPU, waiting for one (fractions of wall time), timeslices per second. */
function loopOf(u: { readonly node: Usage }): GroupShare {
  return groupShare(u.node, 'event loop');
}

/** Busy cores of other processes: the machine's less the server's and the load client's threads. */
function others(side: Side): number {
  return Math.max(0, side.machineBusyCores - totalShare(side.node).onCpu - totalShare(side.client).onCpu);
}

/** Spearman's rank correlation of two equal-length series (ties share their mean rank); NaN under 3 points. */
export function rankCorrelation(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 3 || ys.length !== n) return Number.NaN;
  const ranks = (v: readonly number[]) => {
    const order = v.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x);
    const r = new Array<number>(n);
    for (let k = 0; k < n; ) {
      let j = k;
      while (j + 1 < n && order[j + 1]!.x === order[k]!.x) j++;
      for (let m = k; m <= j; m++) r[order[m]!.i] = (k + j) / 2;
      k = j + 1;
    }
    return r;
  };
  const rx = ranks(xs);
  const ry = ranks(ys);
  const mean = (n - 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (rx[i]! - mean) * (ry[i]! - mean);
    sxx += (rx[i]! - mean) ** 2;
    syy += (ry[i]! - mean) ** 2;
  }
  return sxx === 0 || syy === 0 ? Number.NaN : sxy / Math.sqrt(sxx * syy);
}

/** Pause share of the wall time, pauses over 1 ms per second, and the text of one side's collections. */
function gcOf(side: MixedSide): { share: number; longPerSecond: number; text: string } | undefined {
  if (side.gc === undefined || side.gcWallSeconds <= 0) return undefined;
  const kinds = Object.entries(side.gc).filter(([, g]) => g.count > 0);
  const seconds = kinds.reduce((a, [, g]) => a + g.seconds, 0);
  const long = kinds.reduce((a, [, g]) => a + g.over1ms, 0);
  const share = seconds / side.gcWallSeconds;
  return {
    share,
    longPerSecond: long / side.gcWallSeconds,
    text: `${pct(share)} (${kinds.map(([k, g]) => `${g.count} ${k} of ${((g.seconds / g.count) * 1000).toFixed(2)} ms`).join(', ') || 'none'}; ${long} over 1 ms)`,
  };
}

/**
 * The cause of the mixed workload's cheap p99 against the bare server's. A request waits when its
 * server's loop is busy (other requests, a collection) or runnable without a core; the p99 is set by
 * the one request in a hundred that meets the longest such spell, so it moves with what happens to
 * each run. From the runs of both servers: whether the p99 followed the loop's wait for a core run
 * by run (rank correlation), whether the node's collections paused its loop more than the bare
 * server's, or whether its loop was busier at the same rate — the first that holds is named — then
 * every figure, the run-by-run p99 and wait, and whether the heavy classes' p99 differ from the cheap
 * calls' (not when the delay is the whole loop's).
 */
export function mixedCause(r: MixedRun): string {
  const nodeRuns = r.node.runs.map((x) => ({ p99: x.p99Ms, runQueue: loopOf(x.usage).runQueue }));
  const bareRuns = r.bare.runs.map((x) => ({ p99: x.p99Ms, runQueue: loopOf(x.usage).runQueue }));
  const perRun = (xs: typeof nodeRuns) => xs.map((x) => `${f2(x.p99)} ms/${pct(x.runQueue)}`).join(', ');
  const runsText = `run by run, p99 / loop waiting for a core: node ${perRun(nodeRuns)}; bare ${perRun(bareRuns)}`;
  const node = sideOf(
    r.node.runs.map((x) => x.usage),
    Number.NaN,
  );
  const bare = sideOf(
    r.bare.runs.map((x) => x.usage),
    Number.NaN,
  );
  if (node === undefined || bare === undefined)
    return `the scheduler figures could not be read (/proc/<pid>/task/*/schedstat); ${runsText}`;
  const n = loopOf(node);
  const b = loopOf(bare);
  const all = [...nodeRuns, ...bareRuns];
  const rho = rankCorrelation(
    all.map((x) => x.runQueue),
    all.map((x) => x.p99),
  );
  const maxWait = Math.max(...all.map((x) => x.runQueue));
  const ng = gcOf(r.node);
  const bg = gcOf(r.bare);
  const cheap = r.classP99Ms[0] ?? Number.NaN;
  const loopWide = r.classP99Ms.every((p) => Math.abs(p - cheap) <= 0.25 * cheap);
  const classes = loopWide
    ? `every call class had about the same p99 (${r.classP99Ms.map(f2).join(', ')} ms): the delay is the whole loop's, not heavy answers holding up cheap ones`
    : `the classes' p99 differ (${r.classP99Ms.map(f2).join(', ')} ms, cheap first)`;
  const named =
    rho >= 0.6 && maxWait >= 0.05
      ? `the p99 followed how long each server's event loop waited for a core, run by run (rank correlation ${f2(rho)} over ${all.length} runs; waiting ${pct(n.runQueue)} of the time on the node against ${pct(b.runQueue)} on the bare server): the 2 cores were wanted by the servers, the load client and other processes at once`
      : ng !== undefined &&
          bg !== undefined &&
          ng.share - bg.share >= 0.005 &&
          ng.longPerSecond - bg.longPerSecond >= 0.5
        ? `the node's collections: they paused its loop ${pct(ng.share)} of the time against the bare server's ${pct(bg.share)}, ${ng.longPerSecond.toFixed(1)} pauses over 1 ms a second against ${bg.longPerSecond.toFixed(1)} — a request arriving in one waits it out`
        : n.onCpu - b.onCpu >= 0.05
          ? `the node's loop was busier at the same rate (on a CPU ${pct(n.onCpu)} against ${pct(b.onCpu)}: its work per request), so bursts of arrivals queue longer behind it`
          : "none of the loop's wait for a core, the collections or the loop's own time differs enough to account for it: the p99 moved with the run";
  return (
    `${named}. Node against bare: event loop on a CPU ${pct(n.onCpu)} / ${pct(b.onCpu)}, waiting for a core ${pct(n.runQueue)} / ${pct(b.runQueue)} ` +
    `(${n.timeslicesPerSecond.toFixed(0)} / ${b.timeslicesPerSecond.toFixed(0)} timeslices/s); collections paused the loop ${ng?.text ?? 'not read'} / ${bg?.text ?? 'not read'}; ` +
    `load client ${f2(totalShare(node.client).onCpu)} / ${f2(totalShare(bare.client).onCpu)} cores, other processes ${f2(others(node))} / ${f2(others(bare))} ` +
    `(${r.cpus} cores, load average ${r.load.map(f2).join(' ')})${r.lagP99Ms === undefined ? '' : `; the node's event-loop delay p99 ${f2(r.lagP99Ms)} ms`}; ${classes}; ${runsText}`
  );
}
