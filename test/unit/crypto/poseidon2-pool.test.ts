import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIELD_MODULUS as P, toFieldHex } from '../../../src/impl/crypto/field.ts';
import { defaultHasher, poseidon2Hash, poseidon2HashReference } from '../../../src/impl/crypto/poseidon2.ts';
import {
  allChunksDone,
  createBatch,
  hashFreeChunks,
  MAIN_ID,
  takeBackChunks,
} from '../../../src/impl/crypto/poseidon2-chunks.ts';
import { ParallelHasher, Poseidon2Pool } from '../../../src/impl/crypto/poseidon2-pool.ts';
import { hashPairs } from '../../../src/impl/crypto/poseidon2-wasm.ts';
import { recomputeNodes } from '../../../src/impl/world-state/merkle.ts';
import { assertSameTreesAsDefault } from '../world-state/helpers.ts';
import { treesVectors as V } from './vectors.ts';

/** Deterministic field elements weighted towards the edges (0, small, near p, ≥ p, uniform). */
function fieldGen(seed: number): () => bigint {
  let s = BigInt(seed);
  const next = () => (s = BigInt.asUintN(64, s * 6364136223846793005n + 1442695040888963407n));
  return () => {
    const r = next();
    const wide = (next() << 192n) | (next() << 128n) | (next() << 64n) | next();
    switch (Number(r % 5n)) {
      case 0:
        return 0n;
      case 1:
        return P - 1n - (r >> 60n);
      case 2:
        return r >> 40n;
      case 3:
        return wide; // may be ≥ p: reduced like the kernel does
      default:
        return wide % P;
    }
  };
}

test('a split batch equals the BigInt reference pair by pair, for odd and even sizes', async () => {
  const pool = new Poseidon2Pool({ workers: 1, minPairs: 1 });
  try {
    await pool.whenReady();
    const gen = fieldGen(1);
    for (const n of [1, 2, 3, 97, 1000]) {
      const lefts = Array.from({ length: n }, gen);
      const rights = Array.from({ length: n }, gen);
      const out = await pool.hashPairsParallel(lefts, rights);
      assert.equal(out.length, n);
      for (let i = 0; i < n; i++)
        assert.equal(out[i], poseidon2HashReference([lefts[i]! % P, rights[i]! % P]), `n ${n}, pair ${i}`);
    }
    assert.equal(pool.running, 1);
  } finally {
    await pool.close();
  }
});

test('shares add up whether or not the main thread hashes one, with one or two workers', async () => {
  const gen = fieldGen(5);
  for (const opts of [
    { workers: 1, mainThreadHashes: false },
    { workers: 2, mainThreadHashes: false },
    { workers: 2, mainThreadHashes: true },
  ]) {
    const pool = new Poseidon2Pool({ ...opts, minPairs: 1 });
    try {
      await pool.whenReady();
      for (const n of [1, 2, 3, 5, 64, 301]) {
        const lefts = Array.from({ length: n }, gen);
        const rights = Array.from({ length: n }, gen);
        assert.deepEqual(
          await pool.hashPairsParallel(lefts, rights),
          hashPairs(lefts, rights),
          `${JSON.stringify(opts)}, n ${n}`,
        );
      }
      assert.equal(pool.running, opts.workers);
    } finally {
      await pool.close();
    }
  }
});

test('the zero-subtree ladder of trees.json, one split batch per rung', async () => {
  const pool = new Poseidon2Pool({ workers: 1, minPairs: 1 });
  try {
    await pool.whenReady();
    const zeros: string[] = V.zeroHashes.values;
    let level = [0n];
    for (let i = 1; i < zeros.length; i++) {
      level = await pool.hashPairsParallel(level, level);
      assert.equal(toFieldHex(level[0]!), zeros[i], `zeroHashes[${i}]`);
    }
    // One batch holding all rungs' inputs at once.
    const inputs = zeros.slice(0, -1).map((z) => BigInt(z));
    const all = await pool.hashPairsParallel(inputs, inputs);
    assert.deepEqual(all.map(toFieldHex), zeros.slice(1));
  } finally {
    await pool.close();
  }
});

test('the note hash tree of trees.json recomputed through a ParallelHasher', async () => {
  const hasher = new ParallelHasher(new Poseidon2Pool({ workers: 1, minPairs: 2 }));
  try {
    await hasher.pool.whenReady();
    assert.equal(
      typeof hasher.hashPairsAsync,
      'function',
      'the Merkle update path takes the pool through hashPairsAsync',
    );
    assert.equal(defaultHasher.hashPairsAsync, undefined, 'the default kernel stays synchronous');
    const s = V.noteHashTreeScenario;
    const leaves = new Map<number, bigint>();
    (s.appended as string[]).forEach((v, i) => {
      leaves.set(i, BigInt(v));
    });
    const { root } = await recomputeNodes(42, leaves, async () => new Map(), hasher);
    assert.equal(toFieldHex(root), s.rootAfter);
  } finally {
    await hasher.close();
  }
});

test('a world state hashing through the pool has the same trees, block after block, as the default one', async () => {
  const parallel = new ParallelHasher(new Poseidon2Pool({ workers: 1, minPairs: 8 }));
  try {
    await parallel.pool.whenReady();
    let seed = 7n; // distinct keys (a repeated nullifier would reject the block)
    const gen = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % (P - 1000n)) + 1000n;
    await assertSameTreesAsDefault(parallel, gen, 3);
    assert.equal(parallel.pool.running, 1);
  } finally {
    await parallel.close();
  }
});

test('batches below minPairs stay on the main thread and start no worker', async () => {
  const pool = new Poseidon2Pool({ workers: 1, minPairs: 64 });
  const gen = fieldGen(2);
  const lefts = Array.from({ length: 63 }, gen);
  const rights = Array.from({ length: 63 }, gen);
  assert.deepEqual(await pool.hashPairsParallel(lefts, rights), hashPairs(lefts, rights));
  assert.equal(pool.running, 0);
  assert.deepEqual(
    await new Poseidon2Pool({ workers: 0, minPairs: 1 }).hashPairsParallel(lefts, rights),
    hashPairs(lefts, rights),
  );
});

test('concurrent batches, close() during a batch and a restart after close all give the kernel results', async () => {
  const pool = new Poseidon2Pool({ workers: 1, minPairs: 1 });
  const gen = fieldGen(3);
  const batches = [5, 300, 64, 1].map((n) => [Array.from({ length: n }, gen), Array.from({ length: n }, gen)] as const);
  const expected = batches.map(([l, r]) => hashPairs(l, r));
  assert.deepEqual(await Promise.all(batches.map(([l, r]) => pool.hashPairsParallel(l, r))), expected);
  // Closing while a batch is out (the worker may or may not have answered yet): still the kernel's results.
  const big = [Array.from({ length: 4000 }, gen), Array.from({ length: 4000 }, gen)] as const;
  const during = pool.hashPairsParallel(big[0], big[1]);
  await new Promise((resolve) => setImmediate(resolve));
  await pool.close();
  assert.deepEqual(await during, hashPairs(big[0], big[1]));
  assert.equal(pool.running, 0);
  assert.deepEqual(await pool.hashPairsParallel(batches[1]![0], batches[1]![1]), expected[1]);
  assert.equal(pool.running, 1);
  await pool.close();
});

test('a worker that dies during a batch: its chunks are hashed on the main thread, and it is replaced', async () => {
  // mainThreadHashes false: the batch can only complete through the take-over path.
  const pool = new Poseidon2Pool({ workers: 1, minPairs: 1, mainThreadHashes: false });
  const gen = fieldGen(4);
  const lefts = Array.from({ length: 200 }, gen);
  const rights = Array.from({ length: 200 }, gen);
  await pool.whenReady();
  const worker = (pool as unknown as { workers: { thread: { terminate(): Promise<number> } }[] }).workers[0]!;
  const during = pool.hashPairsParallel(lefts, rights); // its split posts to the dying worker
  const ended = worker.thread.terminate();
  assert.deepEqual(await during, hashPairs(lefts, rights));
  await ended;
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(pool.running, 0);
  await pool.whenReady();
  assert.deepEqual(await pool.hashPairsParallel(lefts, rights), hashPairs(lefts, rights));
  assert.equal(pool.running, 1);
  await pool.close();
});

test("chunks: claimed by one thread each, a dead thread's chunks taken back, outputs in place", () => {
  const gen = fieldGen(8);
  const n = 37;
  const lefts = Array.from({ length: n }, () => gen() % P);
  const rights = Array.from({ length: n }, () => gen() % P);
  const { buffer, layout } = createBatch(n, 5);
  assert.equal(layout.chunks, 8);
  const words = new BigUint64Array(buffer, layout.inBase, n * 8);
  const put = (k: number, x: bigint) => {
    for (let i = 0; i < 4; i++) words[k + i] = BigInt.asUintN(64, x >> BigInt(64 * i));
  };
  lefts.forEach((x, i) => {
    put(i * 8, x);
    put(i * 8 + 4, rights[i]!);
  });
  // Thread 7 claimed chunks 2 and 5, then died.
  const claims = new Int32Array(buffer, 16, layout.chunks);
  claims[2] = 7;
  claims[5] = 7;
  assert.equal(hashFreeChunks(buffer, MAIN_ID), 6);
  assert.equal(allChunksDone(buffer), false);
  assert.equal(takeBackChunks(buffer, 7, MAIN_ID), 2);
  assert.equal(allChunksDone(buffer), true);
  assert.equal(hashFreeChunks(buffer, MAIN_ID), 0, 'nothing left to claim');
  const out = new BigUint64Array(buffer, layout.outBase, n * 4);
  const got = Array.from(
    { length: n },
    (_, i) => (out[i * 4 + 3]! << 192n) | (out[i * 4 + 2]! << 128n) | (out[i * 4 + 1]! << 64n) | out[i * 4]!,
  );
  assert.deepEqual(got, hashPairs(lefts, rights));
});

test('a batch arriving while the workers still load is hashed on the main thread without waiting', async () => {
  const pool = new Poseidon2Pool({ workers: 1, minPairs: 1 });
  const gen = fieldGen(6);
  const lefts = Array.from({ length: 50 }, gen);
  const rights = Array.from({ length: 50 }, gen);
  assert.deepEqual(await pool.hashPairsParallel(lefts, rights), hashPairs(lefts, rights));
  assert.equal(pool.running, 1, 'the first split batch started the worker');
  await pool.whenReady();
  assert.deepEqual(await pool.hashPairsParallel(lefts, rights), hashPairs(lefts, rights));
  await pool.close();
});

test('sponge jobs on a worker equal the kernel for short, odd and tx-sized inputs, with and without a worker', async () => {
  const gen = fieldGen(11);
  const inputs = [1, 2, 3, 4, 7, 3001, 12_001].map((n) => Array.from({ length: n }, gen));
  const expected = inputs.map((x) => poseidon2Hash(x));
  const pool = new Poseidon2Pool({ workers: 1 });
  await pool.whenReady();
  assert.deepEqual(await pool.hashSponges(inputs), expected);
  assert.deepEqual(await pool.hashSponges([]), []);
  await pool.close();
  assert.deepEqual(await new Poseidon2Pool({ workers: 0 }).hashSponges(inputs), expected);
});

test('a sponge job leaves the event loop free while a worker hashes it', async () => {
  const pool = new Poseidon2Pool({ workers: 1 });
  await pool.whenReady();
  const gen = fieldGen(12);
  // 12 000 fields: ~4 000 permutations, one job; on the main thread it would be 4 slices at most.
  const input = Array.from({ length: 12_000 }, gen);
  let turns = 0;
  let running = true;
  const tick = () => {
    if (running) {
      turns++;
      setImmediate(tick);
    }
  };
  setImmediate(tick);
  assert.deepEqual(await pool.hashSponges([input]), [poseidon2Hash(input)]);
  running = false;
  assert.ok(turns >= 10, `turns seen: ${turns}`);
  await pool.close();
});

test('sponge jobs resolve in the order given: one hashed here while the worker loads waits for none, later ones follow it', async () => {
  const pool = new Poseidon2Pool({ workers: 1 });
  const gen = fieldGen(13);
  const big = Array.from({ length: 12_000 }, gen); // hashed here in slices: the worker is not ready yet
  const order: number[] = [];
  const first = pool.hashSponges([big]).then(() => order.push(1));
  await pool.whenReady();
  const small = [gen(), gen()];
  await Promise.all([first, pool.hashSponges([small]).then(() => order.push(2))]);
  assert.deepEqual(order, [1, 2]);
  await pool.close();
});

test('a worker that dies with a sponge job: the job is hashed on the main thread', async () => {
  const pool = new Poseidon2Pool({ workers: 1 });
  await pool.whenReady();
  const gen = fieldGen(14);
  const input = Array.from({ length: 6_000 }, gen);
  const worker = (pool as unknown as { workers: { thread: { terminate(): Promise<number> } }[] }).workers[0]!;
  const during = pool.hashSponges([input]);
  const ended = worker.thread.terminate();
  assert.deepEqual(await during, [poseidon2Hash(input)]);
  await ended;
  await pool.close();
});

test('lefts and rights of different lengths are refused', async () => {
  await assert.rejects(new Poseidon2Pool({ minPairs: 1 }).hashPairsParallel([1n], []), RangeError);
});

/** Runs an ES module script in a child process (60 s bound) and returns its stdout. */
function runChild(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'poseidon2-pool-'));
  const script = join(dir, 'child.mjs');
  writeFileSync(script, source);
  try {
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.signal, null, 'the child exited by itself (not killed by the timeout)');
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const poolUrl = JSON.stringify(new URL('../../../src/impl/crypto/poseidon2-pool.ts', import.meta.url).href);

test('an idle pool never keeps the process alive, and an awaited batch is not cut short', () => {
  assert.equal(
    runChild(`import { Poseidon2Pool } from ${poolUrl};
const pool = new Poseidon2Pool({ workers: 1, minPairs: 1 });
await pool.whenReady();
const out = await pool.hashPairsParallel([1n, 2n, 3n], [4n, 5n, 6n]);
console.log(out.length, pool.running);
`),
    '3 1',
  );
});

test('an awaited close() is not cut short, even with worker replies still on their way', () => {
  // Small batches the main thread finishes alone leave the worker's replies late; they arrive during close().
  assert.equal(
    runChild(`import { Poseidon2Pool } from ${poolUrl};
const pool = new Poseidon2Pool({ workers: 1, minPairs: 1 });
await pool.whenReady();
const xs = Array.from({ length: 64 }, (_, i) => BigInt(i));
for (let i = 0; i < 20; i++) await pool.hashPairsParallel(xs, xs);
await pool.close();
console.log('closed', pool.running);
`),
    'closed 0',
  );
});

test('a worker that cannot start leaves the pool on the main thread, without retrying every batch', async () => {
  const pool = new Poseidon2Pool({ workers: 1, minPairs: 1 });
  // Simulates a worker failing before its kernel is loaded (as a bad inherited execArgv would make it).
  const p = pool as unknown as { workers: { thread: { emit(e: string, x: unknown): boolean } }[]; start(): void };
  p.start();
  p.workers[0]!.thread.emit('error', new Error('cannot load'));
  await assert.rejects(pool.whenReady(), /cannot load/);
  assert.equal(pool.running, 0);
  assert.deepEqual(await pool.hashPairsParallel([1n, 2n], [3n, 4n]), hashPairs([1n, 2n], [3n, 4n]));
  assert.equal(pool.running, 0, 'no new worker started');
  await pool.close();
});
