/**
 * What metrics cost the hot path: cheap-call (node_getBlockNumber) closed-loop throughput of
 * bin/l2node.js with `--metrics-port` against the same build without it, on two copies of the
 * same data directory, both processes up for the whole case and runs interleaved (off, on, on,
 * off, …), medians. The goal: metrics on keeps at least 95 % of metrics-off throughput. A scrape
 * after the runs checks the metrics node counted the calls (so "on" really measured something).
 *
 * Part of `npm run bench` (rpc-bench.ts); alone: `node bench/rpc/metrics-cost.ts [--runs 5]
 * [--duration-ms 2000]` on fresh data directories, printing the figure as JSON.
 * @module
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { publicMethods } from '../../src/generated/public/methods.ts';
import { NodeMetrics } from '../../src/impl/metrics/node-metrics.ts';
import { createDispatcher } from '../../src/server/json-rpc.ts';
import { freePort } from '../../test/integration/free-port.ts';
import type { Figure } from '../lib/report.ts';
import { median } from '../lib/stats.ts';
import type { LoadResult } from './load-client.ts';
import type { Child } from './processes.ts';
import { loadWithServerCpu, post, runLoadProcess, startNode } from './processes.ts';
import { metricsCostCause } from './throughput-cause.ts';

/** How long and how often. */
export interface MetricsCostOptions {
  readonly runs: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  readonly connections: number;
  readonly log: (line: string) => void;
}

const CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'node_getBlockNumber', params: [] });

/** Measures on copies of `dataDirectory` (fresh empty ones when undefined) made under `workDir`. */
export async function measureMetricsCost(
  o: MetricsCostOptions,
  workDir: string,
  dataDirectory?: string,
): Promise<Figure[]> {
  const offDir = join(workDir, 'metrics-off');
  const onDir = join(workDir, 'metrics-on');
  if (dataDirectory !== undefined) {
    cpSync(dataDirectory, offDir, { recursive: true });
    cpSync(dataDirectory, onDir, { recursive: true });
  }
  const metricsPort = await freePort();
  const children: Child[] = [];
  try {
    const off = await startNode(offDir);
    children.push(off);
    const on = await startNode(onDir, ['--metrics-port', String(metricsPort)]);
    children.push(on);
    const expect = (await post(off.port, CALL)).body;
    const expectOn = (await post(on.port, CALL)).body;
    if (expect !== expectOn) throw new Error(`the two nodes answer differently: ${expect} / ${expectOn}`);
    // CPU seconds the node spent per call over a whole run (warm-up included): less swayed than
    // throughput by what else the machine runs meanwhile.
    const cpuPerCall = { off: [] as number[], on: [] as number[] };
    const load = async (node: Child, which: 'off' | 'on') => {
      const { result, cpuPerAnswer } = await loadWithServerCpu(node, () =>
        runLoadProcess({
          port: node.port,
          body: CALL,
          expect,
          connections: o.connections,
          warmupMs: o.warmupMs,
          durationMs: o.durationMs,
        }),
      );
      cpuPerCall[which].push(cpuPerAnswer);
      return result;
    };
    const offRuns: LoadResult[] = [];
    const onRuns: LoadResult[] = [];
    // Which node goes first alternates run by run, so a machine that slows down or speeds up
    // during a pair does not always favour the same side.
    for (let r = 0; r < o.runs; r++) {
      if (r % 2 === 0) {
        offRuns.push(await load(off, 'off'));
        onRuns.push(await load(on, 'on'));
      } else {
        onRuns.push(await load(on, 'on'));
        offRuns.push(await load(off, 'off'));
      }
    }
    const counted = await countedCalls(metricsPort);
    const served = onRuns.reduce((a, x) => a + x.requests, 0);
    const offMed = median(offRuns.map((x) => x.rps));
    const onMed = median(onRuns.map((x) => x.rps));
    const bad = [...offRuns, ...onRuns].reduce((a, x) => a + x.errors + x.mismatches, 0);
    o.log(
      `cheap call, metrics on: ${onMed.toFixed(0)} req/s, off ${offMed.toFixed(0)} req/s (${(onMed / offMed).toFixed(3)}×)`,
    );
    const us = (xs: number[]) => median(xs) * 1e6;
    return [
      {
        name: 'cheap call, single request: metrics on (--metrics-port)',
        unit: 'req/s',
        value: onMed,
        baseline: offMed,
        baselineName: 'metrics off (same build)',
        goal: { kind: 'ratio-min', target: 0.95 },
        cause: metricsCostCause({
          onUs: us(cpuPerCall.on),
          offUs: us(cpuPerCall.off),
          onRps: onRuns.map((x) => x.rps),
          offRps: offRuns.map((x) => x.rps),
        }),
        note: `node_getBlockNumber, ${o.connections} connections; median of the run-by-run ratios (each pair back to back) ${median(onRuns.map((x, i) => x.rps / offRuns[i]!.rps)).toFixed(2)}×; on ${onRuns.map((x) => x.rps.toFixed(0)).join('/')}, off ${offRuns.map((x) => x.rps.toFixed(0)).join('/')}; p99 on ${median(onRuns.map((x) => x.p99Ms)).toFixed(2)} ms vs off ${median(offRuns.map((x) => x.p99Ms)).toFixed(2)} ms; the metrics node counted ${counted} node_getBlockNumber calls (the load sent ${served} in the measured windows, more in warm-ups)${bad > 0 ? `; ${bad} errors or answers differing` : ''}`,
      },
      {
        name: 'cheap call: node CPU per call, metrics on',
        unit: 'µs',
        value: us(cpuPerCall.on),
        baseline: us(cpuPerCall.off),
        baselineName: 'metrics off (same build)',
        note: `user + system CPU of the node process over each run divided by the calls it answered, warm-up included; runs on ${cpuPerCall.on.map((x) => (x * 1e6).toFixed(1)).join('/')}, off ${cpuPerCall.off.map((x) => (x * 1e6).toFixed(1)).join('/')}`,
      },
    ];
  } finally {
    for (const c of children.reverse()) await c.stop();
  }
}

/**
 * The instrumentation alone, in this process: the JSON-RPC dispatcher answering node_getBlockNumber
 * from a constant handler, with and without the metrics observer, rounds interleaved; ns per call.
 */
export function dispatchOverhead(rounds = 15, callsPerRound = 200_000): Figure {
  const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {}, enabled: () => false };
  const handlers = { getBlockNumber: () => 7 };
  const off = createDispatcher({ methods: publicMethods, handlers, maxBatchSize: 100, logger });
  const on = createDispatcher({
    methods: publicMethods,
    handlers,
    maxBatchSize: 100,
    logger,
    observer: new NodeMetrics({ dataDirectory: '' }).rpc.observer('public'),
  });
  const request = JSON.parse(CALL) as unknown;
  const nsPerCall = (dispatch: typeof off) => {
    const t0 = performance.now();
    for (let i = 0; i < callsPerRound; i++) dispatch(request);
    return ((performance.now() - t0) * 1e6) / callsPerRound;
  };
  const offNs: number[] = [];
  const onNs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    offNs.push(nsPerCall(off));
    onNs.push(nsPerCall(on));
  }
  return {
    name: 'JSON-RPC dispatch of a cheap call, metrics observer on',
    unit: 'ns',
    value: median(onNs),
    baseline: median(offNs),
    baselineName: 'observer off',
    note: `in process, no HTTP (src/server/json-rpc.ts with a constant handler), ${rounds} interleaved rounds of ${callsPerRound} calls; the difference, ${(median(onNs) - median(offNs)).toFixed(0)} ns, is what metrics add to each call (two performance.now(), counters, a bucket search), to set against the node's CPU per HTTP call below`,
  };
}

/** l2node_rpc_requests_total for node_getBlockNumber/ok, read from a scrape. */
async function countedCalls(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('l2node_rpc_requests_total{') &&
        l.includes('method="node_getBlockNumber"') &&
        l.includes('outcome="ok"'),
    );
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '5' }, 'duration-ms': { type: 'string', default: '2000' } },
  });
  const work = mkdtempSync(join(tmpdir(), 'l2node-metrics-cost-'));
  try {
    const figures = await measureMetricsCost(
      {
        runs: Number(values.runs),
        warmupMs: 500,
        durationMs: Number(values['duration-ms']),
        connections: 16,
        log: (line) => process.stderr.write(`${line}\n`),
      },
      work,
    );
    figures.unshift(dispatchOverhead());
    for (const f of figures) process.stdout.write(`${JSON.stringify({ ...f, ratio: f.value! / f.baseline! })}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
