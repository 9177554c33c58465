/**
 * Worker-thread side of the Poseidon2 pool (poseidon2-pool.ts), on its own instance of the
 * WebAssembly kernel. Two kinds of request:
 * - `{ id, buffer, me }`: claims and hashes free chunks of a shared pair batch (poseidon2-chunks.ts);
 *   answers `{ id }` once no free chunk is left (possibly none was hashed here: the main thread took
 *   them all);
 * - `{ id, sponges, lengths }`: sponge hashes of packed inputs (a tx's hashes), answered as
 *   `{ id, out }` with the packed outputs (both buffers transferred, not copied).
 * Either may answer `{ id, error }`; `{ ready: true }` is sent once, when the kernel is loaded. No
 * bigint crosses the thread boundary.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { hashFreeChunks, hashSpongesPacked, loadKernel } from './poseidon2-chunks.ts';

type Request =
  | { id: number; buffer: SharedArrayBuffer; me: number }
  | { id: number; sponges: ArrayBuffer; lengths: number[] };

loadKernel();
// The pool gives this worker work only after this: a batch never waits for a worker's start-up.
parentPort!.postMessage({ ready: true });
parentPort!.on('message', (req: Request) => {
  try {
    if ('sponges' in req) {
      const out = hashSpongesPacked(new BigUint64Array(req.sponges), req.lengths).buffer as ArrayBuffer;
      parentPort!.postMessage({ id: req.id, out }, [out]);
    } else {
      hashFreeChunks(req.buffer, req.me);
      parentPort!.postMessage({ id: req.id });
    }
  } catch (err) {
    parentPort!.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) });
  }
});
