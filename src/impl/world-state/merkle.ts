/**
 * Merkle arithmetic shared by all trees: the zero-subtree ladder, recomputing the nodes above a
 * set of changed leaves level by level (one hashPairs batch per level), and folding a sibling
 * path back into a root (used by tests and verifiers).
 * @module
 */
import type { Hasher } from '../crypto/poseidon2.ts';
import { defaultHasher } from '../crypto/poseidon2.ts';
import type { EventLoopBudget } from './event-loop-budget.ts';

const MAX_HEIGHT = 42;
const ladder: bigint[] = [0n];
for (let i = 0; i < MAX_HEIGHT; i++) ladder.push(defaultHasher.hashPair(ladder[i]!, ladder[i]!));

/** zeroHashes[i] = root of an empty subtree of height i (zeroHashes[0] = 0, the empty leaf). */
export const ZERO_HASHES: readonly bigint[] = ladder;

/** Root of an empty tree of the given height. */
export function emptyRoot(height: number): bigint {
  return ZERO_HASHES[height]!;
}

/** Reads current node hashes for indices at a level; absent entries are empty subtrees. */
export type NodeReader = (level: number, indices: number[]) => Promise<Map<number, bigint>>;

/** One recomputed node. */
export interface NodeWrite {
  level: number;
  index: number;
  hash: bigint;
}

/**
 * Recomputes every node above the changed leaves (level 0 = leaf hashes) up to the root.
 * Returns the new root and all changed nodes, leaves included, so they can be stored.
 */
export async function recomputeNodes(
  height: number,
  changedLeaves: Map<number, bigint>,
  read: NodeReader,
  hasher: Hasher = defaultHasher,
  budget?: EventLoopBudget,
): Promise<{ root: bigint; nodes: NodeWrite[] }> {
  const nodes: NodeWrite[] = [];
  let level = changedLeaves;
  for (let l = 0; l < height; l++) {
    for (const [index, hash] of level) nodes.push({ level: l, index, hash });
    const parents = [...new Set([...level.keys()].map((i) => Math.floor(i / 2)))].sort((a, b) => a - b);
    const missing: number[] = [];
    for (const p of parents) {
      if (!level.has(2 * p)) missing.push(2 * p);
      if (!level.has(2 * p + 1)) missing.push(2 * p + 1);
    }
    const known = missing.length ? await read(l, missing) : new Map<number, bigint>();
    const child = (i: number): bigint => level.get(i) ?? known.get(i) ?? ZERO_HASHES[l]!;
    const pairs = parents.map((p) => [child(2 * p), child(2 * p + 1)] as const);
    // A hasher with worker threads hashes large levels off the main thread (crypto/poseidon2-pool.ts).
    let hashes: bigint[];
    if (hasher.hashPairsAsync !== undefined) {
      hashes = await hasher.hashPairsAsync(pairs);
      await budget?.turn();
    } else hashes = await hashInSlices(hasher, pairs, budget);
    const next = new Map<number, bigint>();
    parents.forEach((p, k) => {
      next.set(p, hashes[k]!);
    });
    level = next;
  }
  const root = level.get(0);
  if (root === undefined) throw new Error('recomputeNodes: no leaves changed');
  nodes.push({ level: height, index: 0, hash: root });
  return { root, nodes };
}

/** Pairs per main-thread hashing slice between event-loop turns (~25 µs a pair: ~1.6 ms). */
const PAIRS_PER_SLICE = 64;

/** Hashes a level on the main thread, letting the event loop turn between slices when `budget` says so. */
async function hashInSlices(
  hasher: Hasher,
  pairs: readonly (readonly [bigint, bigint])[],
  budget: EventLoopBudget | undefined,
): Promise<bigint[]> {
  if (budget === undefined || pairs.length <= PAIRS_PER_SLICE) {
    const out = hasher.hashPairs(pairs);
    await budget?.turn();
    return out;
  }
  const out: bigint[] = [];
  for (let i = 0; i < pairs.length; i += PAIRS_PER_SLICE) {
    out.push(...hasher.hashPairs(pairs.slice(i, i + PAIRS_PER_SLICE)));
    await budget.turn();
  }
  return out;
}

/** Folds a leaf hash and its sibling path (leaf level first) into the root. */
export function rootFromPath(
  leafHash: bigint,
  index: bigint,
  siblings: readonly bigint[],
  hasher: Hasher = defaultHasher,
): bigint {
  let h = leafHash;
  let i = index;
  for (const s of siblings) {
    h = (i & 1n) === 0n ? hasher.hashPair(h, s) : hasher.hashPair(s, h);
    i >>= 1n;
  }
  return h;
}
