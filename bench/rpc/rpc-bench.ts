/**
 * RPC section of the bench run: builds a data directory with the engine, starts the node on it and
 * a bare node:http baseline answering the recorded bytes, and measures both in the same run with
 * the load client in its own process: closed-loop requests/s (single calls and 10-call batches),
 * p99 at half the bare server's rate, fixed-rate latency at 1 000 requests/s, memory (idle, under
 * load, across a soak while the node keeps producing blocks, after 10 000 blocks) and startup time
 * on a data directory with 10 000 blocks. The 10 000-block directory is a copy of the RPC one
 * extended with empty blocks in another process during the soak, whose figure is memory only.
 * @module
 */

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/integration/free-port.ts';
import type { TimeBudget } from '../lib/budget.ts';
import type { Figure, Section } from '../lib/report.ts';
import { median, residentShape, slope } from '../lib/stats.ts';
import type { Recording } from './bare-server.ts';
import { recordAnswer } from './bare-server.ts';
import { logTagParams, TXS_PER_BLOCK } from './build-chain.ts';
import { measureBusyNode } from './busy-node.ts';
import type { LoadResult } from './load-client.ts';
import { dispatchOverhead, measureMetricsCost } from './metrics-cost.ts';
import { MIX, mixedWorkload } from './mixed-workload.ts';
import type { Child } from './processes.ts';
import {
  loadWithServerCpu,
  NODE_BIN,
  pinProcess,
  post,
  ROOT,
  runLoadProcess,
  separateCores,
  startBare,
  startEngineServer,
  startNode,
} from './processes.ts';
import type { WindowParts } from './resident-sampler.ts';
import { describeParts, largestGrowth, ResidentSampler, windowParts } from './resident-sampler.ts';
import { SOAK_BOT_ARGS, SOAK_BOT_TXS_PER_SECOND, soakWindows } from './soak-windows.ts';
import { cheapCallCause } from './throughput-cause.ts';

/** How hard and how long. */
export interface RpcBenchOptions {
  readonly runs: number;
  /** Warm-up and measured time of each run for figures with a goal. */
  readonly warmupMs: number;
  readonly durationMs: number;
  /** The same for figures without a goal (medium and heavy calls): shorter, their medians settle quickly. */
  readonly shortWarmupMs: number;
  readonly shortDurationMs: number;
  readonly connections: number;
  readonly chainBudgetMs: number;
  /** Blocks of 8 txs the RPC figures read. */
  readonly chainMaxBlocks: number;
  /** Blocks in the directory for the memory-after-blocks and startup figures (empty blocks after the first `chainMaxBlocks`). */
  readonly longChainBlocks: number;
  readonly soakMinutes: number;
  /** Mixed batches per second during the soak (fixed rate). */
  readonly soakRate: number;
  readonly startupRuns: number;
  readonly log: (line: string) => void;
  readonly budget: TimeBudget;
  /**
   * Work to run beside the soak once the long chain is built (single-process benchmarks); the soak
   * step ends when both are done. Its effect on the soak is memory-neutral (another process).
   */
  readonly duringSoak?: () => Promise<void>;
}

interface Call {
  readonly method: string;
  readonly params: readonly unknown[];
}
interface RpcCase {
  readonly key: string;
  readonly label: string;
  readonly call?: Call;
  readonly missing?: string;
  readonly cheap: boolean;
  readonly note: string /** Least node/bare throughput ratio (issue #21 for the medium and heavy calls). */;
  readonly minRatio: number;
}

const MB = 1024 * 1024;
/** Two decimals, or a dash when nothing completed (NaN arrives as null through JSON). */
const f2 = (x: number | null) => (x !== null && Number.isFinite(x) ? x.toFixed(2) : '—');
/** Bytes as whole megabytes, or a dash when unknown. */
const mb = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? (x / MB).toFixed(0) : '—');
const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
const single = (c: Call) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: c.method, params: c.params });
const batch = (c: Call) =>
  JSON.stringify(
    Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: c.method, params: c.params })),
  );

/** Result (or error) of one call through the node. */
async function probe(port: number, c: Call): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const r = await post(port, single(c));
  return JSON.parse(r.body) as { result?: unknown; error?: { code: number; message: string } };
}

/** Runs the RPC section; returns its report sections. */
export async function runRpcBench(o: RpcBenchOptions): Promise<Section[]> {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-bench-rpc-'));
  const children: Child[] = [];
  try {
    return await measure(o, dir, children);
  } finally {
    for (const c of children) await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface BuiltChain {
  blocks: number;
  headBlocks: number;
  txs: number;
  headMs: number;
  tailMs: number;
  ms: number;
  openRssBytes: number;
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  anonBytes?: number;
  fileBytes?: number;
}

/** Extends the directory with empty blocks in its own process, without waiting; resolves with its report. */
export function extendChain(
  dir: string,
  totalBlocks: number,
  timeoutMs: number,
): { done: Promise<BuiltChain | string>; stop(): void } {
  // --expose-gc: its memory report splits the resident set after a full collection.
  const proc = spawn(NODE_BIN, ['--expose-gc', 'bench/rpc/build-chain.ts', dir, '0', '0', String(totalBlocks), '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d: Buffer) => void (out += d.toString('utf8')));
  proc.stderr.on('data', (d: Buffer) => void (err = (err + d.toString('utf8')).slice(-2000)));
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  const done = new Promise<BuiltChain | string>((resolve) => {
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(
        code === 0
          ? (JSON.parse(out.trim().split('\n').pop()!) as BuiltChain)
          : `exit ${code ?? signal}: ${err.slice(-300)}`,
      );
    });
  });
  return { done, stop: () => void proc.kill('SIGKILL') };
}

/**
 * Why the soak's set ended above a window, measured: which part of the set grew between the windows
 * (bench/rpc/resident-sampler.ts: /proc's split by kind of page, the mappings, threads, V8's heap from
 * the node's /metrics), with the series' floor (bench/lib/stats.ts residentShape) — a leak survives
 * every collection and raises it, a working set settling steps once and stays.
 */
function soakVerdict(shape: ReturnType<typeof residentShape>, before: WindowParts, after: WindowParts): string {
  const minutes = shape.perMinute.map((x) => (x / MB).toFixed(0)).join(', ');
  const grown = largestGrowth(before, after);
  const floor = `lowest ${(shape.floorBefore / MB).toFixed(0)} MB in the third quarter, ${(shape.floorLast / MB).toFixed(0)} MB in the last`;
  return `measured: most of the growth is ${grown.part}, ${grown.bytes >= 0 ? '+' : '−'}${Math.abs(grown.bytes / MB).toFixed(0)} MB — ${describeParts(before, after)}. The floor ${shape.floorLast <= shape.floorBefore * 1.02 ? 'did not rise' : 'rose'} (${floor}; per-minute medians ${minutes} MB)`;
}

async function measure(o: RpcBenchOptions, dir: string, children: Child[]): Promise<Section[]> {
  // 1. A data directory with blocks of 8 txs, built by the engine in its own process; a copy is
  // kept to be extended to `longChainBlocks` during the soak.
  const headDir = join(dir, 'head');
  const longDir = join(dir, 'long');
  mkdirSync(headDir);
  o.log(`building a chain with the engine (≤ ${o.chainMaxBlocks} blocks, ≤ ${o.chainBudgetMs / 1000} s)`);
  const built = await o.budget.step('RPC: chain of blocks with txs', () =>
    spawnSync(NODE_BIN, ['bench/rpc/build-chain.ts', headDir, String(o.chainBudgetMs), String(o.chainMaxBlocks)], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: o.chainBudgetMs + 120_000,
    }),
  );
  const chain = built.status === 0 ? (JSON.parse(built.stdout.trim().split('\n').pop()!) as BuiltChain) : undefined;
  const chainNote = chain
    ? `${chain.blocks} blocks × ${TXS_PER_BLOCK} txs (4 note hashes, 4 nullifiers, one tagged private log each) built by the engine in ${(chain.ms / 1000).toFixed(1)} s`
    : `chain build failed: ${(built.stderr ?? '').slice(-300)}`;
  o.log(chainNote);
  cpSync(headDir, longDir, { recursive: true });
  dir = headDir;

  // 2. The node on it; while bin/l2node.js does not serve the engine yet, the same server and
  // handlers over the engine in their own process (bench/rpc/engine-server.ts), said plainly.
  let node = await startNode(dir);
  children.push(node);
  let target = 'bin/l2node.js';
  let bn = await probe(node.port, { method: 'node_getBlockNumber', params: [] });
  if (typeof bn.result !== 'number' && chain !== undefined) {
    const why = bn.error?.message ?? 'no result';
    await node.stop();
    children.splice(children.indexOf(node), 1);
    node = await startEngineServer(dir);
    children.push(node);
    bn = await probe(node.port, { method: 'node_getBlockNumber', params: [] });
    target = `bench/rpc/engine-server.ts — src/server + generated tables + src/impl/rpc/public handlers over the engine on the same data directory, in its own process — because bin/l2node.js does not serve the engine yet (node_getBlockNumber: ${why})`;
  }
  o.log(`serving: ${target.split(' ')[0]}`);
  await sleep(2000);
  const idleRss = node.rss();

  // 3. Which calls answer.
  const latest = typeof bn.result === 'number' ? bn.result : undefined;
  const cheapCall: Call =
    latest !== undefined ? { method: 'node_getBlockNumber', params: [] } : { method: 'node_getChainId', params: [] };
  const cheapNote =
    latest !== undefined
      ? 'node_getBlockNumber'
      : `node_getChainId (node_getBlockNumber does not answer yet: ${bn.error?.message ?? 'no result'})`;
  const hist = latest === undefined ? 1 : Math.max(1, Math.floor(latest / 2));
  // Goals: cheap calls ≥ 0.9× (issue #12 asked 0.8×, #21 that they stay ≥ 0.9×), blocks ≥ 0.6×, historical
  // paths and witnesses ≥ 0.5×, logs by 100 tags ≥ 0.4× of the bare server (issue #21).
  const cases: RpcCase[] = [
    { key: 'cheap', label: 'cheap call', call: cheapCall, cheap: true, note: cheapNote, minRatio: 0.9 },
  ];
  const blockCall: Call = { method: 'node_getBlock', params: [hist] };
  const blk = await probe(node.port, blockCall);
  const txCount = (blk.result as { body?: { txEffects?: unknown[] } } | null | undefined)?.body?.txEffects?.length;
  cases.push(
    txCount === TXS_PER_BLOCK
      ? {
          key: 'medium',
          label: 'medium call',
          call: blockCall,
          cheap: false,
          note: `node_getBlock(${hist}), a block of ${txCount} txs`,
          minRatio: 0.6,
        }
      : {
          key: 'medium',
          label: 'medium call',
          cheap: false,
          note: '',
          minRatio: 0.6,
          missing: `not measured: needs node_getBlock to return a block of 8 txs through the node (got: ${blk.error?.message ?? (blk.result === null ? 'null' : `${txCount} txs`)})`,
        },
  );
  const pathCall: Call = { method: 'node_getNullifierSiblingPath', params: [hist, '7'] };
  const path = await probe(node.port, pathCall);
  cases.push(
    path.result !== undefined
      ? {
          key: 'path',
          label: 'heavy: historical nullifier sibling path',
          call: pathCall,
          cheap: false,
          note: `node_getNullifierSiblingPath(${hist}, "7"), latest ${latest}`,
          minRatio: 0.5,
        }
      : {
          key: 'path',
          label: 'heavy: historical nullifier sibling path',
          cheap: false,
          note: '',
          minRatio: 0.5,
          missing: `not measured: needs node_getNullifierSiblingPath to answer (got: ${path.error?.message})`,
        },
  );
  // A nullifier block `hist` inserted (its first tx's first), present at that block.
  const nullifier =
    (blk.result as { body?: { txEffects?: { nullifiers?: string[] }[] } } | null | undefined)?.body?.txEffects?.[0]
      ?.nullifiers?.[0] ?? hex(0n);
  const witnessCall: Call = { method: 'node_getNullifierMembershipWitness', params: [hist, nullifier] };
  const witness = await probe(node.port, witnessCall);
  cases.push(
    witness.result !== undefined && witness.result !== null
      ? {
          key: 'witness',
          label: 'heavy: historical nullifier membership witness',
          call: witnessCall,
          cheap: false,
          note: `node_getNullifierMembershipWitness(${hist}, a nullifier of that block), latest ${latest}`,
          minRatio: 0.5,
        }
      : {
          key: 'witness',
          label: 'heavy: historical nullifier membership witness',
          cheap: false,
          note: '',
          minRatio: 0.5,
          missing: `not measured: needs node_getNullifierMembershipWitness to find the nullifier (got: ${witness.error?.message ?? 'null'})`,
        },
  );
  const txs = chain?.txs ?? 0;
  const tags = logTagParams(txs);
  const logsCall: Call = { method: 'node_getLogsByTags', params: [tags] };
  const logs = await probe(node.port, logsCall);
  cases.push(
    logs.result !== undefined
      ? {
          key: 'logs',
          label: 'heavy: logs by 100 tags',
          call: logsCall,
          cheap: false,
          note: 'node_getLogsByTags, 100 tags (50 present in the chain, 50 absent)',
          minRatio: 0.4,
        }
      : {
          key: 'logs',
          label: 'heavy: logs by 100 tags',
          cheap: false,
          note: '',
          minRatio: 0.4,
          missing: `not measured: needs node_getLogsByTags to answer (got: ${logs.error?.message})`,
        },
  );

  // 4. Record the node's answers; the bare server replays them; check the bytes are the same.
  const rec: { headers: Record<string, string>; results: Record<string, string> } = { headers: {}, results: {} };
  const bodies = new Map<string, { single: string; batch: string; expectSingle: string; expectBatch: string }>();
  for (const c of cases) {
    if (c.call === undefined) continue;
    const s = await post(node.port, single(c.call));
    const b = await post(node.port, batch(c.call));
    recordAnswer(rec, c.call.method, c.call.params, s);
    bodies.set(c.key, { single: single(c.call), batch: batch(c.call), expectSingle: s.body, expectBatch: b.body });
  }
  const recFile = join(dir, 'bare-recording.json');
  writeFileSync(recFile, JSON.stringify(rec satisfies Recording));
  const bare = await startBare(recFile);
  children.push(bare);
  const sameBytes: string[] = [];
  for (const [key, b] of bodies) {
    if ((await post(bare.port, b.single)).body !== b.expectSingle) sameBytes.push(`${key} single`);
    if ((await post(bare.port, b.batch)).body !== b.expectBatch) sameBytes.push(`${key} batch`);
  }

  // 5. Closed-loop throughput, node and bare interleaved run by run.
  let peakRss = idleRss;
  const sample = () => void (peakRss = Math.max(peakRss, node.rss()));
  let connections = o.connections;
  let short = false;
  const load = (
    port: number,
    body: string,
    expect: string,
    rate?: number,
    onTick?: () => void,
    clientCores?: string,
  ): Promise<LoadResult> =>
    runLoadProcess(
      {
        port,
        body,
        expect,
        connections: rate === undefined ? connections : 16,
        warmupMs: short ? o.shortWarmupMs : o.warmupMs,
        durationMs: short ? o.shortDurationMs : o.durationMs,
        ...(rate === undefined ? {} : { rate }),
      },
      onTick,
      clientCores,
    );
  const cores = separateCores();
  /** Node and bare interleaved run by run, with each server's CPU per answer (all threads, warm-up included). */
  const closedLoop = async (body: string, expect: string, pinned: typeof cores) => {
    const nodeRuns: LoadResult[] = [];
    const bareRuns: LoadResult[] = [];
    const nodeUs: number[] = [];
    const bareUs: number[] = [];
    const nodeKernelUs: number[] = [];
    const bareKernelUs: number[] = [];
    const withCpu = async (server: Child, into: [number[], number[]], run: () => Promise<LoadResult>) => {
      const { result, cpuPerAnswer, kernelPerAnswer } = await loadWithServerCpu(server, run);
      into[0].push(cpuPerAnswer * 1e6);
      into[1].push(kernelPerAnswer * 1e6);
      return result;
    };
    if (pinned !== undefined) for (const server of [node, bare]) pinProcess(server.proc.pid, pinned.server);
    try {
      for (let r = 0; r < o.runs; r++) {
        nodeRuns.push(
          await withCpu(node, [nodeUs, nodeKernelUs], () =>
            load(node.port, body, expect, undefined, sample, pinned?.client),
          ),
        );
        bareRuns.push(
          await withCpu(bare, [bareUs, bareKernelUs], () =>
            load(bare.port, body, expect, undefined, undefined, pinned?.client),
          ),
        );
      }
    } finally {
      if (pinned !== undefined) for (const server of [node, bare]) pinProcess(server.proc.pid, pinned.all);
    }
    const clientUs = (xs: LoadResult[]) => median(xs.map((x) => (x.clientCpuSeconds * 1e6) / x.answered));
    const cost = {
      nodeUs: median(nodeUs),
      bareUs: median(bareUs),
      nodeKernelUs: median(nodeKernelUs),
      bareKernelUs: median(bareKernelUs),
      clientNodeUs: clientUs(nodeRuns),
      clientBareUs: clientUs(bareRuns),
      nodeRps: nodeRuns.map((x) => x.rps),
      bareRps: bareRuns.map((x) => x.rps),
      cores: cpus().length,
      loadAverage: throughputLoad,
      ...(pinned === undefined ? {} : { separate: pinned }),
    };
    return { nodeRuns, bareRuns, cost };
  };
  const closedLoopNote = (
    what: string,
    variant: 'single' | 'batch',
    { nodeRuns, bareRuns, cost }: Awaited<ReturnType<typeof closedLoop>>,
    pinned: typeof cores,
  ) => {
    const nodeMed = median(nodeRuns.map((x) => x.rps));
    const bad = nodeRuns.reduce((a, x) => a + x.errors + x.mismatches, 0);
    return `${what}${pinned === undefined ? '' : `; each server (all threads) on core ${pinned.server}, the load client on ${pinned.client} (taskset)`}; node runs ${nodeRuns.map((x) => x.rps.toFixed(0)).join('/')}, bare ${bareRuns.map((x) => x.rps.toFixed(0)).join('/')}, CPU ${f2(cost.nodeUs)} vs ${f2(cost.bareUs)} µs per answer, p99 ${f2(median(nodeRuns.map((x) => x.p99Ms)))} ms vs bare ${f2(median(bareRuns.map((x) => x.p99Ms)))} ms${variant === 'batch' ? `; ${(nodeMed * 10).toFixed(0)} calls/s` : ''}${bad > 0 ? `; ${bad} errors or answers differing from the recorded bytes` : ''}`;
  };
  const throughputStart = performance.now();
  const throughputLoad = loadavg()[0]!;
  const throughput: Figure[] = [];
  const bareRps = new Map<string, number>();
  for (const c of cases) {
    for (const variant of ['single', 'batch'] as const) {
      const label = `${c.label}, ${variant === 'single' ? 'single request' : '10-call batch'}`;
      if (c.call === undefined) {
        throughput.push({
          name: label,
          unit: 'req/s',
          goal: { kind: 'ratio-min', target: c.minRatio },
          note: c.missing,
        });
        continue;
      }
      const b = bodies.get(c.key)!;
      // Heavy calls take tens of ms each: 4 connections, or a short run completes nothing.
      connections = c.cheap ? o.connections : 4;
      short = !c.cheap;
      const [body, expect] = variant === 'single' ? [b.single, b.expectSingle] : [b.batch, b.expectBatch];
      // Cheap calls are judged with each server and the load client on cores of their own, as a
      // remote client would be (the load client costs about two thirds of a cheap answer, so sharing
      // cores measures the scheduler); the shared-core figure is shown beside it, without a goal.
      const pinned = c.cheap ? cores : undefined;
      const judged = await closedLoop(body, expect, pinned);
      const { nodeRuns, bareRuns, cost } = judged;
      const nodeMed = median(nodeRuns.map((x) => x.rps));
      const bareMed = median(bareRuns.map((x) => x.rps));
      bareRps.set(`${c.key}/${variant}`, bareMed);
      o.log(`${label}: node ${nodeMed.toFixed(0)} req/s, bare ${bareMed.toFixed(0)} req/s`);
      throughput.push({
        name: pinned === undefined ? label : `${label}, server and load client on separate cores`,
        unit: 'req/s',
        value: nodeMed,
        baseline: bareMed,
        baselineName: 'bare node:http',
        goal: { kind: 'ratio-min', target: c.minRatio },
        ...(c.cheap ? { cause: cheapCallCause(cost) } : {}),
        note: closedLoopNote(c.note, variant, judged, pinned),
      });
      if (c.cheap) {
        const shared = await closedLoop(body, expect, undefined);
        throughput.push({
          name: `${label}, server and load client sharing the cores`,
          unit: 'req/s',
          value: median(shared.nodeRuns.map((x) => x.rps)),
          baseline: median(shared.bareRuns.map((x) => x.rps)),
          baselineName: 'bare node:http',
          note: `no goal: the scheduler's share varies between processes and runs (docs/PERFORMANCE-NOTES.md, "The control"); ${cheapCallCause(shared.cost)}; ${closedLoopNote(c.note, variant, shared, undefined)}`,
        });
      }
    }
  }

  connections = o.connections;
  short = false;
  // What --metrics-port costs a cheap call: two more node processes on copies of this data directory.
  if (target === 'bin/l2node.js') {
    throughput.push(dispatchOverhead());
    throughput.push(
      ...(await measureMetricsCost(
        { runs: o.runs, warmupMs: o.warmupMs, durationMs: o.durationMs, connections: o.connections, log: o.log },
        join(dir, '..'),
        dir,
      )),
    );
  }
  o.budget.record('RPC throughput', throughputStart, throughputLoad);
  const latencyStart = performance.now();
  const latencyLoad = loadavg()[0]!;
  // 6. p99 at half the bare server's rate (cheap call), and fixed 1 000 req/s.
  const latency: Figure[] = [];
  const cheap = bodies.get('cheap')!;
  for (const variant of ['single', 'batch'] as const) {
    const rate = Math.max(100, Math.round((bareRps.get(`cheap/${variant}`) ?? 2000) / 2));
    const [body, expect] = variant === 'single' ? [cheap.single, cheap.expectSingle] : [cheap.batch, cheap.expectBatch];
    const n: LoadResult[] = [];
    const b: LoadResult[] = [];
    for (let r = 0; r < o.runs; r++) {
      n.push(await load(node.port, body, expect, rate, sample));
      b.push(await load(bare.port, body, expect, rate));
    }
    const achieved = median(n.map((x) => x.rps));
    const bareAchieved = median(b.map((x) => x.rps));
    latency.push({
      name: `cheap call, ${variant === 'single' ? 'single request' : '10-call batch'}: p99 at ${rate} req/s (half the bare rate)`,
      unit: 'ms',
      value: median(n.map((x) => x.p99Ms)),
      baseline: median(b.map((x) => x.p99Ms)),
      baselineName: 'bare node:http',
      goal: { kind: 'ratio-max', target: 2 },
      note: `${cheapNote}; achieved ${achieved.toFixed(0)} req/s (bare ${bareAchieved.toFixed(0)}); p50 ${median(n.map((x) => x.p50Ms)).toFixed(3)} ms vs bare ${median(b.map((x) => x.p50Ms)).toFixed(3)} ms`,
      // When the node cannot keep up with the offered rate, its p99 is queueing time.
      ...(achieved < rate * 0.95
        ? {
            cause: `the node answered ${achieved.toFixed(0)} of the ${rate} req/s offered (bare ${bareAchieved.toFixed(0)}): half the bare server's closed-loop rate is past the node's capacity on this machine in this run, so requests queue and the p99 is mostly waiting`,
          }
        : {}),
    });
  }
  {
    const n: LoadResult[] = [];
    const b: LoadResult[] = [];
    for (let r = 0; r < o.runs; r++) {
      n.push(await load(node.port, cheap.single, cheap.expectSingle, 1000, sample));
      b.push(await load(bare.port, cheap.single, cheap.expectSingle, 1000));
    }
    const achieved = `achieved ${median(n.map((x) => x.rps)).toFixed(0)} req/s, ${n.reduce((a, x) => a + x.backlogged, 0)} sends late (no idle connection)`;
    latency.push(
      {
        name: 'cheap call at 1 000 req/s: p50',
        unit: 'ms',
        value: median(n.map((x) => x.p50Ms)),
        baseline: median(b.map((x) => x.p50Ms)),
        baselineName: 'bare node:http',
        goal: { kind: 'value-max', target: 1 },
        note: `${cheapNote}; ${achieved}`,
      },
      {
        name: 'cheap call at 1 000 req/s: p99',
        unit: 'ms',
        value: median(n.map((x) => x.p99Ms)),
        baseline: median(b.map((x) => x.p99Ms)),
        baselineName: 'bare node:http',
        note: `max ${median(n.map((x) => x.maxMs)).toFixed(1)} ms`,
      },
    );
  }

  // The mixed workload's cause reads the node's collections and event-loop delay from its /metrics:
  // the node restarted with --metrics-port on the same directory (its cost on a cheap call ≈ 1.0×, above).
  let mixedMetricsPort: number | undefined;
  if (target === 'bin/l2node.js') {
    await node.stop();
    children.splice(children.indexOf(node), 1);
    mixedMetricsPort = await freePort();
    node = await startNode(dir, ['--metrics-port', String(mixedMetricsPort)]);
    children.push(node);
  }
  const mixLabels = MIX.map((m) => cases.find((c) => c.key === m.key)?.call?.method.replace('node_', '') ?? m.key);
  latency.push(...(await mixedWorkload(bodies, mixLabels, node, bare, mixedMetricsPort, o, sample)));
  const busyNode = await o.budget.step('RPC: reads while the node builds blocks', () =>
    measureBusyNode(dir, {
      runs: o.runs,
      warmupMs: o.warmupMs,
      durationMs: o.durationMs,
      connections: o.connections,
      botTxsPerSecond: 20,
      keepUpSlots: o.runs > 2 ? 2 : 1,
      cpuWindowMs: o.runs > 2 ? 10_000 : 5_000,
      log: o.log,
    }).catch((err: unknown) => [
      {
        name: 'reads while the node builds blocks',
        unit: 'req/s',
        goal: { kind: 'ratio-min', target: 0.7 },
        note: `not measured: ${(err as Error).message}`,
      } satisfies Figure,
    ]),
  );

  o.budget.record('RPC latency', latencyStart, latencyLoad);

  // 7. Soak: the node restarted with --build-empty-blocks and its bot (a block every slot, as a chain that
  // keeps moving), a fixed rate of mixed batches (every call that answers) for soakMinutes;
  // meanwhile another process extends the copy of the data directory to longChainBlocks.
  await node.stop();
  children.splice(children.indexOf(node), 1);
  const soakResult = await o.budget.step(
    `soak (${o.soakMinutes} min) + ${o.longChainBlocks}-block chain in another process`,
    async () => {
      const extension = extendChain(longDir, o.longChainBlocks, Math.round(o.soakMinutes * 60_000) + 600_000);
      try {
        // The bot sends txs through the node's own dispatch (issue #21: RSS flat under bot plus reads);
        // the metrics port gives V8's heap to the resident set's breakdown.
        const metricsPort = target === 'bin/l2node.js' ? await freePort() : undefined;
        const soakNode =
          metricsPort !== undefined
            ? await startNode(dir, ['--build-empty-blocks', ...SOAK_BOT_ARGS, '--metrics-port', String(metricsPort)])
            : await startEngineServer(dir);
        children.push(soakNode);
        const blocksBefore = (await probe(soakNode.port, { method: 'node_getBlockNumber', params: [] })).result as
          | number
          | undefined;
        const mixed: Call[] = cases.flatMap((c) => (c.call ? [c.call] : []));
        const soakBody = JSON.stringify(
          mixed.map((c, i) => ({ jsonrpc: '2.0', id: i, method: c.method, params: c.params })),
        );
        const soakMs = Math.round(o.soakMinutes * 60_000);
        const windows = soakWindows(soakMs);
        const { warmMs } = windows;
        const samples: { t: number; rss: number }[] = [];
        const soakStart = performance.now();
        const sampler = new ResidentSampler(soakNode.proc.pid!, metricsPort, soakStart);
        sampler.start(5000);
        o.log(
          `soak: ${o.soakMinutes} min of ${o.soakRate} mixed batches/s (${mixed.map((c) => c.method).join(', ')}), node building a block every slot`,
        );
        // Answers change as blocks are built, so only errors are counted, not byte equality.
        const cpu0 = soakNode.cpuSeconds();
        const load = runLoadProcess(
          {
            port: soakNode.port,
            body: soakBody,
            connections: 8,
            warmupMs: warmMs,
            durationMs: soakMs - warmMs,
            rate: o.soakRate,
          },
          () => samples.push({ t: performance.now() - soakStart, rss: sampler.tick() }),
        );
        const long = await extension.done;
        o.log(
          `soak: ${o.longChainBlocks}-block directory ${typeof long === 'string' ? `failed: ${long}` : `built in ${(long.tailMs / 1000).toFixed(0)} s`}`,
        );
        const longBuiltAtS = (performance.now() - soakStart) / 1000;
        const beside = o.duringSoak?.();
        const soak = await load;
        await sampler.stop();
        const nodeCores = (soakNode.cpuSeconds() - cpu0) / ((performance.now() - soakStart) / 1000);
        const blocksAfter = (await probe(soakNode.port, { method: 'node_getBlockNumber', params: [] })).result as
          | number
          | undefined;
        const inWindow = ([from, to]: readonly [number, number]) =>
          median(samples.filter((x) => x.t >= from && x.t < to).map((x) => x.rss));
        const early = inWindow(windows.first);
        const late = inWindow(windows.last);
        // Issue #21's window: 30–40 % of the way through the compared span, once caches have filled.
        const mid = inWindow(windows.mid);
        const parts = {
          first: windowParts(sampler.splits, sampler.details, ...windows.first),
          mid: windowParts(sampler.splits, sampler.details, ...windows.mid),
          last: windowParts(sampler.splits, sampler.details, ...windows.last),
        };
        const steady = samples.filter((x) => x.t >= warmMs);
        await sleep(3000);
        const afterRss = soakNode.rss();
        await soakNode.stop();
        children.splice(children.indexOf(soakNode), 1);
        await beside;
        const secondHalf = steady.filter((x) => x.t >= warmMs + (soakMs - warmMs) / 2);
        // Where the set rose most within 15 s: a step at one moment points at one event, not at load.
        let jump = { mb: 0, atS: 0 };
        for (let i = 0, k = 0; i < samples.length; i++) {
          while (samples[k]!.t < samples[i]!.t - 15_000) k++;
          const rise = (samples[i]!.rss - samples[k]!.rss) / MB;
          if (rise > jump.mb) jump = { mb: rise, atS: samples[i]!.t / 1000 };
        }
        return {
          jump,
          shape: residentShape(samples, warmMs, soakMs),
          parts,
          secondHalfSlopeMbPerMin: (slope(secondHalf.map((x) => ({ x: x.t, y: x.rss }))) * 60_000) / MB,
          mixed,
          soak,
          early,
          mid,
          late,
          afterRss,
          blocks: blocksBefore !== undefined && blocksAfter !== undefined ? blocksAfter - blocksBefore : undefined,
          slopeMbPerMin: (slope(steady.map((x) => ({ x: x.t, y: x.rss }))) * 60_000) / MB,
          long,
          nodeCores,
          longBuiltAtS,
        };
      } finally {
        extension.stop();
      }
    },
  );
  const { mixed, soak, early, mid, late, afterRss } = soakResult;
  const long = typeof soakResult.long === 'string' ? undefined : soakResult.long;
  const longNote = long
    ? `${long.blocks} blocks: the ${chain?.blocks ?? '?'} above, then ${long.blocks - (chain?.blocks ?? 0)} empty blocks (header, archive leaf, checkpoint every 4 blocks; no txs) added by bench/rpc/build-chain.ts in ${(long.tailMs / 1000).toFixed(0)} s during the soak`
    : `the ${o.longChainBlocks}-block directory was not built: ${soakResult.long as string}`;

  // 8. The node on the directory with longChainBlocks blocks: startup against a fresh directory,
  // and its resident set once it answers.
  const startupCall: Call = target === 'bin/l2node.js' ? cheapCall : { method: 'node_getChainId', params: [] };
  const firstAnswer = async (port: number, t0: number) => {
    for (let i = 0; i < 200; i++) {
      const r = await probe(port, startupCall).catch(() => ({}) as { result?: unknown });
      if ('result' in r) return performance.now() - t0;
      await sleep(50);
    }
    return Number.NaN;
  };
  const existing: number[] = [];
  const existingAnswer: number[] = [];
  const fresh: number[] = [];
  let longIdleRss = Number.NaN;
  let longTip: unknown;
  await o.budget.step(`startup on ${o.longChainBlocks} blocks`, async () => {
    for (let r = 0; long !== undefined && r < o.startupRuns; r++) {
      const t0 = performance.now();
      const n = await startNode(longDir);
      children.push(n);
      existing.push(n.readyMs);
      existingAnswer.push(await firstAnswer(n.port, t0));
      if (r === 0) {
        // Settled as the idle figure above was: 2 s after it listens.
        await sleep(Math.max(0, 2000 - (performance.now() - t0 - n.readyMs)));
        longIdleRss = n.rss();
        longTip = (await probe(n.port, { method: 'node_getBlockNumber', params: [] })).result;
      }
      await n.stop();
      children.splice(children.indexOf(n), 1);
      const freshDir = mkdtempSync(join(tmpdir(), 'l2node-bench-fresh-'));
      const f = await startNode(freshDir);
      fresh.push(f.readyMs);
      await f.stop();
      rmSync(freshDir, { recursive: true, force: true });
    }
  });

  const growthGoal = 1.05;
  // A soak of a minute or so compares a heap still warming with itself: judged only from 2 minutes.
  const judged = o.soakMinutes >= 2;
  const memory: Figure[] = [
    {
      name: `resident set at idle (after start on ${chain?.blocks ?? '?'} blocks, before load)`,
      unit: 'MB',
      value: idleRss / MB,
      note: `${target.split(' ')[0]}, 2 s after it listens; ${chainNote}`,
    },
    {
      name: 'resident set, peak under the RPC loads above',
      unit: 'MB',
      value: peakRss / MB,
      baseline: idleRss / MB,
      baselineName: 'idle',
    },
    {
      name: `resident set after ${long?.blocks ?? o.longChainBlocks} blocks (node started on that directory, idle)`,
      unit: 'MB',
      value: long ? longIdleRss / MB : undefined,
      baseline: idleRss / MB,
      baselineName: `idle on ${chain?.blocks ?? '?'} blocks`,
      goal: { kind: 'ratio-max', target: 1.5 },
      note: `2 s after it listens (tip ${String(longTip)}); goal: memory must not follow chain length — ${long && chain ? `${Math.round(long.blocks / chain.blocks)}× the blocks` : 'many times the blocks'} may cost at most half again the idle set. ${longNote}`,
    },
    ...(long
      ? (() => {
          const built = long.blocks - long.headBlocks;
          const grown = long.rssBytes - long.openRssBytes;
          const figure: Figure = {
            name: `resident set of an engine process after building ${built} blocks in it (bench/rpc/build-chain.ts)`,
            unit: 'MB',
            value: long.rssBytes / MB,
            baseline: long.openRssBytes / MB,
            baselineName: 'same process with the engine just opened',
            goal: { kind: 'ratio-max', target: 1.5 },
            note: `the engine alone (no RPC server), run as the node runs (src/config/node-runtime.ts), ${built} empty blocks built one per slot on a manual clock in ${(long.tailMs / 1000).toFixed(0)} s, engine still open; after a full collection the V8 heap holds ${(long.heapUsedBytes / MB).toFixed(0)} MB in ${(long.heapTotalBytes / MB).toFixed(0)} MB committed, external memory ${(long.externalBytes / MB).toFixed(0)} MB; resident ${mb(long.anonBytes)} MB anonymous, ${mb(long.fileBytes)} MB file-backed; same goal as above: memory must not follow chain length`,
            // The split says where the growth is; docs/PERFORMANCE-NOTES.md (Memory) has the investigation behind the cause.
            ...(long.rssBytes / long.openRssBytes > 1.5
              ? {
                  cause: `V8 and the allocator holding memory grown during the burst, not live data: of the ${(grown / MB).toFixed(0)} MB grown since opening (${(grown / built / 1024).toFixed(0)} KB per block built), after a full collection the JS heap holds ${(long.heapUsedBytes / MB).toFixed(0)} MB of ${(long.heapTotalBytes / MB).toFixed(0)} MB committed. A loop that never idles keeps V8's memory reducer from running: the young generation grows and freed pages stay pooled. The engine process runs with the node's runtime (src/config/node-runtime.ts: young generation ≤ 2 × 16 MB, old generation growing ≤ 1.5× between major collections, two malloc arenas, gc exposed) and the chain's burst relief runs a memory-reducing collection whenever the set has grown 1.2× during a burst (src/impl/chain/burst-memory.ts); measured 1.12–1.16× with them, 2.4–2.5× without (docs/PERFORMANCE-NOTES.md, Memory) — above the goal, check that they were in effect`,
                }
              : {}),
          };
          return [figure];
        })()
      : []),
    {
      name: `resident set across the ${o.soakMinutes}-minute soak: last 10% vs first 10%`,
      unit: 'MB',
      value: late / MB,
      baseline: early / MB,
      baselineName: 'first 10%',
      ...(judged ? { goal: { kind: 'ratio-max', target: growthGoal } as const } : {}),
      // The shape of the growth says which kind it is: still rising at the end, or levelled off.
      ...(judged && late / early > growthGoal
        ? {
            cause: soakVerdict(soakResult.shape, soakResult.parts.first, soakResult.parts.last),
          }
        : {}),
      note: `${judged ? '' : `not judged: ${o.soakMinutes} min is too short (the full run's 10 minutes are). `}goal: no growth beyond the heap's own swing (a few % between collections); a leak of 1 KB per batch would add ${((o.soakRate * 1024 * (Math.round(o.soakMinutes * 60_000) * 0.95)) / 1000 / MB).toFixed(0)} MB. ${soak.requests} mixed batches of ${mixed.length} calls at ${soak.rps.toFixed(0)}/s (rate ${o.soakRate}/s, ${soak.backlogged} sends late, p99 ${f2(soak.p99Ms)} ms), ${soak.errors} errors${
        soak.errors > 0
          ? ` (${Object.entries(soak.errorKinds)
              .map(([k, v]) => `${k} ×${v}`)
              .join(', ')})`
          : ''
      }; node restarted with --build-empty-blocks and its bot at ${SOAK_BOT_TXS_PER_SECOND} txs/s, ${soakResult.blocks ?? '?'} blocks built during the soak; first 5% (≥ 10 s) is warm-up, not compared; per-minute medians ${soakResult.shape.perMinute.map((x) => (x / MB).toFixed(0)).join(', ')} MB; lowest in the third quarter ${(soakResult.shape.floorBefore / MB).toFixed(0)} MB, in the last ${(soakResult.shape.floorLast / MB).toFixed(0)} MB; trend over the rest ${soakResult.slopeMbPerMin.toFixed(2)} MB/min (least squares, misleading across a collector's drop); largest rise within 15 s: ${soakResult.jump.mb.toFixed(0)} MB, ending ${soakResult.jump.atS.toFixed(0)} s into the soak; 3 s after the load ${(afterRss / MB).toFixed(1)} MB; the node used ${soakResult.nodeCores.toFixed(2)} cores on average; meanwhile another process built the ${o.longChainBlocks}-block directory (first ${soakResult.longBuiltAtS.toFixed(0)} s)${o.duringSoak ? ', then the single-process benchmarks ran' : ''}; parts of the set, first 10% → last 10%: ${describeParts(soakResult.parts.first, soakResult.parts.last)}`,
    },
  ];

  memory.push({
    name: `resident set across the ${o.soakMinutes}-minute soak: last 10% vs the 30–40% window`,
    unit: 'MB',
    value: late / MB,
    baseline: mid / MB,
    baselineName: '30–40% window',
    ...(judged ? { goal: { kind: 'ratio-max', target: 1.05 } as const } : {}),
    ...(judged && late / mid > 1.05
      ? {
          cause: soakVerdict(soakResult.shape, soakResult.parts.mid, soakResult.parts.last),
        }
      : {}),
    note: `${judged ? '' : `not judged: ${o.soakMinutes} min is too short. `}the same soak (bot at ${SOAK_BOT_TXS_PER_SECOND} txs/s plus the mixed reads); the window after the answer caches and the heap have filled (issue #21); parts of the set, 30–40% window → last 10%: ${describeParts(soakResult.parts.mid, soakResult.parts.last)}`,
  });

  const startup: Figure[] = [
    {
      name: `startup on an existing data directory (${long?.blocks ?? o.longChainBlocks} blocks) to listening`,
      unit: 'ms',
      value: long ? median(existing) : undefined,
      baseline: fresh.length > 0 ? median(fresh) : undefined,
      baselineName: 'fresh data directory',
      goal: { kind: 'ratio-max', target: 2 },
      note: long
        ? `goal: opening must not replay or scan history, so at most twice a fresh start. ${o.startupRuns} runs: ${existing.map((x) => x.toFixed(0)).join('/')} ms; first answer to ${startupCall.method} after ${median(existingAnswer).toFixed(0)} ms; ${longNote}`
        : `not measured: ${longNote}`,
    },
  ];

  const how = `Server under load: ${target}. Load from a separate process (bench/rpc/load-client.ts: raw keep-alive HTTP/1.1 sockets; closed loop with ${o.connections} connections for the cheap call and 4 for the others; 16 connections at fixed rates; ${cores === undefined ? 'every server shares the cores with the load client (one core or no taskset)' : `the cheap call's goal is judged with each server, all its threads, on core ${cores.server} and the load client on ${cores.client} (taskset; a remote client's placement — sharing, the two take the CPU from each other on every answer), and shown sharing the cores too`}), ${o.runs} run(s) each, node and bare server interleaved run by run, medians: runs of ${o.durationMs / 1000} s after ${o.warmupMs / 1000} s warm-up for the figures with a goal (cheap call, latency), ${o.shortDurationMs / 1000} s after ${o.shortWarmupMs / 1000} s for the medium and heavy calls. The bare server (bench/rpc/bare-server.ts) parses each body and answers the bytes recorded from the node for that request${sameBytes.length === 0 ? ' (checked byte-equal before loading)' : ` — bytes DIFFER for: ${sameBytes.join(', ')}`}. Data: ${chainNote}.`;
  return [
    { title: 'RPC throughput (public port)', intro: how, figures: throughput },
    {
      title: 'RPC latency',
      intro:
        'Latency is from writing a request to its complete answer, measured in the load process. Fixed-rate runs spread the rate over 16 connections.',
      figures: latency,
    },
    {
      title: 'Reads while building blocks',
      intro:
        "bench/rpc/busy-node.ts: bin/l2node.js (with --metrics-port) on a copy of the chain above, idle and then with its tx bot on (20 txs/s asked): the event loop's CPU per bot tx with no reads (/proc), the cheap call under closed-loop load from a separate process, then a fixed read load at half the idle rate while the tip and the pool's pending count are sampled, judged over whole slots (first block of a slot to first block of a later one); the longest event-loop stall per built block is the node's own l2node_block_build_event_loop_stall_seconds histogram over every block built while the bot ran. Every closed-loop run is also sampled from /proc (each node thread's schedstat by thread name, the load client's, the machine's): the event loop's time on a CPU, waiting for one and asleep, idle against busy, and the cores wanted against the cores there are; the busy figures' cause is written from them (bench/lib/proc-threads.ts).",
      figures: busyNode,
    },
    {
      title: 'Memory',
      intro: 'Resident set (VmRSS) of the node process, sampled from /proc every 250 ms.',
      figures: memory,
    },
    {
      title: 'Startup',
      intro:
        'Time from spawning `bin/l2node.js` to its "public JSON-RPC listening" log line, against the same on a fresh data directory (interleaved run by run).',
      figures: startup,
    },
  ];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
