/**
 * Why a cheap-call throughput figure falls below its goal, written from what the same run measured:
 * CPU per answer of each server (all threads, /proc) and of the load client, the run-to-run spread
 * and the machine's load. The method and the older per-request breakdown (perf, V8 profiles) are in
 * bench/rpc/THROUGHPUT-NOTES.md. rpc-bench.ts attaches the text to the two cheap-call figures; the
 * report shows it only next to a missed goal.
 * @module
 */
import { median } from '../lib/stats.ts';

/** What one cheap-call figure's interleaved runs measured, medians over the runs. */
export interface CheapCallCost {
  /** Node and bare server: CPU µs per answer, all threads. */
  readonly nodeUs: number;
  readonly bareUs: number;
  /** The kernel's part of each (stime: socket reads and writes, loopback TCP), µs per answer. */
  readonly nodeKernelUs: number;
  readonly bareKernelUs: number;
  /** The load client's CPU µs per answer while loading each server. */
  readonly clientNodeUs: number;
  readonly clientBareUs: number;
  /** Throughput of each run, req/s. */
  readonly nodeRps: readonly number[];
  readonly bareRps: readonly number[];
  readonly cores: number;
  /** Set when each server ran on cores of its own and the load client on others (taskset lists). */
  readonly separate?: { readonly server: string; readonly client: string };
  /** One-minute load average when the throughput runs started. */
  readonly loadAverage: number;
}

const us = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');
const ratio = (x: number) => `${x.toFixed(2)}×`;
/** The lowest and highest of a figure's runs. */
export const spread = (xs: readonly number[]) =>
  `${Math.round(Math.min(...xs)).toLocaleString('en-US')}–${Math.round(Math.max(...xs)).toLocaleString('en-US')} req/s`;

/**
 * Where the extra CPU per answer is spent: in user mode (the node's JSON-RPC contract: envelope
 * checks, the method table, the handler's promise) or in the kernel (the same socket reads and
 * writes as the bare server, so a kernel difference is the machine's, not the code's).
 */
function splitByMode(c: CheapCallCost): string {
  const [nodeUser, bareUser] = [c.nodeUs - c.nodeKernelUs, c.bareUs - c.bareKernelUs];
  if (!(Number.isFinite(nodeUser) && Number.isFinite(bareUser))) return 'no user/kernel split was read';
  const d = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;
  return `user mode ${us(nodeUser)} against ${us(bareUser)} (${d(nodeUser - bareUser)} µs: the node's JSON-RPC contract — envelope checks, the method table, the handler's promise; bench/rpc/THROUGHPUT-NOTES.md), kernel ${us(c.nodeKernelUs)} against ${us(c.bareKernelUs)} (${d(c.nodeKernelUs - c.bareKernelUs)} µs: the same socket reads and writes over loopback)`;
}

/**
 * One line: how much of the shortfall is the node's own CPU per answer and how much the machine.
 * With both servers saturating their core, throughput follows 1 / CPU per answer, so the CPU ratio
 * bounds what the code alone explains; the rest of the gap is scheduling on cores shared with the
 * load client (which sleeps and is woken per answer when the server is the slower side).
 */
export function cheapCallCause(c: CheapCallCost): string {
  const measured = median(c.nodeRps) / median(c.bareRps);
  const cpuBound = c.bareUs / c.nodeUs;
  const own = `in this run the node spent ${us(c.nodeUs)} µs of CPU per answer against the bare server's ${us(c.bareUs)} (all threads, /proc), ${ratio(c.nodeUs / c.bareUs)}; ${splitByMode(c)}`;
  const machine = `the load client took ${us(c.clientNodeUs)} µs per answer from the node against ${us(c.clientBareUs)} from the bare server, ${c.separate === undefined ? `on ${c.cores} cores shared with it` : `on core ${c.separate.client} while each server ran on core ${c.separate.server}`} (load average ${c.loadAverage.toFixed(1)} at the start); the node's runs ranged ${spread(c.nodeRps)}, the bare server's ${spread(c.bareRps)}`;
  if (!(Number.isFinite(cpuBound) && Number.isFinite(measured))) return `${own}; ${machine}`;
  return measured < cpuBound - 0.02
    ? `${own}, which alone would allow about ${ratio(cpuBound)}; the rest of the gap to the measured ${ratio(measured)} is the machine: ${machine}`
    : `${own}, which accounts for the measured ${ratio(measured)}; ${machine}`;
}

/**
 * Why `--metrics-port` costs a cheap call more than its goal allows, from the same run's CPU per call
 * with and without it: the instrumentation's own cost is the CPU ratio; a throughput ratio below what
 * that allows is run-to-run spread on the shared machine.
 */
export function metricsCostCause(c: {
  readonly onUs: number;
  readonly offUs: number;
  readonly onRps: readonly number[];
  readonly offRps: readonly number[];
}): string {
  const measured = median(c.onRps) / median(c.offRps);
  const cpuBound = c.offUs / c.onUs;
  const own = `in this run the node with metrics spent ${us(c.onUs)} µs of CPU per call against ${us(c.offUs)} without (${ratio(c.onUs / c.offUs)}, all threads, /proc)`;
  const runs = `runs with metrics ${spread(c.onRps)}, without ${spread(c.offRps)}`;
  if (!(Number.isFinite(cpuBound) && Number.isFinite(measured))) return `${own}; ${runs}`;
  return measured < cpuBound - 0.02
    ? `${own}, which alone would allow about ${ratio(Math.min(cpuBound, 1))}; the rest of the gap to the measured ${ratio(measured)} is the spread between runs on the shared machine (${runs})`
    : `${own}, which accounts for the measured ${ratio(measured)} (${runs})`;
}
