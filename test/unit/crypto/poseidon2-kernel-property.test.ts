/**
 * Property tests of both Poseidon2 kernel variants (SIMD and scalar, poseidon2-kernel.ts) against the
 * BigInt reference: random states and inputs from fast-check, weighted towards the values the lazy
 * reduction is bounded for — canonical values near p, values in [p, 2^256) that the kernel reduces
 * itself (up to ~5.3p entering to_mont), zero, and limb patterns of all ones (29-bit limbs at their
 * maximum, the largest column sums in a product).
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { FIELD_MODULUS as P, toFieldHex } from '../../../src/impl/crypto/field.ts';
import * as ref from '../../../src/impl/crypto/poseidon2.ts';
import { createFastPoseidon2 } from '../../../src/impl/crypto/poseidon2-wasm.ts';
import { treesVectors as V } from './vectors.ts';

const TWO_256 = 1n << 256n;
const LIMB_ONES = (1n << 29n) - 1n;

/** A value the reference takes as it is: canonical, or below 2^256 (reduced mod p by both sides). */
const edgeValue = fc.oneof(
  { weight: 3, arbitrary: fc.bigInt({ min: 0n, max: P - 1n }) },
  { weight: 2, arbitrary: fc.bigInt({ min: P - 1000n, max: P - 1n }) },
  { weight: 2, arbitrary: fc.bigInt({ min: P, max: TWO_256 - 1n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: TWO_256 - 1000n, max: TWO_256 - 1n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 1000n }) },
  // Runs of all-ones 29-bit limbs, below p and below 2^256.
  {
    weight: 1,
    arbitrary: fc
      .array(fc.boolean(), { minLength: 9, maxLength: 9 })
      .map((ones) => ones.reduce((x, one, j) => (one ? x | (LIMB_ONES << BigInt(29 * j)) : x), 0n) % TWO_256),
  },
  { weight: 1, arbitrary: fc.constantFrom(0n, 1n, P - 1n, P, P + 1n, TWO_256 - 1n, (1n << 255n) - 1n) },
);
const canonical = (x: bigint): bigint => x % P;

for (const variant of ['simd', 'scalar'] as const) {
  const fast = createFastPoseidon2(variant);

  test(`${variant} kernel: trees.json vectors`, () => {
    assert.deepEqual(
      fast.poseidon2Permutation(V.poseidon2Permutation.input.map(BigInt)).map(toFieldHex),
      V.poseidon2Permutation.output,
    );
    for (const c of V.poseidon2Hash) assert.equal(toFieldHex(fast.poseidon2Hash(c.inputs.map(BigInt))), c.output);
    for (const c of V.poseidon2HashWithSeparator)
      assert.equal(toFieldHex(fast.poseidon2HashWithSeparator(c.inputs.map(BigInt), c.separator)), c.output);
  });

  test(`${variant} kernel: the permutation equals the reference on random edge-weighted states`, () => {
    fc.assert(
      fc.property(fc.array(edgeValue, { minLength: 4, maxLength: 4 }), (state) => {
        assert.deepEqual(fast.poseidon2Permutation(state), ref.poseidon2PermutationReference(state.map(canonical)));
      }),
      { numRuns: 300, seed: 21 },
    );
  });

  test(`${variant} kernel: the sponge equals the reference on random edge-weighted inputs of any length`, () => {
    fc.assert(
      fc.property(fc.array(edgeValue, { maxLength: 40 }), (xs) => {
        assert.equal(fast.poseidon2Hash(xs), ref.poseidon2HashReference(xs.map(canonical)));
      }),
      { numRuns: 200, seed: 22 },
    );
  });

  test(`${variant} kernel: pair batches equal the reference pair by pair`, () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(edgeValue, edgeValue), { minLength: 1, maxLength: 20 }), (pairs) => {
        const out = fast.hashPairs(
          pairs.map((p) => p[0]),
          pairs.map((p) => p[1]),
        );
        for (const [i, [l, r]] of pairs.entries())
          assert.equal(out[i], ref.poseidon2HashReference([canonical(l), canonical(r)]));
      }),
      { numRuns: 100, seed: 23 },
    );
  });
}
