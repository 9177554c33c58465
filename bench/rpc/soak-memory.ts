/**
 * The full run's soak alone, to see what the node's resident set is made of as it runs (issue #21):
 * `node bench/rpc/soak-memory.ts [--minutes 10] [--rate 100] [--blocks 400] [--beside] [--node-flag <V8 flag>]… [--heap-snapshots <dir>] [--out file.json]`.
 * Builds a chain of blocks with txs (bench/rpc/build-chain.ts), starts bin/l2node.js on it as the
 * full run's soak does (--build-empty-blocks, its bot at 5 txs/s, plus --metrics-port for V8's heap),
 * sends the same five calls in batches at a fixed rate from a separate process, and prints the parts
 * of the set (bench/rpc/resident-sampler.ts) minute by minute and for the full run's windows. With
 * --beside, what runs beside the full run's soak runs beside this one too: a copy of the chain
 * extended to 10 000 blocks in another process, then the single-process benchmarks. With
 * --heap-snapshots, the node writes a V8 heap snapshot into that directory in the middle of the
 * 30–40 % window and at 95 % of the soak (`--heapsnapshot-signal`; each pauses it for a few seconds),
 * to be compared with bench/rpc/heap-diff.ts. Take the
 * bench lock: `flock /work/bench.lock node bench/rpc/soak-memory.ts`.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../../test/integration/free-port.ts';
import { runCollected } from '../collect.ts';
import { TimeBudget } from '../lib/budget.ts';
import { median } from '../lib/stats.ts';
import { logTagParams } from './build-chain.ts';
import { NODE_BIN, post, ROOT, runLoadProcess, startNode } from './processes.ts';
import { describeParts, ResidentSampler, windowParts } from './resident-sampler.ts';
import { extendChain } from './rpc-bench.ts';
import { SOAK_BOT_ARGS, soakWindows } from './soak-windows.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '100' },
    blocks: { type: 'string', default: '400' },
    out: { type: 'string' },
    beside: { type: 'boolean', default: false },
    'node-flag': { type: 'string', multiple: true, default: [] },
    'heap-snapshots': { type: 'string' },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
const maxBlocks = Number(values.blocks);
if (!(minutes > 0 && rate > 0 && maxBlocks > 0)) throw new Error('--minutes, --rate and --blocks must be positive');

const call = async (port: number, method: string, params: unknown[]) =>
  (
    JSON.parse((await post(port, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).body) as {
      result?: unknown;
    }
  ).result;

const dir = mkdtempSync(join(tmpdir(), 'l2node-soak-memory-'));
try {
  const chainDir = join(dir, 'head');
  mkdirSync(chainDir);
  const built = spawnSync(NODE_BIN, ['bench/rpc/build-chain.ts', chainDir, '45000', String(maxBlocks)], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`chain build failed: ${built.stderr.slice(-500)}`);
  const chain = JSON.parse(built.stdout.trim().split('\n').pop()!) as { blocks: number; txs: number };
  console.log(`chain: ${chain.blocks} blocks, ${chain.txs} txs`);

  const metricsPort = await freePort();
  if (values.beside) cpSync(chainDir, join(dir, 'long'), { recursive: true });
  const snapshotDir = values['heap-snapshots'];
  if (snapshotDir !== undefined) mkdirSync(snapshotDir, { recursive: true });
  const node = await startNode(
    chainDir,
    ['--build-empty-blocks', ...SOAK_BOT_ARGS, '--metrics-port', String(metricsPort)],
    120_000,
    [
      ...values['node-flag'],
      ...(snapshotDir === undefined ? [] : ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshotDir}`]),
    ],
  );
  try {
    // The full run's mixed calls: cheap, a block of txs, a historical sibling path and witness, logs by 100 tags.
    const latest = (await call(node.port, 'node_getBlockNumber', [])) as number;
    const hist = Math.max(1, Math.floor(latest / 2));
    const block = (await call(node.port, 'node_getBlock', [hist])) as {
      body: { txEffects: { nullifiers: string[] }[] };
    };
    const calls = [
      { method: 'node_getBlockNumber', params: [] },
      { method: 'node_getBlock', params: [hist] },
      { method: 'node_getNullifierSiblingPath', params: [hist, '7'] },
      { method: 'node_getNullifierMembershipWitness', params: [hist, block.body.txEffects[0]!.nullifiers[0]] },
      { method: 'node_getLogsByTags', params: [logTagParams(chain.txs)] },
    ];
    const body = JSON.stringify(calls.map((c, i) => ({ jsonrpc: '2.0', id: i, ...c })));
    const soakMs = Math.round(minutes * 60_000);
    const w = soakWindows(soakMs);
    const sampler = new ResidentSampler(node.proc.pid!, metricsPort);
    const cpu0 = node.cpuSeconds();
    sampler.start(5000);
    console.log(
      `soak: ${minutes} min at ${rate} batches/s${values.beside ? ' with the full run neighbours beside it' : ''}`,
    );
    const beside = values.beside
      ? (async () => {
          const long = await extendChain(join(dir, 'long'), 10_000, soakMs + 600_000).done;
          console.log(
            `beside: 10000-block chain ${typeof long === 'string' ? long : `built in ${(long.tailMs / 1000).toFixed(0)} s`}`,
          );
          const log = (line: string) => console.log(`beside: ${line}`);
          await runCollected({ quick: false, log, budget: new TimeBudget(log) }, 'beside-soak');
          console.log('beside: done');
        })()
      : Promise.resolve();
    let lastMinute = 0;
    // Heap snapshots at the middle of the 30–40 % window and at 95 %, by the soak's own clock.
    const snapshotsAt = snapshotDir === undefined ? [] : [(w.mid[0] + w.mid[1]) / 2, soakMs * 0.95];
    const soakStart = performance.now();
    const load = await runLoadProcess(
      { port: node.port, body, connections: 8, warmupMs: w.warmMs, durationMs: soakMs - w.warmMs, rate },
      () => {
        sampler.tick();
        if (snapshotsAt.length > 0 && performance.now() - soakStart >= snapshotsAt[0]!) {
          snapshotsAt.shift();
          console.log(`heap snapshot at ${((performance.now() - soakStart) / 1000).toFixed(0)} s into ${snapshotDir}`);
          node.proc.kill('SIGUSR2');
        }
        const t = sampler.splits.at(-1)?.t ?? 0;
        if (t >= (lastMinute + 1) * 60_000) {
          lastMinute++;
          const p = windowParts(sampler.splits, sampler.details, t - 60_000, t);
          console.log(
            `minute ${lastMinute}: rss ${(p.rss / 2 ** 20).toFixed(0)} MB, anon ${(p.anon / 2 ** 20).toFixed(0)}, file ${(p.file / 2 ** 20).toFixed(0)}, shmem ${(p.shmem / 2 ** 20).toFixed(0)}, V8 ${(p.v8Total / 2 ** 20).toFixed(0)} (used ${(p.v8Used / 2 ** 20).toFixed(0)}), threads ${Object.values(p.threads).reduce((a, n) => a + n, 0)}`,
          );
        }
      },
    );
    await sampler.stop();
    await beside;
    const cores = (node.cpuSeconds() - cpu0) / ((sampler.splits.at(-1)?.t ?? Number.NaN) / 1000);
    const rest = sampler.splits.filter((x) => x.t >= w.warmMs).map((x) => x.rss);
    const peakOld = Math.max(...sampler.details.map((x) => x.v8?.spaces.old ?? 0));
    console.log(
      `load: ${load.requests} batches at ${load.rps.toFixed(0)}/s, ${load.errors} errors, p99 ${load.p99Ms.toFixed(2)} ms; node ${cores.toFixed(3)} cores${values['node-flag'].length > 0 ? ` with ${values['node-flag'].join(' ')}` : ''}; resident after warm-up min ${(Math.min(...rest) / 2 ** 20).toFixed(0)}, median ${(median(rest) / 2 ** 20).toFixed(0)}, max ${(Math.max(...rest) / 2 ** 20).toFixed(0)} MB; V8 old space at most ${(peakOld / 2 ** 20).toFixed(0)} MB`,
    );
    const first = windowParts(sampler.splits, sampler.details, ...w.first);
    const mid = windowParts(sampler.splits, sampler.details, ...w.mid);
    const last = windowParts(sampler.splits, sampler.details, ...w.last);
    console.log(`first 10 % → last 10 %: ${describeParts(first, last)}`);
    console.log(`30–40 % → last 10 %: ${describeParts(mid, last)}`);
    if (values.out !== undefined) {
      writeFileSync(values.out, JSON.stringify({ splits: sampler.splits, details: sampler.details, windows: w }));
      console.log(`series: ${values.out}`);
    }
  } finally {
    await node.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
