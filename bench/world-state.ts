/**
 * World-state benchmark (prints figures, asserts nothing): Hasher pair hashes/s next to
 * @zkpassport/poseidon2, one full block (8 txs × 64 nullifiers, 64 note hashes, 16 public writes)
 * vs the time of its hashes alone, and historical path/witness reads vs a raw point read.
 * Run: ./node_modules/.bin/node bench/world-state.ts [extraBlocks]
 * @module
 */
import { poseidon2Hash as baseline } from '@zkpassport/poseidon2';
import { defaultHasher } from '../src/impl/crypto/poseidon2.ts';
import { FIELD_MODULUS } from '../src/impl/crypto/field.ts';
import { openDatabase } from '../src/impl/store/database.ts';
import { WorldState } from '../src/impl/world-state/world-state.ts';
import { emptyBlockHeader } from '../src/impl/world-state/block-header.ts';
import { TreeId } from '../src/impl/world-state/constants.ts';
import type { BlockStateContext } from '../src/impl/world-state/types.ts';

const time = async (fn: () => unknown | Promise<unknown>) => { const t = performance.now(); await fn(); return performance.now() - t; };
let seed = 12345n;
const rnd = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % FIELD_MODULUS);

const N = 5000;
const ours = await time(() => { let x = 1n; for (let i = 0; i < N; i++) x = defaultHasher.hashPair(x, 7n); });
const theirs = await time(() => { let x = 1n; for (let i = 0; i < N; i++) x = baseline([x, 7n]); });
console.log(`hashPair: ours ${(N / ours * 1000).toFixed(0)}/s, @zkpassport/poseidon2 ${(N / theirs * 1000).toFixed(0)}/s`);

const db = await openDatabase({ dataDirectory: ':memory:' });
const ws = await WorldState.open({ db });
const header = (c: BlockStateContext) => ({ ...emptyBlockHeader(c.state), lastArchive: c.lastArchive, globalVariables: { ...emptyBlockHeader(c.state).globalVariables, blockNumber: c.blockNumber } });
const mkBlock = (n: number) => ({
  blockNumber: n,
  txEffects: Array.from({ length: 8 }, () => ({
    noteHashes: Array.from({ length: 64 }, rnd), nullifiers: Array.from({ length: 64 }, rnd),
    publicDataWrites: Array.from({ length: 16 }, () => ({ leafSlot: rnd(), value: rnd() })),
  })),
  header,
});
let hashes = 0;
const counting = defaultHasher.hashPair.bind(defaultHasher);
const blk = mkBlock(1);
const applyMs = await time(() => ws.applyBlock(blk));
// Count the hashes the block needed by replaying its shape on a counting hasher in a fresh state.
const db2 = await openDatabase({ dataDirectory: ':memory:' });
const countingHasher = { hashPair: (l: bigint, r: bigint) => { hashes++; return counting(l, r); }, hash: (xs: readonly bigint[]) => { hashes += Math.max(1, Math.ceil(xs.length / 3)); return defaultHasher.hash(xs); }, hashPairs(b: readonly (readonly [bigint, bigint])[]) { return b.map(([l, r]) => this.hashPair(l, r)); } };
const ws2 = await WorldState.open({ db: db2, hasher: countingHasher });
hashes = 0;
await ws2.applyBlock(blk);
const hashOnlyMs = hashes / (N / ours);
console.log(`block 8 tx × (64 nullifiers, 64 note hashes, 16 writes): apply ${applyMs.toFixed(0)} ms; ${hashes} permutations ≈ ${hashOnlyMs.toFixed(0)} ms of hashing`);

const extra = Number(process.argv[2] ?? 0);
for (let b = 2; b <= 1 + extra; b++) await ws.applyBlock(mkBlock(b));
const size = (await ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, 'latest')).nextAvailableLeafIndex;
const R = 50;
const pathMs = await time(async () => { for (let i = 0; i < R; i++) await ws.getSiblingPath(TreeId.NULLIFIER_TREE, BigInt(i * 7), 1); });
const lowMs = await time(async () => { for (let i = 0; i < R; i++) await ws.getLowNullifierMembershipWitness(1, rnd()); });
const pointMs = await time(async () => { for (let i = 0; i < R; i++) await db('ws_tree_state').where({ tree_id: 0, block_number: 1 }).first(); });
console.log(`nullifier tree ${size} leaves: sibling path @block1 ${(pathMs / R).toFixed(2)} ms, low-nullifier witness ${(lowMs / R).toFixed(2)} ms, raw point read ${(pointMs / R).toFixed(3)} ms`);
await db.destroy();
await db2.destroy();
