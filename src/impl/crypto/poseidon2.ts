/**
 * Poseidon2 over BN254 as Barretenberg/Aztec use it. The exported poseidon2Hash /
 * poseidon2HashWithSeparator / poseidon2Permutation / defaultHasher run on the WebAssembly kernel
 * (poseidon2-wasm.ts); the BigInt implementation (poseidon2-reference.ts) is re-exported as the
 * `*Reference` functions, the oracle the kernel is tested against.
 * @module
 */
import * as kernel from './poseidon2-wasm.ts';
import type { Hasher } from './poseidon2-reference.ts';

export * from './poseidon2-reference.ts';

// The one place the default implementation is chosen: every caller gets the WebAssembly kernel.
/** Sponge hash of any number of field elements (Aztec's poseidon2Hash). */
export const poseidon2Hash: (inputs: readonly bigint[]) => bigint = kernel.poseidon2Hash;
/** poseidon2Hash([separator, ...inputs]) — Aztec's domain-separated hash. */
export const poseidon2HashWithSeparator: (inputs: readonly bigint[], separator: number | bigint) => bigint =
  kernel.poseidon2HashWithSeparator;
/** The Poseidon2 permutation on a 4-element state; returns a new array. */
export const poseidon2Permutation: (state: readonly bigint[]) => bigint[] = kernel.poseidon2Permutation;
/** The process-wide default Hasher. */
export const defaultHasher: Hasher = new kernel.WasmPoseidon2Hasher();
