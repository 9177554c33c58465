/**
 * The shared-memory batch the Poseidon2 pool works on (poseidon2-pool.ts, poseidon2-pool-worker.ts):
 * one SharedArrayBuffer per batch holding a small header, one claim word per chunk, the packed
 * inputs and the outputs. Every thread taking part (main thread and workers) claims chunks one by
 * one with a compare-and-swap on the chunk's claim word, hashes them on its own instance of the
 * WebAssembly kernel and marks them done, so the work balances itself: a thread the scheduler
 * delays simply claims fewer chunks, and the chunks of a thread that died can be taken back.
 *
 * Layout (byte offsets): Int32 header [done, count, chunk size, chunks] at 0; Int32 claims from 16
 * (0 free, -1 done, else the claiming thread's id); inputs (64 bytes per pair: left then right, four
 * 64-bit little-endian words each, the kernel's format) from `inBase`; outputs (32 bytes per pair)
 * from `outBase`.
 * @module
 */
import { loadPoseidon2Kernel, type Poseidon2Kernel } from './poseidon2-kernel.ts';

/** Claim values: a free chunk, a hashed chunk; any other value is the id of the thread hashing it. */
export const FREE = 0;
export const DONE = -1;
/** The main thread's id; worker j uses j + 2. */
export const MAIN_ID = 1;
/** Header word holding the number of chunks done (waited on with Atomics). */
export const DONE_WORD = 0;
const HEADER_BYTES = 16;

/** Where things are in a batch buffer. */
export interface BatchLayout {
  readonly count: number;
  readonly chunk: number;
  readonly chunks: number;
  readonly inBase: number;
  readonly outBase: number;
}

function layoutOf(count: number, chunk: number): BatchLayout {
  const chunks = Math.ceil(count / chunk);
  const inBase = Math.ceil((HEADER_BYTES + chunks * 4) / 64) * 64;
  return { count, chunk, chunks, inBase, outBase: inBase + count * 64 };
}

/** A new batch buffer for `count` pairs in chunks of `chunk` pairs (inputs still to be written). */
export function createBatch(count: number, chunk: number): { buffer: SharedArrayBuffer; layout: BatchLayout } {
  const layout = layoutOf(count, chunk);
  const buffer = new SharedArrayBuffer(layout.outBase + count * 32);
  const header = new Int32Array(buffer, 0, 4);
  header[1] = count;
  header[2] = chunk;
  header[3] = layout.chunks;
  return { buffer, layout };
}

/** The layout written in a batch buffer's header. */
export function readLayout(buffer: SharedArrayBuffer): BatchLayout {
  const header = new Int32Array(buffer, 0, 4);
  return layoutOf(header[1]!, header[2]!);
}

let kernel: Poseidon2Kernel | undefined;

/** This thread's own kernel instance, loaded on first use. */
function ownKernel(): Poseidon2Kernel {
  kernel ??= loadPoseidon2Kernel();
  return kernel;
}

/** Loads this thread's kernel now (a worker does it before saying it is ready). */
export function loadKernel(): void {
  ownKernel();
}

/** Hashes chunk c of the batch (its claim is the caller's) and marks it done. */
function hashChunk(buffer: SharedArrayBuffer, layout: BatchLayout, claims: Int32Array, c: number): void {
  const k = ownKernel();
  const IO_BASE = k.io_base.value;
  const first = c * layout.chunk;
  const n = Math.min(layout.chunk, layout.count - first);
  const need = IO_BASE + n * 96;
  if (need > k.memory.buffer.byteLength) k.memory.grow(Math.ceil((need - k.memory.buffer.byteLength) / 65536));
  new Uint8Array(k.memory.buffer, IO_BASE, n * 64).set(new Uint8Array(buffer, layout.inBase + first * 64, n * 64));
  k.hash_pairs(IO_BASE, IO_BASE + n * 64, n);
  new Uint8Array(buffer, layout.outBase + first * 32, n * 32).set(
    new Uint8Array(k.memory.buffer, IO_BASE + n * 64, n * 32),
  );
  Atomics.store(claims, c, DONE);
  const header = new Int32Array(buffer, 0, 4);
  Atomics.add(header, DONE_WORD, 1);
  Atomics.notify(header, DONE_WORD);
}

/** Claims and hashes free chunks until none is left; returns how many this thread hashed. */
export function hashFreeChunks(buffer: SharedArrayBuffer, me: number): number {
  return claimAndHash(buffer, FREE, me);
}

/** Takes back the chunks a dead thread had claimed and hashes them here (as `me`). */
export function takeBackChunks(buffer: SharedArrayBuffer, dead: number, me: number): number {
  return claimAndHash(buffer, dead, me);
}

/** Claims for `me` every chunk marked `from` and hashes it; returns how many. */
function claimAndHash(buffer: SharedArrayBuffer, from: number, me: number): number {
  const layout = readLayout(buffer);
  const claims = new Int32Array(buffer, HEADER_BYTES, layout.chunks);
  let hashed = 0;
  for (let c = 0; c < layout.chunks; c++) {
    if (Atomics.compareExchange(claims, c, from, me) !== from) continue;
    hashChunk(buffer, layout, claims, c);
    hashed++;
  }
  return hashed;
}

/** True when every chunk of the batch is hashed. */
export function allChunksDone(buffer: SharedArrayBuffer): boolean {
  const layout = readLayout(buffer);
  const claims = new Int32Array(buffer, HEADER_BYTES, layout.chunks);
  for (let c = 0; c < layout.chunks; c++) if (Atomics.load(claims, c) !== DONE) return false;
  return true;
}

/**
 * Sponge hashes (poseidon2Hash) of inputs packed one after another as four 64-bit little-endian
 * words per field element (`lengths[i]` elements for input i), on this thread's kernel: a whole
 * job for one thread, as a tx's hashes are (a sponge is sequential, unlike a pair batch). Returns
 * four words per input.
 */
export function hashSpongesPacked(words: BigUint64Array, lengths: readonly number[]): BigUint64Array {
  const k = ownKernel();
  const IO_BASE = k.io_base.value;
  const out = new BigUint64Array(lengths.length * 4);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const n = lengths[i]!;
    const need = IO_BASE + (n + 1) * 32;
    if (need > k.memory.buffer.byteLength) k.memory.grow(Math.ceil((need - k.memory.buffer.byteLength) / 65536));
    new BigUint64Array(k.memory.buffer, IO_BASE, n * 4).set(words.subarray(at, at + n * 4));
    k.hash(IO_BASE, n, IO_BASE + n * 32);
    out.set(new BigUint64Array(k.memory.buffer, IO_BASE + n * 32, 4), i * 4);
    at += n * 4;
  }
  return out;
}
