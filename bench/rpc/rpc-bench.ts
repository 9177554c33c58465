/**
 * RPC section of the bench run: builds a data directory with the engine, starts the node on it and
 * a bare node:http baseline answering the recorded bytes, and measures both in the same run with
 * the load client in its own process: closed-loop requests/s (single calls and 10-call batches),
 * p99 at half the bare server's rate, fixed-rate latency at 1 000 requests/s, memory (idle, under
 * load, across a soak) and startup time on the existing data directory.
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Figure, Section } from '../lib/report.ts';
import { median } from '../lib/stats.ts';
import type { LoadResult } from './load-client.ts';
import { recordingKey } from './bare-server.ts';
import type { Recording } from './bare-server.ts';
import { TAG_BASE, TXS_PER_BLOCK } from './build-chain.ts';
import { NODE_BIN, post, ROOT, runLoadProcess, startBare, startEngineServer, startNode } from './processes.ts';
import type { Child } from './processes.ts';

/** How hard and how long. */
export interface RpcBenchOptions {
  readonly runs: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  readonly connections: number;
  readonly chainBudgetMs: number;
  readonly chainMaxBlocks: number;
  readonly soakMinutes: number;
  readonly startupRuns: number;
  readonly log: (line: string) => void;
}

interface Call { readonly method: string; readonly params: readonly unknown[] }
interface RpcCase { readonly key: string; readonly label: string; readonly call?: Call; readonly missing?: string; readonly cheap: boolean; readonly note: string }

const MB = 1024 * 1024;
/** Two decimals, or a dash when nothing completed (NaN arrives as null through JSON). */
const f2 = (x: number | null) => (x !== null && Number.isFinite(x) ? x.toFixed(2) : '—');
const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
const single = (c: Call) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: c.method, params: c.params });
const batch = (c: Call) => JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: c.method, params: c.params })));

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

async function measure(o: RpcBenchOptions, dir: string, children: Child[]): Promise<Section[]> {
  // 1. A data directory with blocks of 8 txs, built by the engine in its own process.
  o.log(`building a chain with the engine (≤ ${o.chainMaxBlocks} blocks, ≤ ${o.chainBudgetMs / 1000} s)`);
  const built = spawnSync(NODE_BIN, ['bench/rpc/build-chain.ts', dir, String(o.chainBudgetMs), String(o.chainMaxBlocks)], { cwd: ROOT, encoding: 'utf8', timeout: o.chainBudgetMs + 120_000 });
  const chain = built.status === 0 ? (JSON.parse(built.stdout.trim().split('\n').pop()!) as { blocks: number; txs: number; ms: number }) : undefined;
  const chainNote = chain ? `${chain.blocks} blocks × ${TXS_PER_BLOCK} txs built by the engine in ${(chain.ms / 1000).toFixed(1)} s` : `chain build failed: ${(built.stderr ?? '').slice(-300)}`;
  o.log(chainNote);

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
  const cheapCall: Call = latest !== undefined ? { method: 'node_getBlockNumber', params: [] } : { method: 'node_getChainId', params: [] };
  const cheapNote = latest !== undefined ? 'node_getBlockNumber' : `node_getChainId (node_getBlockNumber does not answer yet: ${bn.error?.message ?? 'no result'})`;
  const hist = latest === undefined ? 1 : Math.max(1, Math.floor(latest / 2));
  const cases: RpcCase[] = [{ key: 'cheap', label: 'cheap call', call: cheapCall, cheap: true, note: cheapNote }];
  const blockCall: Call = { method: 'node_getBlock', params: [hist] };
  const blk = await probe(node.port, blockCall);
  const txCount = (blk.result as { body?: { txEffects?: unknown[] } } | null | undefined)?.body?.txEffects?.length;
  cases.push(
    txCount === TXS_PER_BLOCK
      ? { key: 'medium', label: 'medium call', call: blockCall, cheap: false, note: `node_getBlock(${hist}), a block of ${txCount} txs` }
      : { key: 'medium', label: 'medium call', cheap: false, note: '', missing: `not measured: needs node_getBlock to return a block of 8 txs through the node (got: ${blk.error?.message ?? (blk.result === null ? 'null' : `${txCount} txs`)})` },
  );
  const pathCall: Call = { method: 'node_getNullifierSiblingPath', params: [hist, '7'] };
  const path = await probe(node.port, pathCall);
  cases.push(path.result !== undefined
    ? { key: 'path', label: 'heavy: historical nullifier sibling path', call: pathCall, cheap: false, note: `node_getNullifierSiblingPath(${hist}, "7"), latest ${latest}` }
    : { key: 'path', label: 'heavy: historical nullifier sibling path', cheap: false, note: '', missing: `not measured: needs node_getNullifierSiblingPath to answer (got: ${path.error?.message})` });
  const txs = chain?.txs ?? 0;
  const tags = Array.from({ length: 100 }, (_, i) => hex(TAG_BASE + BigInt(Math.floor((i * Math.max(1, txs)) / 100) + (i % 2 === 0 ? 0 : 1_000_000))));
  const logsCall: Call = { method: 'node_getLogsByTags', params: [tags] };
  const logs = await probe(node.port, logsCall);
  cases.push(logs.result !== undefined
    ? { key: 'logs', label: 'heavy: logs by 100 tags', call: logsCall, cheap: false, note: 'node_getLogsByTags, 100 tags (50 present in the chain, 50 absent)' }
    : { key: 'logs', label: 'heavy: logs by 100 tags', cheap: false, note: '', missing: `not measured: needs node_getLogsByTags to answer (got: ${logs.error?.message})` });

  // 4. Record the node's answers; the bare server replays them; check the bytes are the same.
  const rec: { headers: Record<string, string>; results: Record<string, string> } = { headers: {}, results: {} };
  const bodies = new Map<string, { single: string; batch: string; expectSingle: string; expectBatch: string }>();
  for (const c of cases) {
    if (c.call === undefined) continue;
    const s = await post(node.port, single(c.call));
    const b = await post(node.port, batch(c.call));
    for (const [k, v] of Object.entries(s.headers)) if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k)) rec.headers[k] = v;
    rec.results[recordingKey(c.call.method, c.call.params)] = JSON.stringify((JSON.parse(s.body) as { result: unknown }).result);
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
  const load = (port: number, body: string, expect: string, rate?: number, onTick?: () => void): Promise<LoadResult> =>
    runLoadProcess({ port, body, expect, connections: rate === undefined ? connections : 16, warmupMs: o.warmupMs, durationMs: o.durationMs, ...(rate === undefined ? {} : { rate }) }, onTick);
  const throughput: Figure[] = [];
  const bareRps = new Map<string, number>();
  for (const c of cases) {
    for (const variant of ['single', 'batch'] as const) {
      const label = `${c.label}, ${variant === 'single' ? 'single request' : '10-call batch'}`;
      if (c.call === undefined) {
        throughput.push({ name: label, unit: 'req/s', note: c.missing });
        continue;
      }
      const b = bodies.get(c.key)!;
      // Heavy calls take tens of ms each: 4 connections, or a short run completes nothing.
      connections = c.cheap ? o.connections : 4;
      const [body, expect] = variant === 'single' ? [b.single, b.expectSingle] : [b.batch, b.expectBatch];
      const nodeRuns: LoadResult[] = [];
      const bareRuns: LoadResult[] = [];
      for (let r = 0; r < o.runs; r++) {
        nodeRuns.push(await load(node.port, body, expect, undefined, sample));
        bareRuns.push(await load(bare.port, body, expect));
      }
      const nodeMed = median(nodeRuns.map((x) => x.rps));
      const bareMed = median(bareRuns.map((x) => x.rps));
      bareRps.set(`${c.key}/${variant}`, bareMed);
      const bad = nodeRuns.reduce((a, x) => a + x.errors + x.mismatches, 0);
      o.log(`${label}: node ${nodeMed.toFixed(0)} req/s, bare ${bareMed.toFixed(0)} req/s`);
      throughput.push({
        name: label, unit: 'req/s', value: nodeMed, baseline: bareMed, baselineName: 'bare node:http',
        ...(c.cheap ? { goal: { kind: 'ratio-min', target: 0.8 } as const } : {}),
        note: `${c.note}; node runs ${nodeRuns.map((x) => x.rps.toFixed(0)).join('/')}, p99 ${f2(median(nodeRuns.map((x) => x.p99Ms)))} ms vs bare ${f2(median(bareRuns.map((x) => x.p99Ms)))} ms${variant === 'batch' ? `; ${(nodeMed * 10).toFixed(0)} calls/s` : ''}${bad > 0 ? `; ${bad} errors or answers differing from the recorded bytes` : ''}`,
      });
    }
  }

  connections = o.connections;
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
    latency.push({
      name: `cheap call, ${variant === 'single' ? 'single request' : '10-call batch'}: p99 at ${rate} req/s (half the bare rate)`, unit: 'ms',
      value: median(n.map((x) => x.p99Ms)), baseline: median(b.map((x) => x.p99Ms)), baselineName: 'bare node:http', goal: { kind: 'ratio-max', target: 2 },
      note: `${cheapNote}; achieved ${median(n.map((x) => x.rps)).toFixed(0)} req/s; p50 ${median(n.map((x) => x.p50Ms)).toFixed(3)} ms vs bare ${median(b.map((x) => x.p50Ms)).toFixed(3)} ms`,
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
      { name: 'cheap call at 1 000 req/s: p50', unit: 'ms', value: median(n.map((x) => x.p50Ms)), baseline: median(b.map((x) => x.p50Ms)), baselineName: 'bare node:http', goal: { kind: 'value-max', target: 1 }, note: `${cheapNote}; ${achieved}` },
      { name: 'cheap call at 1 000 req/s: p99', unit: 'ms', value: median(n.map((x) => x.p99Ms)), baseline: median(b.map((x) => x.p99Ms)), baselineName: 'bare node:http', note: `max ${median(n.map((x) => x.maxMs)).toFixed(1)} ms` },
    );
  }

  // 7. Soak: a mixed batch (every call that answers) in a closed loop; resident set sampled.
  const mixed: Call[] = cases.flatMap((c) => (c.call ? [c.call] : []));
  const soakBody = JSON.stringify(mixed.map((c, i) => ({ jsonrpc: '2.0', id: i, method: c.method, params: c.params })));
  const soakExpect = (await post(node.port, soakBody)).body;
  const soakMs = Math.round(o.soakMinutes * 60_000);
  const samples: { t: number; rss: number }[] = [];
  const soakStart = performance.now();
  o.log(`soak: ${o.soakMinutes} min of mixed batches (${mixed.map((c) => c.method).join(', ')})`);
  const soak = await runLoadProcess({ port: node.port, body: soakBody, expect: soakExpect, connections: o.connections, warmupMs: 0, durationMs: soakMs }, () => samples.push({ t: performance.now() - soakStart, rss: node.rss() }));
  const early = median(samples.filter((s) => s.t <= Math.max(5000, soakMs * 0.1)).map((s) => s.rss));
  const late = median(samples.filter((s) => s.t >= soakMs * 0.9).map((s) => s.rss));
  peakRss = Math.max(peakRss, ...samples.map((s) => s.rss));
  await sleep(3000);
  const afterRss = node.rss();
  const memory: Figure[] = [
    { name: 'resident set at idle (after start, before load)', unit: 'MB', value: idleRss / MB, note: `${target.split(' ')[0]}; ${chainNote}` },
    { name: 'resident set, peak under the RPC loads above', unit: 'MB', value: peakRss / MB, baseline: idleRss / MB, baselineName: 'idle' },
    { name: `resident set growth across the ${o.soakMinutes}-minute soak (last 10% vs first 10%)`, unit: 'MB', value: (late - early) / MB, note: `${soak.requests} mixed batches of ${mixed.length} calls (${soak.rps.toFixed(0)}/s), ${soak.errors + soak.mismatches} errors; early ${(early / MB).toFixed(1)} MB, late ${(late / MB).toFixed(1)} MB, 3 s after the load ${(afterRss / MB).toFixed(1)} MB` },
  ];

  // 8. Startup of bin/l2node.js on this data directory vs a fresh one.
  await node.stop();
  children.splice(children.indexOf(node), 1);
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
  for (let r = 0; r < o.startupRuns; r++) {
    const t0 = performance.now();
    const n = await startNode(dir);
    existing.push(n.readyMs);
    existingAnswer.push(await firstAnswer(n.port, t0));
    await n.stop();
    const freshDir = mkdtempSync(join(tmpdir(), 'l2node-bench-fresh-'));
    const f = await startNode(freshDir);
    fresh.push(f.readyMs);
    await f.stop();
    rmSync(freshDir, { recursive: true, force: true });
  }
  const startup: Figure[] = [
    { name: `startup on an existing data directory (${chain?.blocks ?? '?'} blocks) to listening`, unit: 'ms', value: median(existing), baseline: median(fresh), baselineName: 'fresh data directory', note: `${o.startupRuns} runs: ${existing.map((x) => x.toFixed(0)).join('/')} ms; first answer to ${startupCall.method} after ${median(existingAnswer).toFixed(0)} ms` },
  ];

  const how = `Server under load: ${target}. Load from a separate process (bench/rpc/load-client.ts: raw keep-alive HTTP/1.1 sockets; closed loop with ${o.connections} connections for the cheap call and 4 for the others; 16 connections at fixed rates), ${o.runs} run(s) of ${o.durationMs / 1000} s after ${o.warmupMs / 1000} s warm-up each, node and bare server interleaved run by run; medians. The bare server (bench/rpc/bare-server.ts) parses each body and answers the bytes recorded from the node for that request${sameBytes.length === 0 ? ' (checked byte-equal before loading)' : ` — bytes DIFFER for: ${sameBytes.join(', ')}`}. Data: ${chainNote}.`;
  return [
    { title: 'RPC throughput (public port)', intro: how, figures: throughput },
    { title: 'RPC latency', intro: 'Latency is from writing a request to its complete answer, measured in the load process. Fixed-rate runs spread the rate over 16 connections.', figures: latency },
    { title: 'Memory', intro: 'Resident set (VmRSS) of the node process, sampled from /proc every 250 ms.', figures: memory },
    { title: 'Startup', intro: 'Time from spawning `bin/l2node.js` to its "public JSON-RPC listening" log line.', figures: startup },
  ];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
