/**
 * Worker-thread side of the Poseidon2 pool (poseidon2-pool.ts): its own instance of the
 * WebAssembly kernel, hashing packed pairs the main thread wrote into a SharedArrayBuffer.
 * Message in: `{ id, buffer, count }` — `buffer` holds `count` pairs (64 bytes each: left then
 * right, four 64-bit little-endian words per element, the kernel's own format) followed by room
 * for `count` outputs (32 bytes each). Message out: `{ id }` once the outputs are written, or
 * `{ id, error }`; `{ ready: true }` once, when the kernel is loaded. No bigint crosses the thread boundary.
 * @module
 */
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';

/** Start of the input/output area in the module's memory (LAYOUT.IO_BASE in wasm/poseidon2-wat.ts). */
const IO_BASE = 8192;

interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
interface Kernel {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  hash_pairs(inPtr: number, outPtr: number, count: number): void;
}
const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
const kernel = new WA.Instance(new WA.Module(readFileSync(new URL('./wasm/poseidon2.wasm', import.meta.url)))).exports as unknown as Kernel;

interface Request { id: number; buffer: SharedArrayBuffer; count: number }

function hashPacked({ buffer, count }: Request): void {
  const inBytes = count * 64;
  const outBytes = count * 32;
  const need = IO_BASE + inBytes + outBytes;
  const have = kernel.memory.buffer.byteLength;
  if (need > have) kernel.memory.grow(Math.ceil((need - have) / 65536));
  new Uint8Array(kernel.memory.buffer, IO_BASE, inBytes).set(new Uint8Array(buffer, 0, inBytes));
  kernel.hash_pairs(IO_BASE, IO_BASE + inBytes, count);
  new Uint8Array(buffer, inBytes, outBytes).set(new Uint8Array(kernel.memory.buffer, IO_BASE + inBytes, outBytes));
}

// The pool gives this worker work only after this: a batch never waits for a worker's start-up.
parentPort!.postMessage({ ready: true });
parentPort!.on('message', (req: Request) => {
  try {
    hashPacked(req);
    parentPort!.postMessage({ id: req.id });
  } catch (err) {
    parentPort!.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) });
  }
});
