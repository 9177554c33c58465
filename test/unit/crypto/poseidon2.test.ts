import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  poseidon2Permutation,
  poseidon2Hash,
  poseidon2HashWithSeparator,
  defaultHasher,
} from '../../../src/impl/crypto/poseidon2.ts';
import { toFieldHex, FIELD_MODULUS } from '../../../src/impl/crypto/field.ts';
import { poseidon2Hash as baselineHash } from '@zkpassport/poseidon2';
import { treesVectors as V } from './vectors.ts';

test('the permutation reproduces the trees.json permutation vector', () => {
  const out = poseidon2Permutation(V.poseidon2Permutation.input.map(BigInt));
  assert.deepEqual(out.map(toFieldHex), V.poseidon2Permutation.output);
});

for (const c of V.poseidon2Hash) {
  test(`poseidon2Hash of ${c.inputs.length} input(s) reproduces ${c.output.slice(0, 10)}…`, () => {
    assert.equal(toFieldHex(poseidon2Hash(c.inputs.map(BigInt))), c.output);
  });
}

for (const c of V.poseidon2HashWithSeparator) {
  test(`poseidon2HashWithSeparator(separator ${c.separator}, ${c.inputs.length} inputs) reproduces the vector`, () => {
    assert.equal(toFieldHex(poseidon2HashWithSeparator(c.inputs.map(BigInt), c.separator)), c.output);
    assert.equal(
      poseidon2HashWithSeparator(c.inputs.map(BigInt), BigInt(c.separator)),
      poseidon2Hash([BigInt(c.separator), ...c.inputs.map(BigInt)]),
    );
  });
}

test('the permutation refuses a state that is not 4 elements wide', () => {
  assert.throws(() => poseidon2Permutation([1n, 2n, 3n]), RangeError);
});

test('the default Hasher agrees with poseidon2Hash and with the independent @zkpassport baseline', () => {
  let x = 0x1234567n;
  for (let i = 0; i < 20; i++) {
    const l = (x * 0x9e3779b97f4a7c15n + BigInt(i)) % FIELD_MODULUS;
    const r = (l * l + 17n) % FIELD_MODULUS;
    x = r;
    assert.equal(defaultHasher.hashPair(l, r), poseidon2Hash([l, r]));
    assert.equal(defaultHasher.hashPair(l, r), baselineHash([l, r]));
    const many = [l, r, x, 5n, 6n].slice(0, 1 + (i % 5));
    assert.equal(defaultHasher.hash(many), baselineHash(many));
  }
});

test('hashPairs hashes each pair in order', () => {
  const pairs: [bigint, bigint][] = [
    [1n, 2n],
    [3n, 4n],
    [0n, 0n],
  ];
  assert.deepEqual(
    defaultHasher.hashPairs(pairs),
    pairs.map(([a, b]) => poseidon2Hash([a, b])),
  );
});
