/**
 * The process's Poseidon2 worker for whole sponge hashes: one thread (Poseidon2Pool with one
 * worker, `hashSponges`), so jobs run and resolve in the order given. A tx's hash is a sponge over
 * ~1 300–3 000 fields (~10–25 ms on the kernel) and a block's blob-fields hash one over all its
 * txs' effects; at 20 txs/s that is a large share of a core the event loop would otherwise spend
 * between requests (issue #21, docs/PERFORMANCE-NOTES.md). Started on first use; `unref`'d while
 * idle, so it never keeps a process alive; while it starts, or if it cannot, jobs are hashed on the
 * main thread in slices.
 * @module
 */
import { defaultHasher } from './poseidon2.ts';
import { Poseidon2Pool } from './poseidon2-pool.ts';
import type { Hasher } from './poseidon2-reference.ts';

/** The workers' thread names, as /proc/<pid>/task/<tid>/comm shows them (bench/rpc/busy-node.ts groups CPU by them). */
export const TX_HASH_THREAD = 'l2-tx-hash';
export const LEVEL_HASH_THREAD = 'l2-tree-levels';

let worker: Poseidon2Pool | undefined;
let levelWorker: Poseidon2Pool | undefined;

/** poseidon2Hash of each input, as one job on the worker; calls resolve in the order made. */
export function poseidon2HashesOffThread(inputs: readonly (readonly bigint[])[]): Promise<bigint[]> {
  worker ??= new Poseidon2Pool({ workers: 1, threadName: TX_HASH_THREAD });
  return worker.hashSponges(inputs);
}

/** Pairs below which a tree level is hashed here: a round trip to the worker costs about as much as ~8 pairs. */
const LEVEL_PAIRS_OFF_THREAD = 32;

/**
 * The node's Merkle hasher: a tree level of at least LEVEL_PAIRS_OFF_THREAD pairs is hashed as one
 * job on a worker of its own (a pair is a 2-field sponge: poseidon2Hash([left, right])), smaller ones
 * and single hashes on the main thread's kernel. The worker is not the tx-hash one, so a block's
 * levels never wait behind txs' hashes. What it moves off the event loop: the lower levels of a
 * block's scattered nullifier low-leaf paths, ~0.8 ms of main-thread CPU per bot tx (issue #21).
 */
export const offThreadLevelHasher: Hasher = {
  hashPair: (left, right) => defaultHasher.hashPair(left, right),
  hash: (inputs) => defaultHasher.hash(inputs),
  hashPairs: (batch) => defaultHasher.hashPairs(batch),
  hashPairsAsync: async (batch) => {
    if (batch.length < LEVEL_PAIRS_OFF_THREAD) return defaultHasher.hashPairs(batch);
    levelWorker ??= new Poseidon2Pool({ workers: 1, threadName: LEVEL_HASH_THREAD });
    return levelWorker.hashSponges(batch);
  },
};
