/**
 * Where a process's threads spend wall time, from Linux's per-thread scheduler statistics: the
 * parsers for `/proc/<pid>/task/<tid>/{schedstat,stat,comm}`, `/proc/stat` and `/proc/loadavg`, and
 * the arithmetic that turns two snapshots into on-CPU and run-queue-wait fractions per thread group.
 * bench/rpc/busy-node.ts uses them to state why reads slow down while the node builds blocks
 * (issue #21): a thread that is runnable but waiting for a core shows up as run-queue time, which
 * CPU-time counters alone cannot tell from the thread being idle. Pure: the reading is in
 * bench/rpc/processes.ts.
 * @module
 */

/** One thread's cumulative scheduler figures (`/proc/<pid>/task/<tid>/schedstat`). */
export interface SchedStat {
  /** Nanoseconds spent on a CPU. */
  readonly onCpuNs: number;
  /** Nanoseconds spent runnable, waiting on a run queue. */
  readonly runQueueNs: number;
  /** Timeslices run on a CPU (each wake-up or preemption starts one). */
  readonly timeslices: number;
}

/** Parses `schedstat`: "on-CPU ns, run-queue ns, timeslices" on one line. */
export function parseSchedstat(text: string): SchedStat {
  const [onCpu, runQueue, slices] = text.trim().split(/\s+/);
  const out = { onCpuNs: Number(onCpu), runQueueNs: Number(runQueue), timeslices: Number(slices) };
  if (![out.onCpuNs, out.runQueueNs, out.timeslices].every(Number.isFinite))
    throw new Error(`schedstat: three numbers expected, got ${JSON.stringify(text)}`);
  return out;
}

/** The parts of `/proc/<pid>/task/<tid>/stat` used here. */
export interface TaskStat {
  /** The thread's name (`comm`, at most 15 characters; may contain spaces and parentheses). */
  readonly name: string;
  /** One-letter state: R running or runnable, S sleeping, D disk wait, … */
  readonly state: string;
  /** utime + stime in clock ticks (USER_HZ). */
  readonly cpuTicks: number;
  /** stime alone: time in the kernel on the thread's behalf (system calls such as socket writes). */
  readonly systemTicks: number;
}

/** Parses a `stat` line; the name is between the first "(" and the last ")". */
export function parseTaskStat(text: string): TaskStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`stat: no (comm) in ${JSON.stringify(text.slice(0, 80))}`);
  // After ") ": state is field 3 (1-based), utime and stime fields 14 and 15.
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const systemTicks = Number(rest[12]);
  const cpuTicks = Number(rest[11]) + systemTicks;
  if (rest[0] === undefined || !Number.isFinite(cpuTicks))
    throw new Error(`stat: too few fields in ${JSON.stringify(text.slice(0, 80))}`);
  return { name: text.slice(open + 1, close), state: rest[0], cpuTicks, systemTicks };
}

/** The machine's CPU time from the first line of `/proc/stat`, in clock ticks. */
export interface MachineTimes {
  /** All ticks but idle and iowait (user, nice, system, irq, softirq, steal). */
  readonly busyTicks: number;
  readonly totalTicks: number;
}

/** Parses `/proc/stat`'s aggregate "cpu" line. */
export function parseProcStat(text: string): MachineTimes {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (line === undefined) throw new Error('/proc/stat: no aggregate "cpu" line');
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice).
  const t = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (t.length < 8 || !t.every(Number.isFinite)) throw new Error(`/proc/stat: cannot read ${JSON.stringify(line)}`);
  const total = t.reduce((a, b) => a + b, 0);
  return { busyTicks: total - t[3]! - t[4]!, totalTicks: total };
}

/** The 1-, 5- and 15-minute load averages of `/proc/loadavg`. */
export function parseLoadavg(text: string): [number, number, number] {
  const [a, b, c] = text.trim().split(/\s+/).map(Number);
  if (![a, b, c].every((x) => Number.isFinite(x))) throw new Error(`loadavg: cannot read ${JSON.stringify(text)}`);
  return [a!, b!, c!];
}

/** One thread in a snapshot. */
export interface ThreadTimes extends SchedStat {
  readonly tid: number;
  readonly name: string;
}

/** A process's threads at one moment (`atNs` from a monotonic clock). */
export interface ProcessSnapshot {
  readonly pid: number;
  readonly atNs: number;
  readonly threads: readonly ThreadTimes[];
}

/**
 * The group a node thread's CPU is reported under. The main thread (tid = pid) is the event loop;
 * the node names its own workers (src/impl/crypto/poseidon2-off-thread.ts,
 * src/impl/store/wal-checkpointer.ts); V8 and libuv name theirs.
 */
export function threadGroup(thread: { readonly tid: number; readonly name: string }, pid: number): string {
  if (thread.tid === pid) return 'event loop';
  switch (thread.name) {
    case 'l2-tx-hash':
      return 'tx-hash worker';
    case 'l2-tree-levels':
      return 'tree-level worker';
    case 'l2-wal-ckpt':
      return 'WAL checkpointer';
    case 'V8Worker':
    case 'DelayedTaskSche':
      return 'V8 helpers';
    case 'libuv-worker':
      return 'libuv pool';
    default:
      return 'other threads';
  }
}

/** Summed scheduler figures of a group of threads over a window. */
export interface GroupTimes {
  readonly threads: number;
  readonly onCpuNs: number;
  readonly runQueueNs: number;
  readonly timeslices: number;
}

/** What a set of threads did over one or more windows (`elapsedNs` of wall time in all). */
export interface Usage {
  readonly elapsedNs: number;
  readonly groups: ReadonlyMap<string, GroupTimes>;
}

/**
 * What each group of `after.pid`'s threads did between two snapshots. A thread only in `after`
 * started within the window and counts from zero; one only in `before` ended within it and is
 * left out (its last part is unknown). `group` names the group each thread is summed under.
 */
export function usageBetween(
  before: ProcessSnapshot,
  after: ProcessSnapshot,
  group: (t: ThreadTimes) => string,
): Usage {
  if (after.atNs <= before.atNs) throw new Error('usageBetween: the second snapshot must be later');
  const was = new Map(before.threads.map((t) => [t.tid, t]));
  const groups = new Map<string, GroupTimes>();
  for (const t of after.threads) {
    const b = was.get(t.tid);
    const g = group(t);
    const sum = groups.get(g) ?? { threads: 0, onCpuNs: 0, runQueueNs: 0, timeslices: 0 };
    groups.set(g, {
      threads: sum.threads + 1,
      onCpuNs: sum.onCpuNs + t.onCpuNs - (b?.onCpuNs ?? 0),
      runQueueNs: sum.runQueueNs + t.runQueueNs - (b?.runQueueNs ?? 0),
      timeslices: sum.timeslices + t.timeslices - (b?.timeslices ?? 0),
    });
  }
  return { elapsedNs: after.atNs - before.atNs, groups };
}

/** Several windows as one: times and wall time summed (thread counts: the largest seen). */
export function addUsage(...parts: readonly Usage[]): Usage {
  const groups = new Map<string, GroupTimes>();
  for (const u of parts)
    for (const [name, g] of u.groups) {
      const sum = groups.get(name) ?? { threads: 0, onCpuNs: 0, runQueueNs: 0, timeslices: 0 };
      groups.set(name, {
        threads: Math.max(sum.threads, g.threads),
        onCpuNs: sum.onCpuNs + g.onCpuNs,
        runQueueNs: sum.runQueueNs + g.runQueueNs,
        timeslices: sum.timeslices + g.timeslices,
      });
    }
  return { elapsedNs: parts.reduce((a, u) => a + u.elapsedNs, 0), groups };
}

/** A group's time as fractions of the wall time (for one thread: of its time; for several: cores). */
export interface GroupShare {
  /** On a CPU, in cores (for a single thread, the fraction of wall time it ran). */
  readonly onCpu: number;
  /** Runnable but waiting on a run queue, in cores. */
  readonly runQueue: number;
  /** Timeslices per second of wall time. */
  readonly timeslicesPerSecond: number;
}

/** A group's share of the window (all zeros when the group is absent). */
export function groupShare(u: Usage, group: string): GroupShare {
  const g = u.groups.get(group);
  if (g === undefined || u.elapsedNs <= 0) return { onCpu: 0, runQueue: 0, timeslicesPerSecond: 0 };
  return {
    onCpu: g.onCpuNs / u.elapsedNs,
    runQueue: g.runQueueNs / u.elapsedNs,
    timeslicesPerSecond: g.timeslices / (u.elapsedNs / 1e9),
  };
}

/** The sum over every group: cores on a CPU and cores' worth of run-queue wait. */
export function totalShare(u: Usage): GroupShare {
  let onCpuNs = 0;
  let runQueueNs = 0;
  let slices = 0;
  for (const g of u.groups.values()) {
    onCpuNs += g.onCpuNs;
    runQueueNs += g.runQueueNs;
    slices += g.timeslices;
  }
  if (u.elapsedNs <= 0) return { onCpu: 0, runQueue: 0, timeslicesPerSecond: 0 };
  return {
    onCpu: onCpuNs / u.elapsedNs,
    runQueue: runQueueNs / u.elapsedNs,
    timeslicesPerSecond: slices / (u.elapsedNs / 1e9),
  };
}

/** Busy cores of the whole machine between two `/proc/stat` readings, given its CPU count. */
export function machineBusyCores(before: MachineTimes, after: MachineTimes, cpus: number): number {
  const total = after.totalTicks - before.totalTicks;
  return total > 0 ? ((after.busyTicks - before.busyTicks) / total) * cpus : Number.NaN;
}
