import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { FIELD_MODULUS as P, toFieldHex } from '../../../src/impl/crypto/field.ts';
import * as ref from '../../../src/impl/crypto/poseidon2.ts';
import { preferredKernelVariant } from '../../../src/impl/crypto/poseidon2-kernel.ts';
import * as fast from '../../../src/impl/crypto/poseidon2-wasm.ts';
import { buildPoseidon2Wasm, WASM_PATHS } from '../../../src/impl/crypto/wasm/build.ts';
import { treesVectors as V } from './vectors.ts';

/** Deterministic 64-bit generator (splitmix64), so a failing case can be replayed. */
function rng(seed: bigint): () => bigint {
  let s = seed;
  return () => {
    s = BigInt.asUintN(64, s + 0x9e3779b97f4a7c15n);
    let z = s;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}

/** Field elements weighted towards the edges: 0, small, near p, all-ones limb patterns, uniform. */
function fieldGen(seed: bigint): () => bigint {
  const next = rng(seed);
  return () => {
    const r = next();
    const wide = ((next() << 192n) | (next() << 128n) | (next() << 64n) | next()) % P;
    switch (Number(r % 8n)) {
      case 0:
        return P - 1n - (r >> 58n);
      case 1:
        return r >> 40n;
      case 2:
        return (1n << BigInt(200 + Number(r % 54n))) - 1n;
      case 3:
        return 0n;
      default:
        return wide;
    }
  };
}

test('both committed kernels (SIMD and scalar) equal a fresh build from poseidon2-wat.ts', async () => {
  for (const variant of ['simd', 'scalar'] as const) {
    const fresh = await buildPoseidon2Wasm(variant);
    assert.ok(
      Buffer.from(fresh).equals(readFileSync(WASM_PATHS[variant])),
      `stale ${variant} kernel: run \`npm run build:wasm\``,
    );
  }
});

test('Node.js 24 runs the SIMD kernel (the scalar one is the fallback for engines without SIMD)', () => {
  assert.equal(preferredKernelVariant(), 'simd');
});

test('fast permutation reproduces the trees.json permutation vector', () => {
  const out = fast.poseidon2Permutation(V.poseidon2Permutation.input.map(BigInt));
  assert.deepEqual(out.map(toFieldHex), V.poseidon2Permutation.output);
});

test('fast poseidon2Hash reproduces every trees.json poseidon2Hash vector', () => {
  assert.ok(V.poseidon2Hash.length > 0);
  for (const c of V.poseidon2Hash) assert.equal(toFieldHex(fast.poseidon2Hash(c.inputs.map(BigInt))), c.output);
});

test('fast poseidon2HashWithSeparator reproduces every trees.json vector', () => {
  assert.ok(V.poseidon2HashWithSeparator.length > 0);
  for (const c of V.poseidon2HashWithSeparator) {
    assert.equal(toFieldHex(fast.poseidon2HashWithSeparator(c.inputs.map(BigInt), c.separator)), c.output);
    assert.equal(toFieldHex(fast.poseidon2HashWithSeparator(c.inputs.map(BigInt), BigInt(c.separator))), c.output);
  }
});

test('fast hashPair agrees with the BigInt reference on 3000 random pairs, edges included', () => {
  const gen = fieldGen(1n);
  for (let i = 0; i < 3000; i++) {
    const l = gen(),
      r = gen();
    assert.equal(fast.hashPair(l, r), ref.poseidon2HashReference([l, r]), `pair ${i}: ${l}, ${r}`);
  }
});

test('fast permutation agrees with the reference on 500 random states', () => {
  const gen = fieldGen(2n);
  for (let i = 0; i < 500; i++) {
    const s = [gen(), gen(), gen(), gen()];
    assert.deepEqual(fast.poseidon2Permutation(s), ref.poseidon2PermutationReference(s), `state ${i}`);
  }
});

test('fast poseidon2Hash agrees with the reference for every length 0..50 (10 inputs each)', () => {
  const gen = fieldGen(3n);
  for (let n = 0; n <= 50; n++) {
    for (let k = 0; k < 10; k++) {
      const xs = Array.from({ length: n }, gen);
      assert.equal(fast.poseidon2Hash(xs), ref.poseidon2HashReference(xs), `length ${n}, case ${k}`);
      if (k < 2) assert.equal(fast.poseidon2HashWithSeparator(xs, k), ref.poseidon2HashWithSeparatorReference(xs, k));
    }
  }
});

test('fast poseidon2Hash agrees with the reference on long inputs (2999, 3000, 3001 fields)', () => {
  const gen = fieldGen(4n);
  for (const n of [2999, 3000, 3001]) {
    const xs = Array.from({ length: n }, gen);
    assert.equal(fast.poseidon2Hash(xs), ref.poseidon2HashReference(xs), `length ${n}`);
  }
});

test('all-(p-1) inputs, the largest canonical values, agree with the reference', () => {
  for (const n of [1, 2, 3, 4, 5, 6, 100]) {
    const xs = Array.from({ length: n }, () => P - 1n);
    assert.equal(fast.poseidon2Hash(xs), ref.poseidon2HashReference(xs), `length ${n}`);
  }
  assert.deepEqual(
    fast.poseidon2Permutation([P - 1n, P - 1n, P - 1n, P - 1n]),
    ref.poseidon2PermutationReference([P - 1n, P - 1n, P - 1n, P - 1n]),
  );
});

test('inputs outside [0, p) are reduced mod p as the reference does', () => {
  const xs = [P, P + 5n, (1n << 256n) - 1n, 1n << 300n, -1n];
  const canonical = xs.map((x) => ((x % P) + P) % P);
  assert.equal(fast.poseidon2Hash(xs), ref.poseidon2HashReference(canonical));
  assert.equal(fast.hashPair(P + 1n, (1n << 256n) - 1n), ref.poseidon2HashReference([1n, ((1n << 256n) - 1n) % P]));
});

test('hashPairs fills the given output array across chunk boundaries, reusing it', () => {
  const gen = fieldGen(5n);
  const n = 4096 + 37;
  const lefts = Array.from({ length: n }, gen);
  const rights = Array.from({ length: n }, gen);
  const out: bigint[] = [1n, 2n];
  const same = fast.hashPairs(lefts, rights, out);
  assert.equal(same, out);
  assert.equal(out.length, n);
  for (let i = 0; i < n; i += 97)
    assert.equal(out[i], ref.poseidon2HashReference([lefts[i]!, rights[i]!]), `pair ${i}`);
  assert.equal(out[n - 1], ref.poseidon2HashReference([lefts[n - 1]!, rights[n - 1]!]));
  assert.equal(out[4096], ref.poseidon2HashReference([lefts[4096]!, rights[4096]!]));
  fast.hashPairs(lefts.slice(0, 3), rights.slice(0, 3), out);
  assert.equal(out.length, 3);
  assert.deepEqual(fast.hashPairs([], []), []);
});

test('hashPairs refuses lefts and rights of different lengths', () => {
  assert.throws(() => fast.hashPairs([1n], []), RangeError);
});

test('a long hash between pair hashes does not disturb either (shared memory is reused safely)', () => {
  const gen = fieldGen(6n);
  const long = Array.from({ length: 5000 }, gen);
  const before = fast.hashPair(7n, 8n);
  assert.equal(fast.poseidon2Hash(long), ref.poseidon2HashReference(long));
  assert.equal(fast.hashPair(7n, 8n), before);
  assert.equal(before, ref.poseidon2HashReference([7n, 8n]));
});

test('WasmPoseidon2Hasher implements the Hasher seam like the BigInt hasher', () => {
  const h = new fast.WasmPoseidon2Hasher();
  const b = new ref.BigIntPoseidon2Hasher();
  const pairs: [bigint, bigint][] = [
    [1n, 2n],
    [P - 1n, 0n],
    [123n, 456n],
  ];
  assert.deepEqual(h.hashPairs(pairs), b.hashPairs(pairs));
  assert.equal(h.hashPair(5n, 6n), b.hashPair(5n, 6n));
  assert.equal(h.hash([1n, 2n, 3n, 4n]), b.hash([1n, 2n, 3n, 4n]));
});

test('the permutation refuses a state that is not 4 elements wide', () => {
  assert.throws(() => fast.poseidon2Permutation([1n, 2n, 3n]), RangeError);
});

test('the BigInt reference (the oracle above) reproduces the trees.json vectors itself', () => {
  assert.deepEqual(
    ref.poseidon2PermutationReference(V.poseidon2Permutation.input.map(BigInt)).map(toFieldHex),
    V.poseidon2Permutation.output,
  );
  for (const c of V.poseidon2Hash) assert.equal(toFieldHex(ref.poseidon2HashReference(c.inputs.map(BigInt))), c.output);
  for (const c of V.poseidon2HashWithSeparator)
    assert.equal(toFieldHex(ref.poseidon2HashWithSeparatorReference(c.inputs.map(BigInt), c.separator)), c.output);
});

test('the default exports of poseidon2.ts run on the WebAssembly kernel', () => {
  assert.equal(ref.poseidon2Hash, fast.poseidon2Hash);
  assert.equal(ref.poseidon2HashWithSeparator, fast.poseidon2HashWithSeparator);
  assert.equal(ref.poseidon2Permutation, fast.poseidon2Permutation);
  assert.ok(ref.defaultHasher instanceof fast.WasmPoseidon2Hasher);
});
