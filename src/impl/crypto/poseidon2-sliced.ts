/**
 * Poseidon2 sponge hashes of long inputs computed in slices, giving the event loop back between
 * them: a tx carries up to 12 000 calldata fields (4 000 permutations, ~0.1 s), which one caller
 * must not hold every other client for (docs/OPERATIONS.md "Browser safety and hostile callers").
 * Same results as poseidon2Hash / poseidon2HashWithSeparator.
 * @module
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { FIELD_MODULUS } from './field.ts';
import { poseidon2Hash, poseidon2Permutation } from './poseidon2.ts';

/** Permutations per slice: ~1024 × 25 µs ≈ 25 ms; an ordinary tx (its ~930-permutation tx hash) is one slice. */
const PERMUTATIONS_PER_SLICE = 1024;
const RATE = 3;
const TWO_POW_64 = 1n << 64n;

/** poseidon2Hash(inputs), yielding to the event loop every PERMUTATIONS_PER_SLICE permutations. */
export async function poseidon2HashInSlices(inputs: readonly bigint[]): Promise<bigint> {
  const n = inputs.length;
  // A short input is one slice: no need for the slower permutation-by-permutation path.
  if (n <= RATE * PERMUTATIONS_PER_SLICE) return poseidon2Hash(inputs);
  let s: bigint[] = [0n, 0n, 0n, BigInt(n) * TWO_POW_64];
  let permutations = 0;
  // As the reference sponge: ceil(n/3) absorptions, the last chunk zero-padded.
  for (let i = 0; i < n; i += RATE) {
    for (let j = 0; j < RATE; j++) s[j] = (s[j]! + (i + j < n ? inputs[i + j]! : 0n)) % FIELD_MODULUS;
    s = poseidon2Permutation(s);
    if (++permutations % PERMUTATIONS_PER_SLICE === 0) await nextTurn();
  }
  return s[0]!;
}

/** poseidon2HashWithSeparator(inputs, separator) in slices. */
export function poseidon2HashWithSeparatorInSlices(
  inputs: readonly bigint[],
  separator: number | bigint,
): Promise<bigint> {
  return poseidon2HashInSlices([BigInt(separator), ...inputs]);
}
