/**
 * Poseidon2 on the second core (issue #12; prints figures, asserts nothing): pair batches of the
 * sizes one tree level of a block update produces, hashed on the main thread's kernel vs by
 * src/impl/crypto/poseidon2-pool.ts (packed 64-bit words in a SharedArrayBuffer, chunks claimed by
 * the main thread and the workers). Interleaved rounds (the order flips each round),
 * medians; then the crossover batch size below which the pool does not pay. Then whole blocks
 * (8 and 32 txs × 64 nullifiers, 64 note hashes, 16 writes) applied to three world states on
 * SQLite files: the default hasher, the ParallelHasher (pool above its default threshold) and the
 * pool with the main thread hashing no share, with the longest event-loop stall during each application.
 *
 * Output (one line each, for bench/collect.ts to parse):
 *   poseidon2 workers: batch 4096 pairs: main 0.105 s = 39000 pairs/s, pool(2) 0.060 s = 68000 pairs/s (1.74×)
 *   poseidon2 workers: crossover 64 pairs (the pool is ≥ 1.05× from here up; below it, it does not pay)    [or: crossover none (…)]
 *   poseidon2 workers: block of 8 txs: main 0.182 s, pool(2) 0.150 s (1.21×), offload(1) 0.190 s (0.96×); longest event-loop stall main 160 ms, pool(2) 95 ms, offload(1) 40 ms
 * (offload(k): the same pool with the main thread hashing no share, so its event loop is free meanwhile)
 * and bench/out/poseidon2-workers.json.
 *
 * Run: ./node_modules/.bin/node bench/poseidon2-workers.ts [blocks per size, default 9] [txs per block, default 8,32]
 * Env: BENCH_ROUNDS (default 7), BENCH_ROUND_MS (least time per measurement, default 200),
 *      BENCH_SIZES (comma-separated pair counts), BENCH_WORKERS (default availableParallelism() - 1).
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIELD_MODULUS } from '../src/impl/crypto/field.ts';
import { hashPairs } from '../src/impl/crypto/poseidon2-wasm.ts';
import { DEFAULT_MIN_PARALLEL_PAIRS, ParallelHasher, Poseidon2Pool } from '../src/impl/crypto/poseidon2-pool.ts';
import { openDatabase } from '../src/impl/store/database.ts';
import { emptyBlockHeader } from '../src/impl/world-state/block-header.ts';
import type { Hasher } from '../src/impl/crypto/poseidon2.ts';
import { TreeId } from '../src/impl/world-state/constants.ts';
import type { BlockStateContext, TxTreeEffects, WorldStateBlock } from '../src/impl/world-state/types.ts';
import { WorldState } from '../src/impl/world-state/world-state.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 200);
const SIZES = (process.env.BENCH_SIZES ?? '8,16,32,64,128,256,512,1024,4096,32768').split(',').map(Number);
const WORKERS = Number(process.env.BENCH_WORKERS ?? Math.max(1, availableParallelism() - 1));
const BLOCKS = Number(process.argv[2] ?? 9);
const TXS_LIST = (process.argv[3] ?? '8,32').split(',').map(Number);
const THREADS = `pool(${WORKERS + 1})`;

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
let seed = 424242n;
const rnd = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % FIELD_MODULUS);

const loadAtStart = load();
console.log(
  `poseidon2 workers: ${cpus().length} CPUs, availableParallelism ${availableParallelism()}, ${WORKERS} worker(s); load average at start ${loadAtStart}`,
);

// --- Batches: main thread vs the pool, forced to split every batch (minPairs 1). ---
const pool = new Poseidon2Pool({ workers: WORKERS, minPairs: 1 });
const maxN = Math.max(...SIZES);
const allLefts = Array.from({ length: maxN }, rnd);
const allRights = Array.from({ length: maxN }, rnd);

// Warm-up: the workers started, both kernels tiered up, results checked equal.
await pool.whenReady();
for (let i = 0; i < 5; i++) {
  const n = Math.min(maxN, 2048);
  const a = hashPairs(allLefts.slice(0, n), allRights.slice(0, n));
  const b = await pool.hashPairsParallel(allLefts.slice(0, n), allRights.slice(0, n));
  if (a.some((x, k) => x !== b[k])) throw new Error('pool and main-thread kernel disagree');
}

/** Seconds per batch of `n` pairs, repeated until ROUND_MS have passed (at least once). */
async function secondsPerBatch(n: number, onPool: boolean): Promise<number> {
  const lefts = allLefts.slice(0, n);
  const rights = allRights.slice(0, n);
  let reps = 0;
  const t0 = performance.now();
  do {
    if (onPool) await pool.hashPairsParallel(lefts, rights);
    else hashPairs(lefts, rights);
    reps++;
  } while (performance.now() - t0 < ROUND_MS);
  return (performance.now() - t0) / reps / 1000;
}

const runs = new Map<number, { main: number[]; pool: number[] }>(SIZES.map((n) => [n, { main: [], pool: [] }]));
for (let r = 0; r < ROUNDS; r++) {
  for (const n of SIZES) {
    const m = runs.get(n)!;
    // Flip the order every round so neither side always runs right after the other.
    if (r % 2 === 0) {
      m.main.push(await secondsPerBatch(n, false));
      m.pool.push(await secondsPerBatch(n, true));
    } else {
      m.pool.push(await secondsPerBatch(n, true));
      m.main.push(await secondsPerBatch(n, false));
    }
  }
}
await pool.close();

const fmtS = (s: number) => (s >= 0.01 ? s.toFixed(3) : s.toFixed(5));
const batches = SIZES.map((n) => {
  const m = runs.get(n)!;
  const main = median(m.main);
  const onPool = median(m.pool);
  const row = {
    pairs: n,
    mainSeconds: main,
    poolSeconds: onPool,
    mainPairsPerSecond: n / main,
    poolPairsPerSecond: n / onPool,
    ratio: main / onPool,
    mainRuns: m.main,
    poolRuns: m.pool,
  };
  console.log(
    `poseidon2 workers: batch ${n} pairs: main ${fmtS(main)} s = ${row.mainPairsPerSecond.toFixed(0)} pairs/s, ${THREADS} ${fmtS(onPool)} s = ${row.poolPairsPerSecond.toFixed(0)} pairs/s (${row.ratio.toFixed(2)}×)`,
  );
  return row;
});
// The crossover: the smallest measured size from which every larger size is clearly (≥ PAYS) faster on the pool.
const PAYS = 1.05;
let crossover: number | null = null;
for (let k = batches.length - 1; k >= 0 && batches[k]!.ratio >= PAYS; k--) crossover = batches[k]!.pairs;
console.log(
  crossover === null
    ? `poseidon2 workers: crossover none (the pool is not ≥ ${PAYS}× at the largest size, ${maxN} pairs)`
    : `poseidon2 workers: crossover ${crossover} pairs (the pool is ≥ ${PAYS}× from here up; below it, it does not pay)`,
);

// --- Whole blocks: the same blocks applied to one world state per hasher. ---
const parallel = new ParallelHasher(new Poseidon2Pool({ workers: WORKERS }));
const offload = new ParallelHasher(new Poseidon2Pool({ workers: WORKERS, mainThreadHashes: false }));
const OFFLOAD = `offload(${WORKERS})`;
await Promise.all([parallel.pool.whenReady(), offload.pool.whenReady()]);
const hashers: { name: string; hasher?: Hasher }[] = [
  { name: 'main' },
  { name: THREADS, hasher: parallel },
  { name: OFFLOAD, hasher: offload },
];
const header = (c: BlockStateContext) => ({
  ...emptyBlockHeader(c.state),
  lastArchive: c.lastArchive,
  globalVariables: { ...emptyBlockHeader(c.state).globalVariables, blockNumber: c.blockNumber },
});
const tx = (): TxTreeEffects => ({
  noteHashes: Array.from({ length: 64 }, rnd),
  nullifiers: Array.from({ length: 64 }, rnd),
  publicDataWrites: Array.from({ length: 16 }, () => ({ leafSlot: rnd(), value: rnd() })),
});

/**
 * The longest gap between turns of the event loop from now until stop(): what a JSON-RPC request
 * arriving at the worst moment would wait. A 1 ms timer chain, so gaps include up to ~1 ms of timer slack.
 */
function stallMonitor(): { stop(): number } {
  let last = performance.now();
  let longest = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  return {
    stop() {
      clearTimeout(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
}

/** Apply ms and the longest event-loop stall (ms) while applying. */
async function apply(ws: WorldState, block: WorldStateBlock): Promise<Applied> {
  const monitor = stallMonitor();
  const t0 = performance.now();
  await ws.applyBlock(block);
  const ms = performance.now() - t0;
  return { ms, stallMs: monitor.stop() };
}

interface Applied {
  ms: number;
  stallMs: number;
}

/** Blocks of `txs` txs applied to a fresh world state per hasher, the order rotating block by block; block 1 (cold) left out. */
async function measureBlocks(txs: number): Promise<Applied[][]> {
  const dirs = hashers.map((h) => mkdtempSync(join(tmpdir(), `bench-p2w-${h.name.replace(/\W/g, '')}-`)));
  const dbs = await Promise.all(dirs.map((d) => openDatabase({ dataDirectory: d })));
  const states = await Promise.all(
    hashers.map((h, k) => WorldState.open({ db: dbs[k]!, ...(h.hasher ? { hasher: h.hasher } : {}) })),
  );
  const runs: Applied[][] = [];
  try {
    for (let b = 1; b <= BLOCKS; b++) {
      const block: WorldStateBlock = { blockNumber: b, txEffects: Array.from({ length: txs }, tx), header };
      const row: Applied[] = [];
      for (let i = 0; i < states.length; i++) {
        const k = (i + b) % states.length;
        row[k] = await apply(states[k]!, block);
      }
      const roots = await Promise.all(
        states.map(async (s) => (await s.getTreeSnapshot(TreeId.NULLIFIER_TREE, 'latest')).root),
      );
      if (roots.some((r) => r !== roots[0])) throw new Error(`block ${b}: roots differ between the hashers`);
      if (b > 1) runs.push(row);
    }
  } finally {
    for (const db of dbs) await db.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  return runs;
}

const blocks = [];
for (const txs of TXS_LIST) {
  const runs = await measureBlocks(txs);
  const per = hashers.map((h, k) => ({
    name: h.name,
    ms: median(runs.map((r) => r[k]!.ms)),
    stallMs: median(runs.map((r) => r[k]!.stallMs)),
  }));
  const [main] = per;
  const times = per
    .map((p, k) => `${p.name} ${(p.ms / 1000).toFixed(3)} s${k ? ` (${(main!.ms / p.ms).toFixed(2)}×)` : ''}`)
    .join(', ');
  const stalls = per.map((p) => `${p.name} ${p.stallMs.toFixed(0)} ms`).join(', ');
  console.log(`poseidon2 workers: block of ${txs} txs: ${times}; longest event-loop stall ${stalls}`);
  blocks.push({
    txs,
    blocks: runs.length,
    results: per,
    runs: runs.map((r) => Object.fromEntries(r.map((a, k) => [hashers[k]!.name, a]))),
  });
}
await parallel.close();
await offload.close();

const loadAtEnd = load();
console.log(
  `poseidon2 workers: ${ROUNDS} interleaved rounds of ≥ ${ROUND_MS} ms per size, medians; blocks 2..${BLOCKS} (median); load average at end ${loadAtEnd}`,
);

mkdirSync(join(import.meta.dirname, 'out'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'out', 'poseidon2-workers.json'),
  JSON.stringify(
    {
      cpus: cpus().length,
      availableParallelism: availableParallelism(),
      workers: WORKERS,
      rounds: ROUNDS,
      roundMs: ROUND_MS,
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadAtEnd,
      batches,
      crossoverPairs: crossover,
      crossoverMinRatio: PAYS,
      defaultMinParallelPairs: DEFAULT_MIN_PARALLEL_PAIRS,
      blocks,
    },
    null,
    1,
  ) + '\n',
);
