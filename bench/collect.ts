/**
 * Runs the other engineers' benchmarks as child processes (each bounded in time) and turns what
 * they print or write to bench/out/ into report figures next to their baselines. They come in two
 * groups: single-process ones judged on ratios to a baseline from the same process (or not judged),
 * which bench/run.ts may run beside the low-rate soak, and those that need the machine to
 * themselves: multi-process ones (gossip between nodes, reader processes) and Poseidon2, whose goal
 * is an absolute rate (a background of a quarter core cost it up to 18% in a trial).
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { TimeBudget } from './lib/budget.ts';
import type { Figure, Section } from './lib/report.ts';
import { NODE_BIN, ROOT } from './rpc/processes.ts';

/** Sizes for a quick or a full pass. */
export interface CollectOptions {
  readonly quick: boolean;
  readonly log: (line: string) => void;
  readonly budget: TimeBudget;
}

interface Ran {
  ok: boolean;
  out: string;
  why: string;
  seconds: number;
}

/**
 * Runs `bench/<file>` with args and env; killed after `timeoutMs`. Asynchronous, so the runner's
 * own sampling (the soak's resident set) keeps going meanwhile.
 */
function run(file: string, args: readonly string[], env: Record<string, string>, timeoutMs: number): Promise<Ran> {
  if (!existsSync(join(ROOT, 'bench', file)))
    return Promise.resolve({ ok: false, out: '', why: `bench/${file} does not exist yet`, seconds: 0 });
  const t0 = performance.now();
  return new Promise((resolve) => {
    const proc = spawn(NODE_BIN, [join('bench', file), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => void (out += d.toString('utf8')));
    proc.stderr.on('data', (d: Buffer) => void (err = (err + d.toString('utf8')).slice(-4000)));
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    const finish = (code: number | null, signal: string | null, error?: Error) => {
      clearTimeout(timer);
      const seconds = (performance.now() - t0) / 1000;
      if (code === 0) return resolve({ ok: true, out, why: '', seconds });
      const why = error
        ? error.message
        : `exit ${code ?? signal}${signal === 'SIGKILL' ? ` after ${timeoutMs / 1000} s` : ''}: ${err.trim().split('\n').slice(-2).join(' ')}`;
      resolve({ ok: false, out, why: `bench/${file} failed (${why.slice(0, 200)})`, seconds });
    };
    proc.once('error', (e) => finish(null, null, e));
    proc.once('close', (code, signal) => finish(code, signal));
  });
}

const num = (s: string | undefined) => (s === undefined ? Number.NaN : Number(s.replace(/,/g, '')));
const missing = (name: string, unit: string, why: string): Figure => ({ name, unit, note: `not measured: ${why}` });
const readJson = <T>(name: string): T | undefined => {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'bench', 'out', name), 'utf8')) as T;
  } catch {
    return undefined;
  }
};

/** Poseidon2: the wasm kernel vs the BigInt reference and @zkpassport/poseidon2 (bench/poseidon2.ts). */
async function poseidon2(o: CollectOptions): Promise<Figure[]> {
  const load = loadavg()[0]!;
  const r = await run(
    'poseidon2.ts',
    [],
    o.quick ? { BENCH_ROUNDS: '3', BENCH_ROUND_MS: '150' } : { BENCH_ROUNDS: '5', BENCH_ROUND_MS: '200' },
    180_000,
  );
  const j = r.ok
    ? readJson<{ rounds: number; results: { name: string; median: number }[] }>('poseidon2.json')
    : undefined;
  const by = (n: string) => j?.results.find((x) => x.name === n)?.median;
  const ours = by('hashPair: wasm kernel');
  if (j === undefined || ours === undefined)
    return [
      missing('Poseidon2 hashPair', 'hashes/s', r.why || 'bench/out/poseidon2.json has no "hashPair: wasm kernel"'),
    ];
  const note = `median of ${j.rounds} interleaved rounds (bench/poseidon2.ts)`;
  const target = 31_000;
  const reference = by('hashPair: BigInt reference');
  // An absolute rate falls with other work on the machine; the ratio to the reference, measured
  // in the same interleaved rounds, does not, so it says whether the kernel itself got slower.
  const busy =
    ours < target && load >= 1
      ? {
          cause: `the one-minute load average was ${load.toFixed(1)} on ${cpus().length} cores when it ran (other processes on the machine), and an absolute rate falls with it; its ratio to the BigInt reference, measured in the same interleaved rounds and so not moved by the load, is ${reference ? (ours / reference).toFixed(2) : '?'}×`,
        }
      : {};
  return [
    {
      name: 'Poseidon2 hashPair: ours vs BigInt reference',
      unit: 'hashes/s',
      value: ours,
      baseline: reference,
      baselineName: 'BigInt reference',
      goal: { kind: 'value-min', target },
      note,
      ...busy,
    },
    {
      name: 'Poseidon2 hashPair: ours vs @zkpassport/poseidon2',
      unit: 'hashes/s',
      value: ours,
      baseline: by('hashPair: @zkpassport/poseidon2'),
      baselineName: '@zkpassport/poseidon2',
      note,
    },
    {
      name: 'Poseidon2 hash of 3000 fields: ours vs @zkpassport/poseidon2',
      unit: 'hashes/s',
      value: by('hash(3000 fields): wasm kernel'),
      baseline: by('hash(3000 fields): @zkpassport/poseidon2'),
      baselineName: '@zkpassport/poseidon2',
      note,
    },
    {
      name: 'Poseidon2 hash of 3000 fields: the SIMD kernel vs its scalar fallback',
      unit: 'hashes/s',
      value: by('hash(3000 fields): wasm kernel'),
      baseline: by('hash(3000 fields): wasm kernel, scalar fallback'),
      baselineName: 'scalar fallback (engines without WebAssembly SIMD)',
      note: `${note}; two Montgomery products per extmul pair of lanes (docs/PERFORMANCE-NOTES.md, Poseidon2 kernel)`,
    },
  ];
}

/** Poseidon2 on worker threads: pair batches and whole blocks, main thread vs pool (bench/poseidon2-workers.ts). */
async function poseidon2Workers(o: CollectOptions): Promise<Figure[]> {
  const r = await run(
    'poseidon2-workers.ts',
    o.quick ? ['4', '8'] : ['5', '8,32'],
    o.quick ? { BENCH_ROUNDS: '3', BENCH_ROUND_MS: '100' } : { BENCH_ROUNDS: '5' },
    300_000,
  );
  interface Batch {
    pairs: number;
    mainPairsPerSecond: number;
    poolPairsPerSecond: number;
  }
  interface Block {
    txs: number;
    blocks: number;
    results: { name: string; ms: number; stallMs: number }[];
  }
  const j = r.ok
    ? readJson<{
        workers: number;
        rounds: number;
        loadAverageAtStart: string;
        crossoverPairs: number | null;
        batches: Batch[];
        blocks: Block[];
      }>('poseidon2-workers.json')
    : undefined;
  if (j === undefined)
    return [
      missing(
        'Poseidon2 pair batches on worker threads',
        'pairs/s',
        r.why || 'bench/out/poseidon2-workers.json missing',
      ),
    ];
  const note = `median of ${j.rounds} interleaved rounds (bench/poseidon2-workers.ts); crossover ${j.crossoverPairs ?? 'none'} pairs; load average at start ${j.loadAverageAtStart}`;
  const batches = j.batches
    .filter((b) => [64, 512, 4096, 32768].includes(b.pairs))
    .map(
      (b): Figure => ({
        name: `Poseidon2 batch of ${b.pairs} pairs: pool(${j.workers + 1}) vs main thread`,
        unit: 'pairs/s',
        value: b.poolPairsPerSecond,
        baseline: b.mainPairsPerSecond,
        baselineName: 'main thread',
        note,
      }),
    );
  const blocks = j.blocks.flatMap((b): Figure[] => {
    const [main, pool, offload] = b.results;
    if (!main || !pool) return [];
    const blockNote = `median of ${b.blocks} blocks after a cold one (bench/poseidon2-workers.ts)${offload ? `; ${offload.name}: ${offload.ms.toFixed(0)} ms, stall ${offload.stallMs.toFixed(0)} ms` : ''}`;
    return [
      {
        name: `world state: apply a block of ${b.txs} txs, ${pool.name} vs main thread`,
        unit: 'ms',
        value: pool.ms,
        baseline: main.ms,
        baselineName: 'main thread',
        note: blockNote,
      },
      {
        name: `world state: longest event-loop stall applying a block of ${b.txs} txs, ${pool.name}`,
        unit: 'ms',
        value: pool.stallMs,
        baseline: main.stallMs,
        baselineName: 'main thread',
        note: blockNote,
      },
    ];
  });
  return [...batches, ...blocks];
}

/** World state: block application vs its hashes, historical witness vs raw point read (bench/world-state.ts). */
async function worldState(o: CollectOptions): Promise<Figure[]> {
  const r = await run('world-state.ts', o.quick ? ['4', '20000'] : ['8'], {}, 240_000);
  const apply =
    /apply (\d+) ms; (\d+) permutations ≈ (\d+) ms of hashing \(median ratio of blocks ([^:]+): ([^)]*)\)/.exec(r.out);
  const cold = /cold first block: apply (\d+) ms; .*\(([\d.]+)×\)/.exec(r.out);
  const reads =
    /nullifier tree (\d+) leaves: sibling path @block1 ([\d.]+) ms, low-nullifier witness ([\d.]+) ms, raw point read ([\d.]+) ms/.exec(
      r.out,
    );
  const prepared = /as a prepared statement it takes ([\d.]+) µs/.exec(r.out);
  const why = r.ok ? `output of bench/world-state.ts not recognised: ${r.out.slice(0, 200)}` : r.why;
  const readNote = `mean of 500 reads on a SQLite file; raw point read = one knex query${prepared ? ` (${prepared[1]} µs as a prepared statement)` : ''}`;
  return [
    apply
      ? {
          name: 'world state: apply one block (8 txs × 64 nullifiers, 64 note hashes, 16 writes)',
          unit: 'ms',
          value: num(apply[1]),
          baseline: num(apply[3]),
          baselineName: `its ${apply[2]} hashes alone`,
          goal: { kind: 'ratio-max', target: 1.5 },
          note: `block with the median ratio of blocks ${apply[4]} (ratios ${apply[5]}), SQLite file${cold ? `; cold first block ${cold[1]} ms, ${cold[2]}×` : ''}`,
        }
      : missing('world state: block application vs its hashes', 'ms', why),
    ...(reads
      ? ([
          {
            name: `world state: historical sibling path (nullifier tree, ${reads[1]} leaves, at block 1)`,
            unit: 'ms',
            value: num(reads[2]),
            baseline: num(reads[4]),
            baselineName: 'raw point read',
            goal: { kind: 'ratio-max', target: 40 },
            note: readNote,
          },
          {
            name: `world state: historical low-nullifier witness (${reads[1]} leaves, at block 1)`,
            unit: 'ms',
            value: num(reads[3]),
            baseline: num(reads[4]),
            baselineName: 'raw point read',
            goal: { kind: 'ratio-max', target: 40 },
            note: readNote,
          },
        ] satisfies Figure[])
      : [missing('world state: historical witness vs raw point read', 'ms', why)]),
  ];
}

/** Private logs by tag from the index vs an in-memory map of the same chain (bench/log-tags.ts). */
async function logTags(): Promise<Figure[]> {
  const r = await run('log-tags.ts', ['10000'], {}, 180_000);
  const m = /logs by (\d+) tags on (\d+) logs: index ([\d.]+) ms, in-memory map ([\d.]+) ms/.exec(r.out);
  if (!m) return [missing('logs by 1000 tags', 'ms', r.ok ? 'output of bench/log-tags.ts not recognised' : r.why)];
  const half = Number(m[1]) / 2;
  return [
    {
      name: `logs by ${m[1]} tags (chain.getLogsByTags, ${m[2]} logs)`,
      unit: 'ms',
      value: num(m[3]),
      baseline: num(m[4]),
      baselineName: 'in-memory map lookup of the same tags',
      note: `${half} tags present, ${half} absent, ≤ 10 logs per tag; median of 7 rounds (bench/log-tags.ts); answers checked equal`,
    },
  ];
}

/** Mempool admission (bench/txpool.ts) vs a raw insert of the same wire bytes (bench/raw-insert.ts). */
async function txpool(o: CollectOptions): Promise<Figure[]> {
  const txs = o.quick ? '100' : '300';
  const r = await run('txpool.ts', [], { BENCH_TXS: txs }, 300_000);
  const j = r.ok ? readJson<{ txs: number; results: Record<string, number> }>('txpool.json') : undefined;
  const raw = await run('raw-insert.ts', [txs], {}, 120_000);
  const rawJson = raw.ok
    ? (JSON.parse(raw.out.trim().split('\n').pop()!) as { perSecond: number; bytes: number })
    : undefined;
  const addMs = j?.results['add (ms/tx)'];
  if (addMs === undefined)
    return [missing('tx admission', 'txs/s', r.why || 'bench/out/txpool.json has no "add (ms/tx)"')];
  return [
    {
      name: `tx admission into the pool (${j!.txs} txs, SQLite file)`,
      unit: 'txs/s',
      value: 1000 / addMs,
      ...(rawJson ? { baseline: rawJson.perSecond } : {}),
      baselineName: 'raw insert of the same wire JSON',
      note: `${rawJson ? `raw insert: one knex transaction per row, ${rawJson.bytes} B per tx, same SQLite file setup` : `baseline not measured: ${raw.why}`}; getPendingTxs(100) ${j!.results['getPendingTxs(100) (ms)']?.toFixed(1)} ms, reopen ${j!.results['reopen (ms)']?.toFixed(1)} ms`,
    },
  ];
}

/** Block building through the engine (bench/block-building.ts). */
async function blockBuilding(o: CollectOptions): Promise<Figure[]> {
  const r = await run('block-building.ts', [o.quick ? '128' : '512', '32'], {}, 300_000);
  const m = /([\d.]+) txs\/s, ([\d.]+) ms\/block/.exec(r.out);
  const split = /hashing (\d+) ms \((\d+)%.*storage (\d+) ms \((\d+)%/.exec(r.out);
  if (!m)
    return [missing('block building', 'txs/s', r.ok ? `output of bench/block-building.ts not recognised` : r.why)];
  return [
    {
      name: `block building (${o.quick ? 128 : 512} txs, blocks of ≤ 32, in-memory SQLite)`,
      unit: 'txs/s',
      value: num(m[1]),
      note: `${m[2]} ms/block${split ? `; hashing ${split[2]}%, storage ${split[4]}% of the time` : ''}`,
    },
  ];
}

/** Public VM interpreter (bench/public-vm.ts). */
async function publicVm(o: CollectOptions): Promise<Figure[]> {
  const r = await run('public-vm.ts', [o.quick ? '50000' : '200000'], {}, 240_000);
  const spins = [...r.out.matchAll(/spin\(Field\)\s+n=\d+: [\d]+ instructions in [\d.]+ s = ([\d,]+) instr\/s/g)];
  const store = /store_loop\(Field\)\s+n=\d+: [\d]+ instructions in [\d.]+ s = ([\d,]+) instr\/s/.exec(r.out);
  if (spins.length === 0)
    return [missing('public VM', 'instr/s', r.ok ? 'output of bench/public-vm.ts not recognised' : r.why)];
  return [
    {
      name: 'public VM: arithmetic + memory loop',
      unit: 'instr/s',
      value: num(spins.at(-1)![1]),
      note: 'after one warm-up run',
    },
    ...(store ? [{ name: 'public VM: SSTORE/SLOAD loop', unit: 'instr/s', value: num(store[1]) }] : []),
  ];
}

/** Token transfers through block building: public VM, trees and chain tables (bench/public-token-transfers.ts). */
async function tokenTransfers(o: CollectOptions): Promise<Figure[]> {
  const [n, perBlock] = o.quick ? [64, 32] : [256, 32];
  const r = await run('public-token-transfers.ts', [String(n), String(perBlock)], {}, 300_000);
  const head = /(\d+) transfer_in_public txs in (\d+) blocks of ≤(\d+) \((\d+) reverted\)/.exec(r.out);
  const rate = /([\d.]+) transfers\/s, ([\d.]+) ms\/block/.exec(r.out);
  if (!rate)
    return [
      missing(
        'public token transfers through block building',
        'transfers/s',
        r.ok ? `output of bench/public-token-transfers.ts not recognised: ${r.out.slice(0, 200)}` : r.why,
      ),
    ];
  return [
    {
      name: `token transfers through block building (${head?.[1] ?? n} transfer_in_public txs, blocks of ≤ ${head?.[3] ?? perBlock}, in-memory SQLite)`,
      unit: 'transfers/s',
      value: num(rate[1]),
      note: `${rate[2]} ms/block over ${head?.[2] ?? '?'} blocks, ${head?.[4] ?? '?'} reverted; the example token deployed by a tx and minted to every holder first (not timed); public VM, trees, chain tables and contract index, one DB transaction per block`,
    },
  ];
}

/** Follower catch-up over RPC vs applying the same blocks from a local array (bench/sync.ts). */
async function sync(o: CollectOptions): Promise<Figure[]> {
  const [blocks, perBlock] = o.quick ? [100, 2] : [1000, 2];
  const r = await run('sync.ts', [String(blocks), String(perBlock)], {}, 300_000);
  const line = r.out.trim().split('\n').pop() ?? '';
  let j:
    | {
        blocks: number;
        txs: number;
        txsPerBlock: number;
        buildSeconds: number;
        rpcSeconds: number;
        localSeconds: number;
      }
    | undefined;
  try {
    j = line.startsWith('{') ? JSON.parse(line) : undefined;
  } catch {
    j = undefined;
  }
  if (j === undefined)
    return [
      missing(
        'follower catch-up over RPC',
        'blocks/s',
        r.ok ? `output of bench/sync.ts not recognised: ${r.out.slice(-200)}` : r.why,
      ),
    ];
  const what = `${j.blocks} blocks, ${j.txs} txs (${j.txsPerBlock} per block, each 4 note hashes, 4 nullifiers, one private log)`;
  const note = `a fresh follower from a proposer with ${what} behind a real HTTP server: node_getBlocks pages of 100, wire decoding, full verification by re-application, checkpoints; baseline: a fresh engine importing the same blocks from a local array through the same verified import path (no HTTP, no JSON), same run; in-memory SQLite; the proposer built them at ${(j.blocks / j.buildSeconds).toFixed(0)} blocks/s`;
  const goal = { kind: 'ratio-min', target: 0.5 } as const;
  return [
    {
      name: `follower catch-up over RPC from a node with ${j.blocks} blocks`,
      unit: 'blocks/s',
      value: j.blocks / j.rpcSeconds,
      baseline: j.blocks / j.localSeconds,
      baselineName: 'same blocks from a local array',
      goal,
      note: `goal: fetching and decoding may cost at most as much again as verifying and storing. ${note}`,
      ...(j.localSeconds / j.rpcSeconds < goal.target
        ? {
            cause: `fetching (node_getBlocks over HTTP) and decoding took ${(((j.rpcSeconds - j.localSeconds) / j.rpcSeconds) * 100).toFixed(0)}% of the catch-up time, more than verifying and storing`,
          }
        : {}),
    },
    {
      name: `follower catch-up over RPC from a node with ${j.blocks} blocks`,
      unit: 'txs/s',
      value: j.txs / j.rpcSeconds,
      baseline: j.txs / j.localSeconds,
      baselineName: 'same blocks from a local array',
      note: `${j.rpcSeconds.toFixed(1)} s vs ${j.localSeconds.toFixed(1)} s`,
    },
  ];
}

/** Gossip between node processes (bench/p2p.ts). */
async function p2p(o: CollectOptions): Promise<Figure[]> {
  const burst = o.quick ? '500' : '5000';
  const r = await run('p2p.ts', [burst, '1000'], {}, o.quick ? 120_000 : 300_000);
  const lat = /median ([\d.]+) ms, p95 ([\d.]+) ms/.exec(r.out);
  const thr = /= (\d+) msg\/s, ([\d.]+) MB\/s/.exec(r.out);
  const real = /real Tx .*: ([\d.]+) ms/.exec(r.out);
  const why = r.ok ? 'output of bench/p2p.ts not recognised' : r.why;
  return [
    lat
      ? {
          name: 'p2p gossip latency, 1 KB tx-topic message (median)',
          unit: 'ms',
          value: num(lat[1]),
          note: `p95 ${lat[2]} ms; 200 messages one at a time, 3 processes`,
        }
      : missing('p2p gossip latency', 'ms', why),
    thr
      ? {
          name: `p2p gossip throughput, burst of ${burst} × 1 KB`,
          unit: 'msg/s',
          value: num(thr[1]),
          note: `${thr[2]} MB/s`,
        }
      : missing('p2p gossip throughput', 'msg/s', why),
    ...(real ? [{ name: 'p2p: one real ~200 KB Tx, sender to peer validator', unit: 'ms', value: num(real[1]) }] : []),
  ];
}

/** SQLite vs Postgres (bench/storage-engines.ts): Postgres against SQLite as the baseline. */
async function storageEngines(o: CollectOptions): Promise<Figure[]> {
  const r = await run('storage-engines.ts', o.quick ? ['5', '2'] : ['20', '4'], {}, 300_000);
  const rows = [
    ...r.out.matchAll(/^(applyBlock|writes only)\s+(.+?)\s+([\d.]+) ms\/block\s+([\d.]+) (blocks|rows)\/s/gm),
  ].map((m) => ({ kind: m[1]!, engine: m[2]!.trim(), msPerBlock: num(m[3]), rate: num(m[4]), unit: `${m[5]}/s` }));
  const figures: Figure[] = [];
  for (const kind of ['applyBlock', 'writes only']) {
    const sqlite = rows.find((x) => x.kind === kind && x.engine.startsWith('sqlite'));
    for (const other of rows.filter((x) => x.kind === kind && !x.engine.startsWith('sqlite'))) {
      figures.push({
        name: `${kind === 'applyBlock' ? 'world-state block application' : 'tree row writes alone'} on ${other.engine}`,
        unit: other.unit,
        value: other.rate,
        ...(sqlite ? { baseline: sqlite.rate, baselineName: sqlite.engine } : {}),
        note: `${other.msPerBlock} ms/block vs ${sqlite?.msPerBlock ?? '?'} ms/block; ${r.out.split('\n')[0]}`,
      });
    }
  }
  return figures.length > 0
    ? figures
    : [
        missing(
          'storage engines: SQLite vs Postgres',
          '',
          r.ok
            ? `no Postgres rows in the output of bench/storage-engines.ts (is Postgres running? scripts/postgres-start.sh)`
            : r.why,
        ),
      ];
}

/** Read-only processes on one Postgres (bench/readers.ts): two readers against one, the same load split over both. */
async function readers(o: CollectOptions): Promise<Figure[]> {
  const r = await run('readers.ts', o.quick ? ['1500', '1', '32'] : ['1000', '3', '32'], {}, 300_000);
  type Row = {
    oneReader: number;
    twoReaders: number;
    oneRuns: number[];
    twoRuns: number[];
    p99OneMs: number;
    p99TwoMs: number;
    errors: number;
    readerCpuOne?: number;
    readerCpuTwo?: number;
  };
  const j = r.ok
    ? readJson<{
        cpus: number;
        tip: number;
        connections: number;
        runs: number;
        durationMs: number;
        results: Record<string, Row>;
      }>('readers.json')
    : undefined;
  if (j === undefined || Object.keys(j.results).length === 0)
    return [
      missing('public reads with two reader processes', 'req/s', r.why || 'bench/out/readers.json has no results'),
    ];
  const labels: Record<string, string> = {
    getBlockNumber: 'node_getBlockNumber',
    getBlockLatest: 'node_getBlock("latest")',
  };
  return Object.entries(j.results).map(([key, x]) => ({
    name: `${labels[key] ?? key}: two --role rpc readers on one Postgres`,
    unit: 'req/s',
    value: x.twoReaders,
    baseline: x.oneReader,
    baselineName: 'one reader',
    note: `${j.cpus} CPUs (writer, readers, Postgres and load share them); chain of ${j.tip} empty blocks, writer paused during the loads; two load processes × ${j.connections / 2} connections, both on one reader or one per reader; ${j.runs} run(s) of ${j.durationMs / 1000} s, medians (runs ${x.oneRuns.map((v) => v.toFixed(0)).join('/')} vs ${x.twoRuns.map((v) => v.toFixed(0)).join('/')}); p99 ${x.p99OneMs.toFixed(2)} vs ${x.p99TwoMs.toFixed(2)} ms${x.readerCpuOne !== undefined ? `; reader CPU ${x.readerCpuOne.toFixed(2)} vs ${x.readerCpuTwo?.toFixed(2)} cores` : ''}${x.errors > 0 ? `; ${x.errors} errors or answers differing` : ''}`,
  }));
}

/** Which benchmarks: those that may run beside the soak, or those that need the machine to themselves. */
export type CollectedGroup = 'beside-soak' | 'alone';

/**
 * Runs one group of collected benchmarks, one after another; returns report sections (a title may
 * appear in both groups: bench/run.ts merges them). `stepSuffix` marks the steps in the time budget.
 */
export async function runCollected(o: CollectOptions, group: CollectedGroup, stepSuffix = ''): Promise<Section[]> {
  mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
  const step = (name: string, f: () => Promise<Figure[]>) => o.budget.step(`${name}${stepSuffix}`, f);
  if (group === 'alone') {
    return [
      {
        title: 'Poseidon2',
        figures: [
          ...(await step('poseidon2', () => poseidon2(o))),
          ...(await step('poseidon2 workers', () => poseidon2Workers(o))),
        ],
      },
      { title: 'P2P gossip', figures: await step('p2p', () => p2p(o)) },
      { title: 'Storage engines', figures: await step('readers', () => readers(o)) },
    ];
  }
  return [
    { title: 'World state', figures: await step('world-state', () => worldState(o)) },
    { title: 'Logs', figures: await step('log-tags', () => logTags()) },
    {
      title: 'Transactions and blocks',
      figures: [...(await step('txpool', () => txpool(o))), ...(await step('block-building', () => blockBuilding(o)))],
    },
    {
      title: 'Public VM',
      figures: [
        ...(await step('public-vm', () => publicVm(o))),
        ...(await step('token transfers', () => tokenTransfers(o))),
      ],
    },
    { title: 'Sync', figures: await step('sync', () => sync(o)) },
    { title: 'Storage engines', figures: await step('storage-engines', () => storageEngines(o)) },
  ];
}

/** Page order of the collected sections, whichever group measured them. */
const SECTION_ORDER = [
  'Poseidon2',
  'World state',
  'Logs',
  'Transactions and blocks',
  'Public VM',
  'Sync',
  'P2P gossip',
  'Storage engines',
];

/** Sections with the same title joined, in page order (unknown titles last, as first seen). */
export function mergeSections(sections: readonly Section[]): Section[] {
  const byTitle = new Map<string, Section>();
  for (const sec of sections) {
    const seen = byTitle.get(sec.title);
    byTitle.set(sec.title, seen ? { ...seen, figures: [...seen.figures, ...sec.figures] } : sec);
  }
  const rank = (t: string) => (SECTION_ORDER.includes(t) ? SECTION_ORDER.indexOf(t) : SECTION_ORDER.length);
  return [...byTitle.values()].sort((a, b) => rank(a.title) - rank(b.title));
}
