import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toFieldHex } from '../../../src/impl/crypto/field.ts';
import { ZERO_HASHES, emptyRoot } from '../../../src/impl/world-state/merkle.ts';
import {
  fromWireBlockHeader,
  fromWireCheckpointHeader,
  toWireBlockHeader,
} from '../../../src/impl/encoding/wire/headers.ts';
import {
  blockHeaderToBuffer,
  blockHeaderToFields,
  hashBlockHeader,
} from '../../../src/impl/world-state/block-header.ts';
import {
  checkpointHeaderToBuffer,
  emptyCheckpointHeader,
  hashCheckpointHeader,
} from '../../../src/impl/world-state/checkpoint-header.ts';
import { computePublicDataTreeLeafSlot, deriveStorageSlotInMap } from '../../../src/impl/world-state/slots.ts';
import { TreeId } from '../../../src/impl/world-state/constants.ts';
import { treesVectors as V } from '../crypto/vectors.ts';
import { memoryWorldState } from './helpers.ts';

const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

test('the zero-subtree ladder equals trees.json zeroHashes for heights 0..42', () => {
  assert.deepEqual(ZERO_HASHES.map(toFieldHex), V.zeroHashes.values);
});

test('empty roots at heights 30, 36, 40 and 42 equal trees.json emptyTreeRoots', () => {
  for (const [h, root] of Object.entries(V.emptyTreeRoots)) assert.equal(toFieldHex(emptyRoot(Number(h))), root);
});

test('a fresh world state reproduces the genesis roots, GENESIS_BLOCK_HEADER_HASH and GENESIS_ARCHIVE_ROOT', async () => {
  const { ws, db } = await memoryWorldState();
  const g = V.genesis;
  assert.equal(toFieldHex((await ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, 0)).root), g.nullifierTreeRoot);
  assert.equal(toFieldHex((await ws.getTreeSnapshot(TreeId.PUBLIC_DATA_TREE, 0)).root), g.publicDataTreeRoot);
  assert.equal(toFieldHex((await ws.getTreeSnapshot(TreeId.NOTE_HASH_TREE, 0)).root), g.noteHashTreeRoot);
  assert.equal(toFieldHex((await ws.getTreeSnapshot(TreeId.L1_TO_L2_MESSAGE_TREE, 0)).root), g.l1ToL2MessageTreeRoot);
  const status = await ws.getSyncStatus();
  assert.equal(status.latestBlockNumber, 0);
  assert.equal(toFieldHex(status.latestBlockHash), g.GENESIS_BLOCK_HEADER_HASH_constant);
  assert.equal(toFieldHex((await ws.getTreeSnapshot(TreeId.ARCHIVE, 'latest')).root), g.GENESIS_ARCHIVE_ROOT_constant);
  await db.destroy();
});

test('the genesis header JSON hashes to GENESIS_BLOCK_HEADER_HASH and round-trips through our JSON form', () => {
  const { _cachedHash, ...json } = V.genesis.genesisHeaderJson;
  const h = fromWireBlockHeader(json);
  assert.equal(toFieldHex(hashBlockHeader(h)), V.genesis.genesisBlockHeaderHash);
  assert.deepEqual(toWireBlockHeader(h), json);
  assert.deepEqual(_cachedHash, {});
});

test('the blockHeaderHash vector: 22 fields, 440-byte buffer and hash', () => {
  const h = fromWireBlockHeader(V.blockHeaderHash.headerJson);
  assert.deepEqual(blockHeaderToFields(h).map(toFieldHex), V.blockHeaderHash.fields);
  assert.equal(hex(blockHeaderToBuffer(h)), V.blockHeaderHash.bufferHex);
  assert.equal(toFieldHex(hashBlockHeader(h)), V.blockHeaderHash.hash);
});

test('the archive scenario headers hash to their block hashes', () => {
  for (const s of V.archiveTreeScenario.steps)
    assert.equal(toFieldHex(hashBlockHeader(fromWireBlockHeader(s.headerJson))), s.blockHash);
});

test('the checkpoint header vector: buffer and sha256ToField hash; the empty header gives GENESIS_CHECKPOINT_HEADER_HASH', () => {
  const c = fromWireCheckpointHeader(V.checkpointHeaderHash.headerJson);
  assert.equal(hex(checkpointHeaderToBuffer(c)), V.checkpointHeaderHash.bufferHex);
  assert.equal(toFieldHex(hashCheckpointHeader(c)), V.checkpointHeaderHash.hash);
  assert.equal(hex(checkpointHeaderToBuffer(emptyCheckpointHeader())), V.checkpointHeaderHash.emptyBufferHex);
  assert.equal(toFieldHex(hashCheckpointHeader(emptyCheckpointHeader())), V.genesis.GENESIS_CHECKPOINT_HEADER_HASH);
});

test('public data leaf slots, map slots and fee-juice balance slots reproduce the derivation vectors', () => {
  for (const v of V.publicDataLeafSlot)
    assert.equal(toFieldHex(computePublicDataTreeLeafSlot(BigInt(v.contract), BigInt(v.storageSlot))), v.leafSlot);
  for (const v of V.deriveStorageSlotInMap)
    assert.equal(toFieldHex(deriveStorageSlotInMap(BigInt(v.mapSlot), BigInt(v.key))), v.slot);
  for (const v of V.feeJuiceBalance) {
    const slot = deriveStorageSlotInMap(BigInt(V.feeJuiceBalancesMapSlot), BigInt(v.feePayer));
    assert.equal(toFieldHex(slot), v.storageSlot);
    assert.equal(toFieldHex(computePublicDataTreeLeafSlot(BigInt(v.feeJuiceAddress), slot)), v.leafSlot);
  }
});
