/**
 * World-state benchmark (prints figures, asserts nothing): Hasher pair hashes/s next to
 * @zkpassport/poseidon2; full blocks (8 txs × 64 nullifiers, 64 note hashes, 16 public writes)
 * against the time of their own hashes alone; historical sibling path and low-nullifier witness on
 * a nullifier tree grown to 100 000 leaves against one raw point read, all on a SQLite file (WAL),
 * as the node runs.
 *
 * Block application: block 1 is applied cold (reported apart), then `blocks` more; each one is
 * replayed right after on a second world state whose hasher counts the permutations and times the
 * hash calls: that time is the block's hashes alone, measured on the same work moments later. The
 * block with the median ratio is the reported one.
 *
 * Run: ./node_modules/.bin/node bench/world-state.ts [blocks] [leaves]
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { poseidon2Hash as baseline } from '@zkpassport/poseidon2';
import { defaultHasher } from '../src/impl/crypto/poseidon2.ts';
import type { Hasher } from '../src/impl/crypto/poseidon2.ts';
import { FIELD_MODULUS } from '../src/impl/crypto/field.ts';
import { openDatabase } from '../src/impl/store/database.ts';
import { selectRows } from '../src/impl/store/sql.ts';
import { WorldState } from '../src/impl/world-state/world-state.ts';
import { emptyBlockHeader } from '../src/impl/world-state/block-header.ts';
import { TreeId } from '../src/impl/world-state/constants.ts';
import type { BlockStateContext, TxTreeEffects, WorldStateBlock } from '../src/impl/world-state/types.ts';

const time = async (fn: () => unknown | Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
let seed = 12345n;
const rnd = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % FIELD_MODULUS);
const blocks = Number(process.argv[2] ?? 8);
const targetLeaves = Number(process.argv[3] ?? 100_000);

/** Pair hashes per ms, over `n` chained hashes. */
const pairRate = async (n: number) =>
  n /
  (await time(() => {
    let x = 1n;
    for (let i = 0; i < n; i++) x = defaultHasher.hashPair(x, 7n);
  }));
const N = 5000;
const ours = await pairRate(N);
const theirs =
  N /
  (await time(() => {
    let x = 1n;
    for (let i = 0; i < N; i++) x = baseline([x, 7n]);
  }));
console.log(`hashPair: ours ${(ours * 1000).toFixed(0)}/s, @zkpassport/poseidon2 ${(theirs * 1000).toFixed(0)}/s`);

const dirs = [mkdtempSync(join(tmpdir(), 'bench-ws-')), mkdtempSync(join(tmpdir(), 'bench-ws-count-'))];
const db = await openDatabase({ dataDirectory: dirs[0]! });
const ws = await WorldState.open({ db });
let permutations = 0;
let hashingMs = 0;
const timed = <T>(f: () => T): T => {
  const t = performance.now();
  const x = f();
  hashingMs += performance.now() - t;
  return x;
};
const counting: Hasher = {
  hashPair: (l, r) => {
    permutations++;
    return timed(() => defaultHasher.hashPair(l, r));
  },
  hash: (xs) => {
    permutations += Math.max(1, Math.ceil(xs.length / 3));
    return timed(() => defaultHasher.hash(xs));
  },
  hashPairs: (b) => {
    permutations += b.length;
    return timed(() => defaultHasher.hashPairs(b));
  },
};
const db2 = await openDatabase({ dataDirectory: dirs[1]! });
const ws2 = await WorldState.open({ db: db2, hasher: counting });

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
const mkBlock = (n: number, txs: number, make = tx): WorldStateBlock => ({
  blockNumber: n,
  txEffects: Array.from({ length: txs }, make),
  header,
});

/** Applies a block to both states; returns apply ms, its permutations and the time of those hashes alone. */
async function measure(block: WorldStateBlock) {
  const applyMs = await time(() => ws.applyBlock(block));
  permutations = 0;
  hashingMs = 0;
  await ws2.applyBlock(block);
  return { applyMs, permutations, hashMs: hashingMs };
}

const cold = await measure(mkBlock(1, 8));
const runs = [];
for (let b = 2; b <= 1 + blocks; b++) runs.push(await measure(mkBlock(b, 8)));
const ratios = runs.map((r) => r.applyMs / r.hashMs);
const mid = runs[ratios.indexOf(median(ratios))]!;
console.log(
  `block 8 tx × (64 nullifiers, 64 note hashes, 16 writes): apply ${mid.applyMs.toFixed(0)} ms; ${mid.permutations} permutations ≈ ${mid.hashMs.toFixed(0)} ms of hashing (median ratio of blocks 2..${1 + blocks}: ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
);
console.log(
  `cold first block: apply ${cold.applyMs.toFixed(0)} ms; ${cold.permutations} permutations ≈ ${cold.hashMs.toFixed(0)} ms of hashing (${(cold.applyMs / cold.hashMs).toFixed(2)}×)`,
);
await db2.destroy();

// Grow the nullifier tree to the target with nullifier-only blocks of 64 txs.
const nullifiersOnly = (): TxTreeEffects => ({
  noteHashes: [],
  nullifiers: Array.from({ length: 64 }, rnd),
  publicDataWrites: [],
});
let size = (await ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, 'latest')).nextAvailableLeafIndex;
const growMs = await time(async () => {
  for (let b = 2 + blocks; size < targetLeaves; b++) {
    await ws.applyBlock(mkBlock(b, Math.min(64, Math.ceil((targetLeaves - size) / 64)), nullifiersOnly));
    size = (await ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, 'latest')).nextAvailableLeafIndex;
  }
});
const at1 = (await ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, 1)).nextAvailableLeafIndex;
const R = 500;
for (let i = 0; i < 50; i++) {
  await ws.getSiblingPath(TreeId.NULLIFIER_TREE, BigInt(i), 1);
  await ws.getLowNullifierMembershipWitness(1, rnd());
}
const pathMs = await time(async () => {
  for (let i = 0; i < R; i++) await ws.getSiblingPath(TreeId.NULLIFIER_TREE, BigInt((i * 7919) % at1), 1);
});
const lowMs = await time(async () => {
  for (let i = 0; i < R; i++) await ws.getLowNullifierMembershipWitness(1, rnd());
});
const pointMs = await time(async () => {
  for (let i = 0; i < R; i++)
    await db('ws_tree_state')
      .where({ tree_id: 0, block_number: 1 + (i % 8) })
      .first();
});
const preparedMs = await time(async () => {
  for (let i = 0; i < R; i++)
    await selectRows(db, 'select root, size from ws_tree_state where tree_id = ? and block_number = ?', [
      0,
      1 + (i % 8),
    ]);
});
console.log(
  `nullifier tree ${size} leaves: sibling path @block1 ${(pathMs / R).toFixed(3)} ms, low-nullifier witness ${(lowMs / R).toFixed(3)} ms, raw point read ${(pointMs / R).toFixed(3)} ms`,
);
console.log(
  `(raw point read = one knex query; as a prepared statement it takes ${((preparedMs / R) * 1000).toFixed(1)} µs; tree grown in ${(growMs / 1000).toFixed(1)} s; ${at1} leaves at block 1)`,
);
await db.destroy();
for (const d of dirs) rmSync(d, { recursive: true, force: true });
