/**
 * The fast Poseidon2 kernel: the WebAssembly module built from `wasm/poseidon2-wat.ts` (Montgomery
 * arithmetic in 29-bit limbs; two products at once with SIMD where the engine has it, see
 * poseidon2-kernel.ts), wrapped with the same API as the BigInt reference in poseidon2.ts, plus
 * `hashPairs(lefts, rights, out)` for tree updates. Values cross the boundary as four 64-bit
 * little-endian words per field element in the module's memory.
 * @module
 */
import { FIELD_MODULUS } from './field.ts';
import { type KernelVariant, loadPoseidon2Kernel, type Poseidon2Kernel } from './poseidon2-kernel.ts';
import type { Hasher } from './poseidon2-reference.ts';

const P = FIELD_MODULUS;
const TWO_POW_256 = 1n << 256n;
const WORDS = 4;
/** Pairs per hash_pairs call: bounds the memory a batch needs (96 bytes per pair). */
const PAIR_CHUNK = 4096;

/** The hash functions over one kernel instance. */
export interface FastPoseidon2 {
  hashPair(left: bigint, right: bigint): bigint;
  hashPairs(lefts: readonly bigint[], rights: readonly bigint[], out?: bigint[]): bigint[];
  poseidon2Hash(inputs: readonly bigint[]): bigint;
  poseidon2HashWithSeparator(inputs: readonly bigint[], separator: number | bigint): bigint;
  poseidon2Permutation(state: readonly bigint[]): bigint[];
  memoryBytes(): number;
}

/** The hash functions over a new instance of the given kernel variant (tests run both variants). */
export function createFastPoseidon2(variant?: KernelVariant): FastPoseidon2 {
  const kernel: Poseidon2Kernel = loadPoseidon2Kernel(variant);
  const IO_BASE = kernel.io_base.value;
  const IO_WORD = IO_BASE / 8;
  let words = new BigUint64Array(kernel.memory.buffer);

  /** Makes the memory hold `bytes` past IO_BASE; views are renewed because growing detaches them. */
  function ensure(bytes: number): void {
    const need = IO_BASE + bytes;
    const have = kernel.memory.buffer.byteLength;
    if (need > have) kernel.memory.grow(Math.ceil((need - have) / 65536));
    if (words.buffer !== kernel.memory.buffer) words = new BigUint64Array(kernel.memory.buffer);
  }

  /** Writes x (reduced into [0, p) unless already below 2^256, which the kernel reduces) at word index k. */
  function put(k: number, x: bigint): void {
    if (x < 0n || x >= TWO_POW_256) x = ((x % P) + P) % P;
    const w = words;
    w[k] = BigInt.asUintN(64, x);
    w[k + 1] = BigInt.asUintN(64, x >> 64n);
    w[k + 2] = BigInt.asUintN(64, x >> 128n);
    w[k + 3] = x >> 192n;
  }

  function get(k: number): bigint {
    const w = words;
    return (w[k + 3]! << 192n) | (w[k + 2]! << 128n) | (w[k + 1]! << 64n) | w[k]!;
  }

  return {
    hashPair(left, right) {
      put(IO_WORD, left);
      put(IO_WORD + WORDS, right);
      kernel.hash_pairs(IO_BASE, IO_BASE + 64, 1);
      return get(IO_WORD + 2 * WORDS);
    },
    hashPairs(lefts, rights, out = []) {
      const n = lefts.length;
      if (rights.length !== n) throw new RangeError('hashPairs: lefts and rights differ in length');
      out.length = n;
      ensure(Math.min(n, PAIR_CHUNK) * 96);
      for (let start = 0; start < n; start += PAIR_CHUNK) {
        const count = Math.min(PAIR_CHUNK, n - start);
        for (let i = 0; i < count; i++) {
          put(IO_WORD + i * 8, lefts[start + i]!);
          put(IO_WORD + i * 8 + 4, rights[start + i]!);
        }
        const outWord = IO_WORD + count * 8;
        kernel.hash_pairs(IO_BASE, outWord * 8, count);
        for (let i = 0; i < count; i++) out[start + i] = get(outWord + i * WORDS);
      }
      return out;
    },
    poseidon2Hash(inputs) {
      const n = inputs.length;
      ensure((n + 1) * 32);
      for (let i = 0; i < n; i++) put(IO_WORD + i * WORDS, inputs[i]!);
      const outWord = IO_WORD + n * WORDS;
      kernel.hash(IO_BASE, n, outWord * 8);
      return get(outWord);
    },
    poseidon2HashWithSeparator(inputs, separator) {
      const n = inputs.length + 1;
      ensure((n + 1) * 32);
      put(IO_WORD, BigInt(separator));
      for (let i = 1; i < n; i++) put(IO_WORD + i * WORDS, inputs[i - 1]!);
      const outWord = IO_WORD + n * WORDS;
      kernel.hash(IO_BASE, n, outWord * 8);
      return get(outWord);
    },
    poseidon2Permutation(state) {
      if (state.length !== 4) throw new RangeError('Poseidon2 state must have 4 elements');
      for (let i = 0; i < 4; i++) put(IO_WORD + i * WORDS, state[i]!);
      kernel.permute(IO_BASE);
      return [get(IO_WORD), get(IO_WORD + 4), get(IO_WORD + 8), get(IO_WORD + 12)];
    },
    memoryBytes: () => kernel.memory.buffer.byteLength,
  };
}

/** This thread's instance, of the variant the engine runs best. */
const fast = createFastPoseidon2();

/** poseidon2Hash([left, right]) on the fast kernel. */
export const hashPair: (left: bigint, right: bigint) => bigint = fast.hashPair;

/**
 * Hashes lefts[i], rights[i] into out[i] for every i (out defaults to a new array; its length is
 * set to the batch size). No per-pair allocation beyond the result bigints.
 */
export const hashPairs: (lefts: readonly bigint[], rights: readonly bigint[], out?: bigint[]) => bigint[] =
  fast.hashPairs;

/** Sponge hash of any number of field elements (Aztec's poseidon2Hash), on the fast kernel. */
export const poseidon2Hash: (inputs: readonly bigint[]) => bigint = fast.poseidon2Hash;

/** poseidon2Hash([separator, ...inputs]) on the fast kernel, without copying the inputs. */
export const poseidon2HashWithSeparator: (inputs: readonly bigint[], separator: number | bigint) => bigint =
  fast.poseidon2HashWithSeparator;

/** The Poseidon2 permutation on a 4-element state; returns a new array. */
export const poseidon2Permutation: (state: readonly bigint[]) => bigint[] = fast.poseidon2Permutation;

/** Hasher on the WebAssembly kernel. */
export class WasmPoseidon2Hasher implements Hasher {
  hashPair(left: bigint, right: bigint): bigint {
    return hashPair(left, right);
  }
  hash(inputs: readonly bigint[]): bigint {
    return poseidon2Hash(inputs);
  }
  hashPairs(batch: readonly (readonly [bigint, bigint])[]): bigint[] {
    return hashPairs(
      batch.map((p) => p[0]),
      batch.map((p) => p[1]),
    );
  }
}

/** Bytes of the kernel's linear memory (it only grows): for memory diagnostics. */
export function wasmMemoryBytes(): number {
  return fast.memoryBytes();
}
