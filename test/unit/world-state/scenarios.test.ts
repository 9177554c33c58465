import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toFieldHex } from '../../../src/impl/crypto/field.ts';
import { TreeId } from '../../../src/impl/world-state/constants.ts';
import { fromWireBlockHeader } from '../../../src/impl/encoding/wire/headers.ts';
import {
  membershipWitnessToWire,
  nullifierWitnessToWire,
  publicDataWitnessToWire,
  siblingPathToHexList,
  siblingPathToWire,
} from '../../../src/impl/encoding/wire/witnesses.ts';
import { treesVectors as V } from '../crypto/vectors.ts';
import { big, headerFromState, memoryWorldState, tx } from './helpers.ts';

test('nullifier scenario: one padded batch gives the vector root, membership and low-nullifier witness JSON byte for byte', async () => {
  const s = V.nullifierTreeScenario;
  const { ws, db } = await memoryWorldState();
  await ws.applyBlock({
    blockNumber: 1,
    txEffects: [tx({ nullifiers: big(s.insertedNullifiers) })],
    header: headerFromState,
  });
  const snap = await ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, 1);
  assert.deepEqual(
    { root: toFieldHex(snap.root), nextAvailableLeafIndex: snap.nextAvailableLeafIndex },
    s.snapshotAfter,
  );
  const m = await ws.getNullifierMembershipWitness(1, BigInt(s.membershipWitness.nullifier));
  assert.ok(m);
  assert.equal(JSON.stringify(nullifierWitnessToWire(m)), JSON.stringify(s.membershipWitness.wire));
  const low = await ws.getLowNullifierMembershipWitness(1, BigInt(s.lowNullifierWitness.forValue));
  assert.equal(low.alreadyPresent, s.lowNullifierWitness.alreadyPresent);
  assert.equal(JSON.stringify(nullifierWitnessToWire(low)), JSON.stringify(s.lowNullifierWitness.wire));
  for (const key of Object.keys(s).filter((k) => /^low/.test(k) && k !== 'lowNullifierWitness')) {
    const w = s[key];
    const got = await ws.getLowNullifierMembershipWitness(1, BigInt(w.forValue));
    assert.equal(JSON.stringify(nullifierWitnessToWire(got)), JSON.stringify(w.wire), key);
  }
  assert.equal(await ws.getNullifierMembershipWitness(1, BigInt(s.lowNullifierWitness.forValue)), null);
  await db.destroy();
});

test('note hash scenario: 4 note hashes padded to 64 give the vector root, sibling path and MembershipWitness base64', async () => {
  const s = V.noteHashTreeScenario;
  const { ws, db } = await memoryWorldState();
  await ws.applyBlock({ blockNumber: 1, txEffects: [tx({ noteHashes: big(s.appended) })], header: headerFromState });
  const snap = await ws.getTreeSnapshot(TreeId.NOTE_HASH_TREE, 1);
  assert.deepEqual(
    { root: toFieldHex(snap.root), nextAvailableLeafIndex: snap.nextAvailableLeafIndex },
    s.snapshotAfter,
  );
  const path = await ws.getSiblingPath(TreeId.NOTE_HASH_TREE, BigInt(s.leafIndex), 1);
  assert.equal(siblingPathToWire(path), s.siblingPathWire);
  if (s.siblingPathHex) assert.deepEqual(siblingPathToHexList(path), s.siblingPathHex);
  const w = await ws.getNoteHashMembershipWitness(1, BigInt(s.appended[Number(s.leafIndex)]));
  assert.ok(w);
  assert.equal(membershipWitnessToWire(w), s.membershipWitnessWire);
  await db.destroy();
});

test('public data scenario: sequential inserts and an update give each step root and the witness JSON byte for byte', async () => {
  const s = V.publicDataTreeScenario;
  const { ws, db } = await memoryWorldState();
  let block = 0;
  for (const step of s.steps) {
    block++;
    await ws.applyBlock({
      blockNumber: block,
      txEffects: [tx({ publicDataWrites: [{ leafSlot: BigInt(step.leafSlot), value: BigInt(step.value) }] })],
      header: headerFromState,
    });
    const snap = await ws.getTreeSnapshot(TreeId.PUBLIC_DATA_TREE, block);
    assert.equal(toFieldHex(snap.root), step.rootAfter, `step ${block} (${step.kind})`);
    assert.equal(snap.nextAvailableLeafIndex, step.nextAvailableLeafIndexAfter);
  }
  for (const w of [s.witnessExisting, s.witnessMissing]) {
    const got = await ws.getPublicDataWitness('latest', BigInt(w.leafSlot));
    assert.equal(got.alreadyPresent, w.alreadyPresent);
    assert.equal(JSON.stringify(publicDataWitnessToWire(got)), JSON.stringify(w.wire));
  }
  await db.destroy();
});

test('archive scenario: appending the three header hashes gives each root and the leaf-2 MembershipWitness', async () => {
  const s = V.archiveTreeScenario;
  const { ws, db } = await memoryWorldState();
  for (const step of s.steps) {
    const header = fromWireBlockHeader(step.headerJson);
    const applied = await ws.applyBlock({
      blockNumber: step.blockNumberLeafIndex,
      txEffects: [],
      header: () => header,
    });
    assert.equal(toFieldHex(applied.blockHash), step.blockHash);
    assert.equal(toFieldHex(applied.archive.root), step.rootAfter);
    assert.equal(applied.archive.nextAvailableLeafIndex, step.nextAvailableLeafIndexAfter);
  }
  const leaf2 = BigInt(s.steps.find((x: { blockNumberLeafIndex: number }) => x.blockNumberLeafIndex === 2).blockHash);
  const w = await ws.getBlockHashMembershipWitness('latest', leaf2);
  assert.ok(w);
  assert.equal(membershipWitnessToWire(w), s.membershipWitnessLeaf2Wire);
  assert.deepEqual(siblingPathToHexList(w.siblingPath), s.siblingPathLeaf2Hex);
  await db.destroy();
});
