/**
 * Child processes of a bench run: the node (bin/l2node.js), the bare baseline server and the load
 * client. Every process started here is stopped by the same module (SIGTERM, then SIGKILL after a
 * grace period), and every wait is bounded.
 * @module
 */

import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { RunUsage } from '../lib/busy-cause.ts';
import {
  type MachineTimes,
  machineBusyCores,
  type ProcessSnapshot,
  parseLoadavg,
  parseProcStat,
  parseSchedstat,
  parseTaskStat,
  type ThreadTimes,
  threadGroup,
  usageBetween,
} from '../lib/proc-threads.ts';
import type { LoadOptions, LoadResult } from './load-client.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const NODE_BIN = process.execPath;

/** A started child with the ports it reported. */
export interface Child {
  readonly proc: ChildProcess;
  readonly port: number;
  /** Resident set size in bytes, from /proc (NaN when unavailable). */
  rss(): number;
  /** CPU time used so far (user + system), in seconds, from /proc (NaN when unavailable). */
  cpuSeconds(): number;
  /** The part of cpuSeconds spent in the kernel on the process's behalf (stime), in seconds. */
  kernelSeconds(): number;
  stop(): Promise<void>;
}

/** Resident set of a process in bytes from /proc/<pid>/status (VmRSS); NaN when unreadable. */
export function rssOf(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? Number.NaN : Number(m[1]) * 1024;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds (utime + stime) of a process from /proc/<pid>/stat; NaN when unreadable. */
export function cpuSecondsOf(pid: number | undefined): number {
  return pid === undefined ? Number.NaN : statCpuSeconds(`/proc/${pid}/stat`);
}

/** A child's /proc readers (Child's rss, cpuSeconds and kernelSeconds). */
function procReaders(pid: number | undefined): Pick<Child, 'rss' | 'cpuSeconds' | 'kernelSeconds'> {
  return { rss: () => rssOf(pid), cpuSeconds: () => cpuSecondsOf(pid), kernelSeconds: () => kernelSecondsOf(pid) };
}

/** Kernel-mode CPU seconds (stime) of a process from /proc/<pid>/stat; NaN when unreadable. */
export function kernelSecondsOf(pid: number | undefined): number {
  return pid === undefined ? Number.NaN : statCpuSeconds(`/proc/${pid}/stat`, 'kernel');
}

/** CPU seconds of a process's main thread alone (its event loop), from /proc/<pid>/task/<pid>/stat. */
export function mainThreadCpuSecondsOf(pid: number | undefined): number {
  return pid === undefined ? Number.NaN : statCpuSeconds(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuSeconds(file: string, part: 'all' | 'kernel' = 'all'): number {
  try {
    const stat = parseTaskStat(readFileSync(file, 'utf8'));
    return (part === 'all' ? stat.cpuTicks : stat.systemTicks) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/**
 * Every thread of a process with its scheduler figures (/proc/<pid>/task/*: schedstat, stat's name);
 * undefined when the process is gone. A thread that ends while it is read is skipped.
 */
export function readProcessThreads(pid: number | undefined): ProcessSnapshot | undefined {
  if (pid === undefined) return undefined;
  const atNs = Number(process.hrtime.bigint());
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  const threads: ThreadTimes[] = [];
  for (const tid of tids) {
    try {
      const dir = `/proc/${pid}/task/${tid}`;
      const { name } = parseTaskStat(readFileSync(`${dir}/stat`, 'utf8'));
      threads.push({ tid: Number(tid), name, ...parseSchedstat(readFileSync(`${dir}/schedstat`, 'utf8')) });
    } catch {
      // ended meanwhile
    }
  }
  return { pid, atNs, threads };
}

/** The machine's CPU ticks so far (/proc/stat). */
export function readMachineTimes(): MachineTimes {
  return parseProcStat(readFileSync('/proc/stat', 'utf8'));
}

/** The 1-, 5- and 15-minute load averages (/proc/loadavg). */
export function readLoadavg(): [number, number, number] {
  return parseLoadavg(readFileSync('/proc/loadavg', 'utf8'));
}

interface ThreadSample {
  readonly node: ProcessSnapshot;
  readonly client: ProcessSnapshot;
  readonly machine: MachineTimes;
}

/**
 * Snapshots of a server's threads, the load client's and the machine's CPU taken while a load client
 * runs (`take` on each of runLoadProcess's ticks); the usage is between the first and the last with
 * both processes alive, the server's threads grouped by bench/lib/proc-threads.ts threadGroup.
 */
export class ThreadSamples {
  #first: ThreadSample | undefined;
  #last: ThreadSample | undefined;
  readonly #nodePid: number;
  constructor(nodePid: number) {
    this.#nodePid = nodePid;
  }

  take(clientPid: number | undefined): void {
    const node = readProcessThreads(this.#nodePid);
    const client = readProcessThreads(clientPid);
    if (node === undefined || client === undefined) return;
    const sample = { node, client, machine: readMachineTimes() };
    this.#first ??= sample;
    this.#last = sample;
  }

  usage(): RunUsage | undefined {
    const a = this.#first;
    const b = this.#last;
    if (a === undefined || b === undefined || b.node.atNs <= a.node.atNs || b.client.atNs <= a.client.atNs)
      return undefined;
    return {
      node: usageBetween(a.node, b.node, (t) => threadGroup(t, this.#nodePid)),
      client: usageBetween(a.client, b.client, () => 'load client'),
      machineBusyCores: machineBusyCores(a.machine, b.machine, availableParallelism()),
    };
  }
}

/** USER_HZ on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

function stopper(proc: ChildProcess, graceMs = 10_000): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      const kill = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      proc.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      proc.kill('SIGTERM');
    });
}

/** Waits for a line on `stream` that `match` accepts; rejects after `timeoutMs` or on exit. */
function waitForLine<T>(
  proc: ChildProcess,
  stream: NodeJS.ReadableStream,
  match: (line: string) => T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let buf = '';
    let tail = '';
    const timer = setTimeout(
      () => finish(new Error(`${what}: no ready line within ${timeoutMs} ms; last output: ${tail.slice(-500)}`)),
      timeoutMs,
    );
    const onData = (d: Buffer) => {
      buf += d.toString('utf8');
      tail = (tail + d.toString('utf8')).slice(-2000);
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        const hit = match(line);
        if (hit !== undefined) return finish(undefined, hit);
      }
    };
    const onExit = (code: number | null) =>
      finish(new Error(`${what} exited (${code}) before ready; last output: ${tail.slice(-500)}`));
    function finish(err: Error | undefined, value?: T) {
      clearTimeout(timer);
      stream.off('data', onData);
      proc.off('exit', onExit);
      if (err) reject(err);
      else resolve(value as T);
    }
    stream.on('data', onData);
    proc.once('exit', onExit);
  });
}

/**
 * Starts the node on free ports with `dataDirectory`; resolves once the public port listens.
 * `nodeFlags` go to Node.js/V8 before the script (kept when the node's runtime replaces the process).
 */
export function startNode(
  dataDirectory: string,
  extraArgs: readonly string[] = [],
  timeoutMs = 120_000,
  nodeFlags: readonly string[] = [],
): Promise<Child & { readyMs: number }> {
  return startListening(
    [
      ...nodeFlags,
      'bin/l2node.js',
      '--data-directory',
      dataDirectory,
      '--port',
      '0',
      '--admin-port',
      '0',
      '--no-admin-api-key',
      '--log-level',
      'info',
      ...extraArgs,
    ],
    timeoutMs,
  );
}

/** Starts bench/rpc/engine-server.ts (the public server over the engine) on `dataDirectory`. */
export function startEngineServer(dataDirectory: string, timeoutMs = 120_000): Promise<Child & { readyMs: number }> {
  return startListening(['bench/rpc/engine-server.ts', dataDirectory], timeoutMs);
}

async function startListening(args: readonly string[], timeoutMs: number): Promise<Child & { readyMs: number }> {
  const script = args.find((a) => !a.startsWith('--'))!;
  const t0 = performance.now();
  const proc = spawn(NODE_BIN, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const stop = stopper(proc);
  try {
    const port = await waitForLine(
      proc,
      proc.stderr!,
      (line) => {
        if (!line.includes('public JSON-RPC listening')) return undefined;
        try {
          return (JSON.parse(line) as { port: number }).port;
        } catch {
          return undefined;
        }
      },
      timeoutMs,
      script,
    );
    const readyMs = performance.now() - t0;
    proc.stderr!.resume(); // keep draining the log
    return { proc, port, readyMs, ...procReaders(proc.pid), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Starts the bare node:http baseline with a recording file. */
export async function startBare(recordingFile: string): Promise<Child> {
  const proc = spawn(NODE_BIN, ['bench/rpc/bare-server.ts', recordingFile], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = stopper(proc, 3000);
  try {
    const port = await waitForLine(
      proc,
      proc.stdout!,
      (l) => (l.startsWith('{"port"') ? (JSON.parse(l) as { port: number }).port : undefined),
      30_000,
      'bare server',
    );
    return { proc, port, ...procReaders(proc.pid), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Runs the load client in its own process; `onTick` is called about every 250 ms while it runs,
 * with the client's pid (for sampling its CPU). `cores` (a taskset list) confines the client.
 */
export async function runLoadProcess(
  o: LoadOptions,
  onTick?: (clientPid: number | undefined) => void,
  cores?: string,
): Promise<LoadResult> {
  // Options on stdin: bodies and expected answers can exceed the argument size limit.
  const argv = [NODE_BIN, 'bench/rpc/load-client.ts', '-'];
  // taskset execs the client, so the pid is the client's.
  const [file, args] = cores === undefined ? [argv[0]!, argv.slice(1)] : ['taskset', ['-c', cores, ...argv]];
  const proc = spawn(file, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  proc.stdin!.end(JSON.stringify(o));
  const ticker = onTick === undefined ? undefined : setInterval(() => onTick(proc.pid), 250);
  const stop = stopper(proc, 2000);
  const limit = setTimeout(() => void stop(), o.warmupMs + o.durationMs + 30_000);
  try {
    return await waitForLine(
      proc,
      proc.stdout!,
      (l) =>
        l.startsWith('{')
          ? (JSON.parse(l, (_k, v: unknown) => (v === null ? Number.NaN : v)) as LoadResult)
          : undefined,
      o.warmupMs + o.durationMs + 30_000,
      'load client',
    );
  } finally {
    clearTimeout(limit);
    if (ticker) clearInterval(ticker);
    await stop();
  }
}

/**
 * Runs one load against `server` and reads the server's CPU time (all threads, /proc) around it:
 * seconds per answer, warm-up included, and the kernel's part of it (socket reads and writes).
 * Steadier than req/s on a machine shared with the load client and other work, since it does not
 * count time spent waiting for a core.
 */
export async function loadWithServerCpu(
  server: Child,
  run: () => Promise<LoadResult>,
): Promise<{ result: LoadResult; cpuPerAnswer: number; kernelPerAnswer: number }> {
  const [cpu0, kernel0] = [server.cpuSeconds(), server.kernelSeconds()];
  const result = await run();
  return {
    result,
    cpuPerAnswer: (server.cpuSeconds() - cpu0) / result.answered,
    kernelPerAnswer: (server.kernelSeconds() - kernel0) / result.answered,
  };
}

/** One JSON-RPC POST from this process (for recording and checks); resolves with status, headers and body. */
export async function post(
  port: number,
  body: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: await res.text() };
}

/**
 * Separate cores for a server and its load client (taskset lists), or undefined on a one-core
 * machine or without taskset (util-linux). On two cores a cheap call costs the load client about
 * two thirds of what it costs the server, so unpinned the two take the CPU from each other on every
 * answer and the figure measures the scheduler (docs/PERFORMANCE-NOTES.md, "The control").
 */
export function separateCores():
  | { readonly server: string; readonly client: string; readonly all: string }
  | undefined {
  const n = availableParallelism();
  if (n < 2 || spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status !== 0) return undefined;
  return { server: '0', client: n > 2 ? `1-${n - 1}` : '1', all: `0-${n - 1}` };
}

/** Sets the CPU affinity of every thread of a running process (threads it starts later inherit it). */
export function pinProcess(pid: number | undefined, cores: string): void {
  if (pid === undefined) return;
  const r = spawnSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`taskset -a -p -c ${cores} ${pid}: ${r.stderr.toString('utf8').trim()}`);
}
