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
import { Poseidon2Pool } from './poseidon2-pool.ts';

let worker: Poseidon2Pool | undefined;

/** poseidon2Hash of each input, as one job on the worker; calls resolve in the order made. */
export function poseidon2HashesOffThread(inputs: readonly (readonly bigint[])[]): Promise<bigint[]> {
  worker ??= new Poseidon2Pool({ workers: 1 });
  return worker.hashSponges(inputs);
}
