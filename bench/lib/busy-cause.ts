/**
 * Why reads slow down while the node builds blocks, from the scheduler's figures of the idle and
 * the busy runs (bench/rpc/busy-node.ts samples them; proc-threads.ts turns snapshots into usage):
 * the event loop's time on a CPU, waiting for one and asleep, what the node's threads and the load
 * client wanted of the cores, the bot's own share of the loop, and the ratio those predict next to
 * the measured one. Pure: numbers in, the cause sentence and the figures out.
 * @module
 */
import { addUsage, groupShare, totalShare, type Usage } from './proc-threads.ts';
import type { Figure } from './report.ts';

/** The node's, the load client's and the machine's CPU over one closed-loop run. */
export interface RunUsage {
  readonly node: Usage;
  readonly client: Usage;
  /** Busy cores of the whole machine (every process) over the run, by /proc/stat. */
  readonly machineBusyCores: number;
}

/** One side (idle or busy) of the comparison, over all its runs. */
export interface Side {
  readonly node: Usage;
  readonly client: Usage;
  readonly machineBusyCores: number;
  readonly rps: number;
}

/** What the scheduler says about the idle and the busy runs, and the bot's share of the loop. */
export interface Contention {
  readonly cpus: number;
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
  readonly idle: Side | undefined;
  readonly busy: Side | undefined;
  /** The event loop's on-CPU fraction with the bot running and no reads. */
  readonly botLoopShare: number | undefined;
}

/** The runs of one side as one window (machine cores weighted by each run's length). */
export function sideOf(runs: readonly RunUsage[], rps: number): Side | undefined {
  if (runs.length === 0) return undefined;
  const node = addUsage(...runs.map((r) => r.node));
  const weights = runs.map((r) => r.node.elapsedNs);
  const total = weights.reduce((a, b) => a + b, 0);
  return {
    node,
    client: addUsage(...runs.map((r) => r.client)),
    machineBusyCores: runs.reduce((a, r, i) => a + r.machineBusyCores * weights[i]!, 0) / total,
    rps,
  };
}

/** The idle and busy sides and the bot's share of the loop (its on-CPU fraction in `bot`, a no-reads window). */
export function contentionOf(
  idle: readonly RunUsage[],
  busy: readonly RunUsage[],
  bot: Usage | undefined,
  o: {
    idleRps: number;
    busyRps: number;
    loadBefore: readonly number[];
    loadAfter: readonly number[];
    cpus: number;
  },
): Contention {
  return {
    cpus: o.cpus,
    loadBefore: o.loadBefore,
    loadAfter: o.loadAfter,
    idle: sideOf(idle, o.idleRps),
    busy: sideOf(busy, o.busyRps),
    botLoopShare: bot === undefined ? undefined : groupShare(bot, 'event loop').onCpu,
  };
}

const f2 = (x: number): string => x.toFixed(2);
const loadText = (l: readonly number[]): string => l.map((x) => x.toFixed(2)).join(' ');

/** The node's groups by CPU, e.g. "event loop 0.63 (+0.26 waiting), tx-hash worker 0.30 (+0.05 waiting)". */
function groupsText(u: Usage): string {
  return [...u.groups.keys()]
    .map((g) => ({ g, s: groupShare(u, g) }))
    .filter((x) => x.s.onCpu + x.s.runQueue >= 0.005)
    .sort((a, b) => b.s.onCpu - a.s.onCpu)
    .map((x) => `${x.g} ${f2(x.s.onCpu)} (+${f2(x.s.runQueue)} waiting)`)
    .join(', ');
}

/** Milliseconds of CPU per admitted tx in each thread group, e.g. "event loop 5.1 ms, tx-hash worker 13.2 ms". */
export function perTxByGroup(u: Usage, txs: number): string {
  return [...u.groups.entries()]
    .filter(([, g]) => g.onCpuNs / txs >= 0.05e6)
    .sort((a, b) => b[1].onCpuNs - a[1].onCpuNs)
    .map(([name, g]) => `${name} ${(g.onCpuNs / txs / 1e6).toFixed(1)} ms`)
    .join(', ');
}

/** The event loop's figures on one side: on CPU, waiting, asleep (fractions of wall time), timeslices/s. */
function loopOf(side: Side): { onCpu: number; runQueue: number; asleep: number; slices: number } {
  const s = groupShare(side.node, 'event loop');
  return {
    onCpu: s.onCpu,
    runQueue: s.runQueue,
    asleep: Math.max(0, 1 - s.onCpu - s.runQueue),
    slices: s.timeslicesPerSecond,
  };
}

/** Busy cores of other processes: the machine's less what the node's and the load client's threads ran. */
function otherProcessesCores(side: Side): number {
  return Math.max(0, side.machineBusyCores - totalShare(side.node).onCpu - totalShare(side.client).onCpu);
}

/** Cores the node's and the load client's threads wanted (on a CPU or waiting for one). */
function demandOf(side: Side): { node: number; client: number } {
  const n = totalShare(side.node);
  const c = totalShare(side.client);
  return { node: n.onCpu + n.runQueue, client: c.onCpu + c.runQueue };
}

/**
 * Why reads slow down while the bot runs, from this run's own scheduler figures: how much of the
 * wall time the event loop was on a CPU and how much it waited for one, idle and busy; how many
 * cores the runnable threads wanted against the cores there are; and what share of the loop the
 * bot's own work took (measured with no reads), leaving the reads' share (docs/PERFORMANCE-NOTES.md,
 * Reads while building).
 */
export function busyCause(
  c: Contention,
  cpu: { mainMsPerTx: number; allMsPerTx: number } | undefined,
  bot: Usage | undefined,
  admitted: number,
): string {
  const perTx =
    cpu === undefined
      ? ''
      : `; each bot tx cost ${cpu.mainMsPerTx.toFixed(1)} ms of event-loop CPU and ${cpu.allMsPerTx.toFixed(1)} ms in all threads${bot === undefined || admitted <= 0 ? '' : ` (${perTxByGroup(bot, admitted)})`}`;
  if (c.idle === undefined || c.busy === undefined)
    return `the scheduler figures could not be read (/proc/<pid>/task/*/schedstat)${perTx} (docs/PERFORMANCE-NOTES.md, Reads while building)`;
  const i = loopOf(c.idle);
  const b = loopOf(c.busy);
  const di = demandOf(c.idle);
  const db = demandOf(c.busy);
  const bot0 = c.botLoopShare ?? 0;
  const readsBusy = Math.max(0, b.onCpu - bot0);
  const expected = readsBusy / i.onCpu;
  const measured = c.busy.rps / c.idle.rps;
  const usIdle = (i.onCpu * 1e6) / c.idle.rps;
  const usBusy = (readsBusy * 1e6) / c.busy.rps;
  const others = otherProcessesCores(c.busy);
  return (
    `the event loop was on a CPU ${f2(b.onCpu)} of the time against ${f2(i.onCpu)} idle and waited on a run queue ${f2(b.runQueue)} against ${f2(i.runQueue)} ` +
    `(asleep ${f2(b.asleep)} against ${f2(i.asleep)}; ${b.slices.toFixed(0)} timeslices/s against ${i.slices.toFixed(0)}): ` +
    `the node's and the load client's threads wanted ${f2(db.node + db.client)} cores of ${c.cpus} on average (on a CPU or waiting for one) against ${f2(di.node + di.client)} idle ` +
    `(the node ${f2(db.node)}: ${groupsText(c.busy.node)}; the load client ${f2(db.client)}; other processes ${f2(others)}; load average ${loadText(c.loadBefore)} before, ${loadText(c.loadAfter)} after), ` +
    `and in the bursts when more were runnable than there are cores the loop waited. ` +
    `Of the loop's ${f2(b.onCpu)}, the bot's own work took ${f2(bot0)} (its share with no reads: building its txs, node_sendTx, the pool and the blocks), ` +
    `leaving reads ${f2(readsBusy)} against ${f2(i.onCpu)} idle: ${f2(expected)}× expected from the loop's CPU time, ${f2(measured)}× measured ` +
    `(${usIdle.toFixed(1)} µs of loop CPU per read idle, ${usBusy.toFixed(1)} busy${usBusy > usIdle * 1.1 ? `: a read cost the loop ${(usBusy / usIdle).toFixed(2)}× its idle CPU, which the loop's time does not account for` : ''})${perTx} (docs/PERFORMANCE-NOTES.md, Reads while building)`
  );
}

/** The scheduler figures themselves, without goals: the event loop's time and the CPU demand, idle against busy. */
export function contentionFigures(c: Contention, txsPerSecond: number): Figure[] {
  const name = (what: string) => `${what} (cheap-call runs, bot at ${txsPerSecond} txs/s vs idle)`;
  const method = `/proc/<pid>/task/<tid>/schedstat of every node thread and the load client's, sampled every 250 ms over each closed-loop run; ${c.cpus} CPUs, load average ${loadText(c.loadBefore)} before the idle runs, ${loadText(c.loadAfter)} after the busy ones`;
  if (c.idle === undefined || c.busy === undefined)
    return [{ name: name('event loop on a CPU'), unit: 'fraction', note: `not measured: ${method} could not be read` }];
  const i = loopOf(c.idle);
  const b = loopOf(c.busy);
  const di = demandOf(c.idle);
  const db = demandOf(c.busy);
  return [
    {
      name: name('event loop on a CPU, fraction of wall time'),
      unit: 'fraction',
      value: b.onCpu,
      baseline: i.onCpu,
      baselineName: 'same node idle',
      note: `${method}; waiting on a run queue ${f2(b.runQueue)} vs ${f2(i.runQueue)} idle, asleep ${f2(b.asleep)} vs ${f2(i.asleep)}, ${b.slices.toFixed(0)} vs ${i.slices.toFixed(0)} timeslices/s`,
    },
    {
      name: name('event loop waiting on a run queue, fraction of wall time'),
      unit: 'fraction',
      value: b.runQueue,
      baseline: i.runQueue,
      baselineName: 'same node idle',
      note: 'runnable but not on a CPU: another thread had the core',
    },
    {
      name: name('CPU demand of the node and the load client (on a CPU + waiting for one)'),
      unit: 'cores',
      value: db.node + db.client,
      baseline: di.node + di.client,
      baselineName: 'same node idle',
      note: `of ${c.cpus} cores; busy: node ${f2(db.node)} (${groupsText(c.busy.node)}), load client ${f2(db.client)}, other processes ${f2(otherProcessesCores(c.busy))} (whole machine busy ${f2(c.busy.machineBusyCores)} cores); idle: node ${f2(di.node)} (${groupsText(c.idle.node)}), load client ${f2(di.client)}, other processes ${f2(otherProcessesCores(c.idle))} (whole machine busy ${f2(c.idle.machineBusyCores)} cores)`,
    },
    {
      name: `the bot's share of the event loop (bot at ${txsPerSecond} txs/s, no reads)`,
      unit: 'fraction',
      ...(c.botLoopShare === undefined ? {} : { value: c.botLoopShare }),
      note: "the event loop's on-CPU fraction by schedstat while the bot ran and nothing else called the node: its txs' build, node_sendTx, the pool's writes and the blocks built meanwhile",
    },
  ];
}

/**
 * The scheduler's view of the runs in which blocks were built, for the stall figure's cause: how
 * much of the time the event loop waited for a core, and who wanted the cores (undefined without
 * samples).
 */
export function schedulerContext(runs: readonly RunUsage[], cpus: number, load: readonly number[]): string | undefined {
  const side = sideOf(runs, Number.NaN);
  if (side === undefined) return undefined;
  const l = loopOf(side);
  const d = demandOf(side);
  return (
    `while they were built the event loop was on a CPU ${f2(l.onCpu)} of the time and waited on a run queue ${f2(l.runQueue)} (${l.slices.toFixed(0)} timeslices/s), ` +
    `the node's and the load client's threads wanted ${f2(d.node + d.client)} cores of ${cpus} (the node: ${groupsText(side.node)}; the load client ${f2(d.client)}; other processes ${f2(otherProcessesCores(side))}), load average ${loadText(load)}`
  );
}
