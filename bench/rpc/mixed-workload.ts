/**
 * The mixed workload (issue #21): single requests, 80 % cheap / 15 % medium / 5 % heavy, at half the
 * bare server's closed-loop rate for that mix, node and bare interleaved run by run; the figure is
 * the p99 of the cheap calls in the mix — heavy answers must not hold up everyone else. Every
 * fixed-rate run is sampled from /proc (each server's threads, the load client's, the machine's
 * CPU: bench/lib/proc-threads.ts) and, on the node, its /metrics is read around the run (prom-client's
 * collections by kind and event-loop delay), so the figure's cause is written from the same run
 * (bench/lib/mixed-cause.ts).
 *
 * Standalone: `node bench/rpc/mixed-workload.ts [--runs 3] [--blocks 400] [--rounds 1]` builds the bench
 * chain, starts the node (with --metrics-port) and the bare server replaying its answers, and prints
 * the figure and its cause per round (take the bench lock: `flock /work/bench.lock …`).
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../../test/integration/free-port.ts';
import {
  type GcKind,
  gcDifference,
  type LoopMetrics,
  type MixedRunSample,
  mixedCause,
  parseLoopMetrics,
  sumGc,
} from '../lib/mixed-cause.ts';
import type { Figure } from '../lib/report.ts';
import { median } from '../lib/stats.ts';
import { recordAnswer } from './bare-server.ts';
import { logTagParams } from './build-chain.ts';
import type { LoadResult } from './load-client.ts';
import type { Child } from './processes.ts';
import { NODE_BIN, post, ROOT, readLoadavg, runLoadProcess, startBare, startNode, ThreadSamples } from './processes.ts';

/** Weights of the mixed workload: 80 % cheap, 15 % medium, 5 % heavy (half sibling paths, half logs by 100 tags). */
export const MIX: readonly { readonly key: string; readonly weight: number }[] = [
  { key: 'cheap', weight: 32 },
  { key: 'medium', weight: 6 },
  { key: 'path', weight: 1 },
  { key: 'logs', weight: 1 },
];

/** The mix's requests by key (cheap, medium, path, logs) with the answer the node gave each. */
export type MixBodies = ReadonlyMap<string, { readonly single: string; readonly expectSingle: string }>;

export interface MixedOptions {
  readonly runs: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  readonly log: (line: string) => void;
}

const NAME = 'cheap calls in a mixed workload (80 % cheap, 15 % medium, 5 % heavy): p99 at half the bare rate';
const GOAL = 2;

/** prom-client's event-loop delay is sampled by a 10 ms timer whose interval its figures include. */
const PROM_CLIENT_LAG_RESOLUTION_MS = 10;

/** The bare server's collections so far (bench/rpc/bare-server.ts GET /gc; undefined when it does not answer). */
async function bareGcNow(port: number): Promise<Record<string, GcKind> | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/gc`, { signal: AbortSignal.timeout(5000) });
    return (await res.json()) as Record<string, GcKind>;
  } catch {
    return undefined;
  }
}

/** The node's /metrics, parsed (undefined when it does not answer). */
async function loopMetrics(metricsPort: number | undefined): Promise<LoopMetrics | undefined> {
  if (metricsPort === undefined) return undefined;
  try {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(5000) });
    return parseLoopMetrics(await res.text());
  } catch {
    return undefined;
  }
}

/**
 * The figure: the node (`metricsPort` when it serves /metrics) against the bare server, `labels` the
 * mix's method names in MIX order. `onTick` is called on every sample of the node's runs.
 */
export async function mixedWorkload(
  bodies: MixBodies,
  labels: readonly string[],
  node: Child,
  bare: Child,
  metricsPort: number | undefined,
  o: MixedOptions,
  onTick: () => void = () => {},
): Promise<Figure[]> {
  if (MIX.some((m) => !bodies.has(m.key))) {
    return [
      {
        name: NAME,
        unit: 'ms',
        goal: { kind: 'ratio-max', target: GOAL },
        note: `not measured: needs every call of the mix to answer (${MIX.filter((m) => !bodies.has(m.key))
          .map((m) => m.key)
          .join(', ')} did not)`,
      },
    ];
  }
  const mix = MIX.map((m) => ({
    body: bodies.get(m.key)!.single,
    expect: bodies.get(m.key)!.expectSingle,
    weight: m.weight,
  }));
  const run = (port: number, rate?: number, tick?: (clientPid: number | undefined) => void) =>
    runLoadProcess(
      {
        port,
        body: mix[0]!.body,
        mix,
        connections: 16,
        warmupMs: o.warmupMs,
        durationMs: o.durationMs,
        ...(rate === undefined ? {} : { rate }),
      },
      tick,
    );
  /** One server's fixed-rate runs: their samples, and the collections read around each with the wall time they span. */
  interface Tally {
    readonly runs: MixedRunSample[];
    readonly gc: Record<string, GcKind>[];
    gcWallSeconds: number;
  }
  // Each fixed-rate run sampled: the server's threads, the load client's, the machine; its
  // collections read around it (the node's /metrics, the bare server's GET /gc).
  const sampled = async (
    server: Child,
    gcOf: () => Promise<Record<string, GcKind> | undefined>,
    into: Tally,
    rate: number,
    tick?: () => void,
  ) => {
    const samples = new ThreadSamples(server.proc.pid!);
    const before = await gcOf();
    const t0 = performance.now();
    const result = await run(server.port, rate, (clientPid) => {
      samples.take(clientPid);
      tick?.();
    });
    const after = await gcOf();
    const usage = samples.usage();
    if (usage !== undefined) into.runs.push({ p99Ms: result.classes![0]!.p99Ms, usage });
    if (before !== undefined && after !== undefined) {
      into.gc.push(gcDifference(before, after));
      into.gcWallSeconds += (performance.now() - t0) / 1000;
    }
    return result;
  };
  // The bare server's closed loop sets the rate; one closed-loop run of the node warms it (it may
  // have just started) and gives its own rate on the mix.
  const closed: LoadResult[] = [];
  for (let r = 0; r < o.runs; r++) closed.push(await run(bare.port));
  const nodeClosed = await run(node.port);
  const rate = Math.max(100, Math.round(median(closed.map((x) => x.rps)) / 2));
  const loadBefore = readLoadavg();
  const n: LoadResult[] = [];
  const b: LoadResult[] = [];
  const nodeTally: Tally = { runs: [], gc: [], gcWallSeconds: 0 };
  const bareTally: Tally = { runs: [], gc: [], gcWallSeconds: 0 };
  const lags: number[] = [];
  // Reading the node's /metrics also restarts prom-client's delay histogram: the reading after a run is that run's.
  let lastLag: number | undefined;
  const nodeGcNow = async () => {
    const m = await loopMetrics(metricsPort);
    lastLag = m === undefined ? undefined : m.lagP99Ms - PROM_CLIENT_LAG_RESOLUTION_MS;
    return m?.gc;
  };
  for (let r = 0; r < o.runs; r++) {
    n.push(await sampled(node, nodeGcNow, nodeTally, rate, onTick));
    if (lastLag !== undefined) lags.push(lastLag);
    b.push(await sampled(bare, () => bareGcNow(bare.port), bareTally, rate));
  }
  const p99s = (xs: LoadResult[]) => xs.map((x) => x.classes![0]!.p99Ms);
  const classP99 = (xs: LoadResult[], i: number) => median(xs.map((x) => x.classes![i]!.p99Ms));
  const nodeP99 = median(p99s(n));
  const bareP99 = median(p99s(b));
  const achieved = median(n.map((x) => x.rps));
  const bad = n.reduce((a, x) => a + x.errors + x.mismatches, 0);
  o.log(`mixed workload at ${rate} req/s: cheap p99 node ${nodeP99.toFixed(2)} ms, bare ${bareP99.toFixed(2)} ms`);
  const side = (t: Tally) => ({
    runs: t.runs,
    gc: t.gc.length === 0 ? undefined : sumGc(t.gc),
    gcWallSeconds: t.gcWallSeconds,
  });
  const cause = mixedCause({
    cpus: availableParallelism(),
    load: loadBefore,
    node: side(nodeTally),
    bare: side(bareTally),
    classP99Ms: MIX.map((_, i) => classP99(n, i)),
    lagP99Ms: lags.length === 0 ? undefined : median(lags),
  });
  return [
    {
      name: `${NAME} (${rate} req/s)`,
      unit: 'ms',
      value: nodeP99,
      baseline: bareP99,
      baselineName: 'bare node:http, same mix and rate',
      goal: { kind: 'ratio-max', target: GOAL },
      note: `${MIX.map((m, i) => `${labels[i]} ×${m.weight}`).join(', ')} of every ${MIX.reduce((a, m) => a + m.weight, 0)} requests, 16 connections; closed loop on the mix: bare ${median(closed.map((x) => x.rps)).toFixed(0)} req/s, node ${nodeClosed.rps.toFixed(0)} (one run); achieved ${achieved.toFixed(0)} req/s (bare ${median(b.map((x) => x.rps)).toFixed(0)}); p99 per call node / bare: ${labels.map((l, i) => `${l} ${classP99(n, i).toFixed(2)} / ${classP99(b, i).toFixed(2)} ms`).join(', ')}${bad > 0 ? `; ${bad} errors or answers differing from the recorded bytes` : ''}${nodeP99 <= bareP99 * GOAL ? `; measured: ${cause}` : ''}`,
      cause:
        achieved < rate * 0.95
          ? `the node answered ${achieved.toFixed(0)} of the ${rate} req/s offered: past its capacity on this machine in this run, so requests queue and the p99 is mostly waiting; ${cause}`
          : cause,
    },
  ];
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      blocks: { type: 'string', default: '400' },
      rounds: { type: 'string', default: '1' },
      'node-flag': { type: 'string', multiple: true, default: [] },
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'l2node-mixed-'));
  const children: Child[] = [];
  try {
    const data = join(dir, 'data');
    mkdirSync(data);
    const built = spawnSync(NODE_BIN, ['bench/rpc/build-chain.ts', data, '45000', values.blocks], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`chain build failed: ${built.stderr.slice(-500)}`);
    const txs = (JSON.parse(built.stdout.trim().split('\n').pop()!) as { txs: number }).txs;
    const metricsPort = await freePort();
    const node = await startNode(data, ['--metrics-port', String(metricsPort)], 120_000, values['node-flag']);
    children.push(node);
    const call = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    const latest = JSON.parse((await post(node.port, call('node_getBlockNumber', []))).body).result as number;
    const hist = Math.max(1, Math.floor(latest / 2));
    const calls: Record<string, [string, unknown[]]> = {
      cheap: ['node_getBlockNumber', []],
      medium: ['node_getBlock', [hist]],
      path: ['node_getNullifierSiblingPath', [hist, '7']],
      logs: ['node_getLogsByTags', [logTagParams(txs)]],
    };
    const rec = { headers: {}, results: {} };
    const bodies = new Map<string, { single: string; expectSingle: string }>();
    for (const [key, [method, params]] of Object.entries(calls)) {
      const answer = await post(node.port, call(method, params));
      recordAnswer(rec, method, params, answer);
      bodies.set(key, { single: call(method, params), expectSingle: answer.body });
    }
    writeFileSync(join(dir, 'recording.json'), JSON.stringify(rec));
    const bare = await startBare(join(dir, 'recording.json'));
    children.push(bare);
    const labels = MIX.map((m) => calls[m.key]![0].replace('node_', ''));
    for (let round = 1; round <= Number(values.rounds); round++) {
      const [fig] = await mixedWorkload(bodies, labels, node, bare, metricsPort, {
        runs: Number(values.runs),
        warmupMs: 500,
        durationMs: 1500,
        log: (l) => console.log(l),
      });
      console.log(
        `round ${round}: ${fig!.value?.toFixed(2)} / ${fig!.baseline?.toFixed(2)} ms = ${((fig!.value ?? Number.NaN) / (fig!.baseline ?? Number.NaN)).toFixed(2)}×\n  cause: ${fig!.cause}\n  note: ${fig!.note}`,
      );
    }
  } finally {
    for (const c of children) await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
