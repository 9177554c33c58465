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
import { ALL_TREE_IDS } from '../../../src/impl/world-state/constants.ts';
import { headerFromState, memoryWorldState, tx } from '../world-state/helpers.ts';

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
  const plain = await memoryWorldState();
  const offThread = await memoryWorldState({ hasher: offThreadLevelHasher });
  try {
    for (let b = 1; b <= 3; b++) {
      const txs = Array.from({ length: 4 }, () =>
        tx({
          noteHashes: Array.from({ length: 40 }, gen),
          nullifiers: Array.from({ length: 30 }, gen),
          publicDataWrites: Array.from({ length: 5 }, () => ({ leafSlot: gen(), value: gen() })),
        }),
      );
      const block = { blockNumber: b, txEffects: txs, header: headerFromState };
      await plain.ws.applyBlock(block);
      await offThread.ws.applyBlock(block);
      for (const id of ALL_TREE_IDS) {
        assert.deepEqual(
          await offThread.ws.getTreeSnapshot(id, 'latest'),
          await plain.ws.getTreeSnapshot(id, 'latest'),
          `block ${b}, tree ${id}`,
        );
      }
    }
  } finally {
    await plain.db.destroy();
    await offThread.db.destroy();
  }
});
