import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIELD_MODULUS } from '../../../src/impl/crypto/field.ts';
import { defaultHasher } from '../../../src/impl/crypto/poseidon2.ts';
import { TreeId } from '../../../src/impl/world-state/constants.ts';
import { BlockNotRetained, BlockNotYetSynced, LeafIndexOutOfRange } from '../../../src/impl/world-state/errors.ts';
import { indexedLeafHash } from '../../../src/impl/world-state/indexed-overlay.ts';
import { rootFromPath } from '../../../src/impl/world-state/merkle.ts';
import type { WorldStateBlock } from '../../../src/impl/world-state/types.ts';
import { BlockRejectedError } from '../../../src/impl/world-state/world-state.ts';
import { headerFromState, memoryWorldState, tx } from './helpers.ts';

/** Deterministic pseudo-random field elements (xorshift over 64-bit words). */
function rng(seed: bigint): () => bigint {
  let s = seed;
  const word = () => {
    s ^= (s << 13n) & 0xffffffffffffffffn;
    s ^= s >> 7n;
    s ^= (s << 17n) & 0xffffffffffffffffn;
    return s;
  };
  return () => ((word() << 192n) | (word() << 128n) | (word() << 64n) | word()) % FIELD_MODULUS;
}

function randomBlocks(count: number, seed: bigint): WorldStateBlock[] {
  const r = rng(seed);
  const slots = [r(), r(), r()];
  return Array.from({ length: count }, (_, b) => ({
    blockNumber: b + 1,
    txEffects: Array.from({ length: 1 + (b % 2) }, (_, t) =>
      tx({
        noteHashes: Array.from({ length: 1 + ((b + t) % 5) }, r),
        nullifiers: Array.from({ length: 1 + ((b * 3 + t) % 4) }, r),
        publicDataWrites: [
          { leafSlot: slots[(b + t) % 3]!, value: r() },
          { leafSlot: r(), value: r() },
        ],
      }),
    ),
    l1ToL2Messages: b % 2 === 0 ? [r(), r()] : undefined,
    header: headerFromState,
  }));
}

test("every path and witness returned at every block folds back into that block's root", async () => {
  const { ws, db } = await memoryWorldState();
  const blocks = randomBlocks(4, 0x5eedn);
  for (const b of blocks) await ws.applyBlock(b);
  for (let block = 0; block <= blocks.length; block++) {
    for (const treeId of [TreeId.NOTE_HASH_TREE, TreeId.L1_TO_L2_MESSAGE_TREE]) {
      // The last leaf of these trees is zero padding, so its path must fold an empty leaf into the root.
      const snap = await ws.getTreeSnapshot(treeId, block);
      if (snap.nextAvailableLeafIndex === 0) continue;
      const last = BigInt(snap.nextAvailableLeafIndex - 1);
      assert.equal(rootFromPath(0n, last, await ws.getSiblingPath(treeId, last, block)), snap.root);
    }
    const upTo = blocks.slice(0, block);
    for (const n of upTo.flatMap((b) => b.txEffects.flatMap((t) => t.nullifiers))) {
      const w = await ws.getNullifierMembershipWitness(block, n);
      assert.ok(w, 'inserted nullifier has a witness');
      const root = (await ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, block)).root;
      assert.equal(
        rootFromPath(indexedLeafHash(TreeId.NULLIFIER_TREE, w.leaf, defaultHasher), w.index, w.siblingPath),
        root,
      );
    }
    for (const n of blocks.slice(block).flatMap((b) => b.txEffects.flatMap((t) => t.nullifiers))) {
      assert.equal(
        await ws.getNullifierMembershipWitness(block, n),
        null,
        'later nullifier is absent at an earlier block',
      );
      const low = await ws.getLowNullifierMembershipWitness(block, n);
      assert.equal(low.alreadyPresent, false);
      assert.ok(low.leaf.key < n && (low.leaf.nextKey === 0n || low.leaf.nextKey > n), 'low leaf brackets the value');
      const root = (await ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, block)).root;
      assert.equal(
        rootFromPath(indexedLeafHash(TreeId.NULLIFIER_TREE, low.leaf, defaultHasher), low.index, low.siblingPath),
        root,
      );
    }
    for (const h of upTo.flatMap((b) => b.txEffects.flatMap((t) => t.noteHashes))) {
      const w = await ws.getNoteHashMembershipWitness(block, h);
      assert.ok(w);
      assert.equal(
        rootFromPath(h, w.leafIndex, w.siblingPath),
        (await ws.getTreeSnapshot(TreeId.NOTE_HASH_TREE, block)).root,
      );
    }
    for (const wr of upTo.flatMap((b) => b.txEffects.flatMap((t) => t.publicDataWrites))) {
      const w = await ws.getPublicDataWitness(block, wr.leafSlot);
      assert.equal(w.alreadyPresent, true);
      assert.equal(
        rootFromPath(indexedLeafHash(TreeId.PUBLIC_DATA_TREE, w.leaf, defaultHasher), w.index, w.siblingPath),
        (await ws.getTreeSnapshot(TreeId.PUBLIC_DATA_TREE, block)).root,
      );
    }
    const bh = (await ws.getBlockHash(block))!;
    const aw = await ws.getBlockHashMembershipWitness(block, bh);
    assert.ok(aw);
    assert.equal(aw.leafIndex, BigInt(block));
    assert.equal(
      rootFromPath(bh, aw.leafIndex, aw.siblingPath),
      (await ws.getTreeSnapshot(TreeId.ARCHIVE, block)).root,
    );
  }
  await db.destroy();
});

test('unwinding then re-applying the same blocks gives the same roots, and unwound data is gone', async () => {
  const { ws, db } = await memoryWorldState();
  const blocks = randomBlocks(3, 0xabcn);
  const roots: string[] = [];
  for (const b of blocks)
    roots.push(JSON.stringify(await ws.applyBlock(b), (_, v) => (typeof v === 'bigint' ? v.toString() : v)));
  const lastNullifier = blocks[2]!.txEffects[0]!.nullifiers[0]!;
  await ws.unwindTo(1);
  assert.equal((await ws.getSyncStatus()).latestBlockNumber, 1);
  await assert.rejects(ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, 2), BlockNotYetSynced);
  assert.equal(await ws.getNullifierMembershipWitness('latest', lastNullifier), null);
  for (const b of blocks.slice(1))
    roots.push(JSON.stringify(await ws.applyBlock(b), (_, v) => (typeof v === 'bigint' ? v.toString() : v)));
  assert.deepEqual(roots.slice(3), roots.slice(1, 3));
  await db.destroy();
});

test('public storage reads return the value as of the queried block and 0 for a slot never written', async () => {
  const { ws, db } = await memoryWorldState();
  const { computePublicDataTreeLeafSlot } = await import('../../../src/impl/world-state/slots.ts');
  const slot = computePublicDataTreeLeafSlot(0x1234n, 1n);
  await ws.applyBlock({
    blockNumber: 1,
    txEffects: [tx({ publicDataWrites: [{ leafSlot: slot, value: 100n }] })],
    header: headerFromState,
  });
  await ws.applyBlock({
    blockNumber: 2,
    txEffects: [tx({ publicDataWrites: [{ leafSlot: slot, value: 222n }] })],
    header: headerFromState,
  });
  assert.equal(await ws.getPublicStorageAt(0, 0x1234n, 1n), 0n);
  assert.equal(await ws.getPublicStorageAt(1, 0x1234n, 1n), 100n);
  assert.equal(await ws.getPublicStorageAt('latest', 0x1234n, 1n), 222n);
  assert.equal(await ws.getPublicStorageAt('latest', 0x1234n, 2n), 0n);
  await db.destroy();
});

test('findLeafIndices reports the index and the block number and hash where each value was inserted', async () => {
  const { ws, db } = await memoryWorldState();
  const applied = await ws.applyBlock({
    blockNumber: 1,
    txEffects: [tx({ noteHashes: [7n, 8n], nullifiers: [1000n] })],
    header: headerFromState,
  });
  const found = await ws.findLeafIndices(TreeId.NOTE_HASH_TREE, [8n, 9n], 'latest');
  assert.deepEqual(found, [{ leafIndex: 1n, blockNumber: 1, blockHash: applied.blockHash }, null]);
  const nf = await ws.findLeafIndices(TreeId.NULLIFIER_TREE, [1000n, 5n], 1);
  assert.deepEqual(
    nf.map((x) => x && [x.leafIndex, x.blockNumber]),
    [
      [128n, 1],
      [5n, 0],
    ],
  );
  assert.deepEqual(await ws.findLeafIndices(TreeId.NOTE_HASH_TREE, [8n], 0), [null]);
  await db.destroy();
});

test('bad requests are domain errors: out-of-range leaf index, block above the tip, wrong block number, duplicate nullifier, mismatching header', async () => {
  const { ws, db } = await memoryWorldState();
  await assert.rejects(ws.getSiblingPath(TreeId.NOTE_HASH_TREE, 0n, 0), LeafIndexOutOfRange);
  await assert.rejects(ws.getSiblingPath(TreeId.NULLIFIER_TREE, 128n, 0), LeafIndexOutOfRange);
  await assert.rejects(ws.getSiblingPath(TreeId.NULLIFIER_TREE, -1n, 0), LeafIndexOutOfRange);
  await assert.rejects(ws.getSiblingPath(TreeId.NULLIFIER_TREE, 0n, 5), BlockNotYetSynced);
  await assert.rejects(ws.applyBlock({ blockNumber: 2, txEffects: [], header: headerFromState }), BlockRejectedError);
  await assert.rejects(
    ws.applyBlock({ blockNumber: 1, txEffects: [tx({ nullifiers: [5n] })], header: headerFromState }),
    /already exists/,
  );
  const { emptyBlockHeader } = await import('../../../src/impl/world-state/block-header.ts');
  const genesisState = await ws.getTreeSnapshot(TreeId.NOTE_HASH_TREE, 0);
  const bogus = emptyBlockHeader({
    l1ToL2MessageTree: genesisState,
    noteHashTree: genesisState,
    nullifierTree: genesisState,
    publicDataTree: genesisState,
  });
  await assert.rejects(
    ws.applyBlock({ blockNumber: 1, txEffects: [tx({ noteHashes: [1n] })], header: bogus }),
    BlockRejectedError,
  );
  assert.equal((await ws.getSyncStatus()).latestBlockNumber, 0, 'rejected blocks leave the state unchanged');
  await db.destroy();
});

test('history below the oldest block held is BLOCK_NOT_RETAINED, the bound the sync status reports', async () => {
  const { ws, db } = await memoryWorldState();
  for (const b of randomBlocks(3, 7n)) await ws.applyBlock({ ...b, header: headerFromState });
  // This node keeps every block's rows: the oldest block held is genesis, and every block answers.
  assert.equal((await ws.getSyncStatus()).oldestHistoricBlockNumber, 0);
  assert.ok(await ws.getTreeSnapshot(TreeId.NOTE_HASH_TREE, 0));
  // A world state holding history from block 2 on (the rule does not depend on why).
  Object.defineProperty(ws, 'oldestHistoricBlockNumber', { value: 2 });
  assert.equal((await ws.getSyncStatus()).oldestHistoricBlockNumber, 2);
  await assert.rejects(ws.getSiblingPath(TreeId.NOTE_HASH_TREE, 0n, 1), (e: unknown) => {
    assert.ok(e instanceof BlockNotRetained);
    assert.deepEqual(e.compared, { requested: 1, oldestAvailable: 2 });
    return true;
  });
  await assert.rejects(ws.getPublicStorageAt(0, 1n, 1n), BlockNotRetained);
  assert.ok(await ws.getTreeSnapshot(TreeId.NOTE_HASH_TREE, 2));
  assert.ok(await ws.getTreeSnapshot(TreeId.NOTE_HASH_TREE, 'latest'));
  await db.destroy();
});
