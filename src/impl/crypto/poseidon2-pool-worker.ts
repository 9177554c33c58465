/**
 * Worker-thread side of the Poseidon2 pool (poseidon2-pool.ts): claims and hashes free chunks of a
 * shared batch buffer (poseidon2-chunks.ts) on its own instance of the WebAssembly kernel.
 * Message in: `{ id, buffer, me }`; out: `{ id }` once no free chunk is left (possibly none was
 * hashed here: the main thread took them all), or `{ id, error }`; `{ ready: true }` once, when the
 * kernel is loaded. No bigint crosses the thread boundary.
 * @module
 */
import { parentPort } from 'node:worker_threads';
import { hashFreeChunks, loadKernel } from './poseidon2-chunks.ts';

interface Request {
  id: number;
  buffer: SharedArrayBuffer;
  me: number;
}

loadKernel();
// The pool gives this worker work only after this: a batch never waits for a worker's start-up.
parentPort!.postMessage({ ready: true });
parentPort!.on('message', (req: Request) => {
  try {
    hashFreeChunks(req.buffer, req.me);
    parentPort!.postMessage({ id: req.id });
  } catch (err) {
    parentPort!.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) });
  }
});
