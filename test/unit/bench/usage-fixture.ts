/** Scheduler usage fixtures shared by the bench cause tests. */
import type { GroupTimes, Usage } from '../../../bench/lib/proc-threads.ts';

const S = 1e9;

/** A window of `seconds` with each group's on-CPU and run-queue seconds and timeslices. */
export function usage(seconds: number, groups: Record<string, [number, number, number]>): Usage {
  const m = new Map<string, GroupTimes>();
  for (const [name, [on, wait, slices]] of Object.entries(groups))
    m.set(name, { threads: 1, onCpuNs: on * S, runQueueNs: wait * S, timeslices: slices });
  return { elapsedNs: seconds * S, groups: m };
}
