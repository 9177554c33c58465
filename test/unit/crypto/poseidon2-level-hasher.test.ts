/**
 * The node's Merkle hasher (crypto/poseidon2-off-thread.ts, offThreadLevelHasher): large tree
 * levels as one sponge job on a worker of its own, small ones on the main thread — the same pair
 * hashes, and the same trees block after block as the default kernel.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIELD_MODULUS as P } from '../../../src/impl/crypto/field.ts';
import { defaultHasher } from '../../../src/impl/crypto/poseidon2.ts';
import { offThreadLevelHasher } from '../../../src/impl/crypto/poseidon2-off-thread.ts';
import { assertSameTreesAsDefault } from '../world-state/helpers.ts';

let seed = 11n;
const gen = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % (P - 1000n)) + 1000n;

test('pair hashes of levels below and above the off-thread threshold equal the kernel', async () => {
  for (const n of [1, 31, 32, 33, 200]) {
    const batch = Array.from({ length: n }, () => [gen(), gen()] as const);
    assert.deepEqual(await offThreadLevelHasher.hashPairsAsync!(batch), defaultHasher.hashPairs(batch), `${n} pairs`);
  }
  assert.deepEqual(await offThreadLevelHasher.hashPairsAsync!([[0n, 0n]]), [defaultHasher.hashPair(0n, 0n)]);
});

test('a world state hashing through it has the same trees, block after block, as the default one', async () => {
  await assertSameTreesAsDefault(offThreadLevelHasher, gen, 4);
});
