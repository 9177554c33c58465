/** Keystore reload, validator stats and slashing through the admin and public ports. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir, testAddress, testFeeRecipient, testKey, writeKeystore } from '../unit/validators/helpers.ts';
import { call, startAdminNode, type AdminNode } from './admin-harness.ts';

const validatorSet = [1, 2, 3, 4].map(testAddress);
const entry = (i: number, publisher: string = testKey('pub')) => ({
  attester: testKey(i),
  publisher,
  feeRecipient: testFeeRecipient(i),
});
let keys: string;
let node: AdminNode;
before(async () => {
  keys = tempDir();
  writeKeystore(keys, 'keys.json', [entry(1), entry(2)]);
  node = await startAdminNode({ dataDirectory: tempDir(), validatorSet, keystore: keys });
  await node.passSlots(8);
});
after(() => node.close());

const stats = async (address: string, ...range: string[]) =>
  (await call(node.publicUrl, 'node_getValidatorStats', [address, ...range])).body;

describe('nodeAdmin_getSlashOffenses / nodeAdmin_getSlashPayloads', () => {
  it('records inactivity of the offline validators and insufficient attestations of our proposers', async () => {
    const offenses = (await call(node.adminUrl, 'nodeAdmin_getSlashOffenses', ['0'])).body.result as {
      validator: string;
      offenseType: number;
      epochOrSlot: string;
      amount: string;
    }[];
    const inactivity = offenses
      .filter((o) => o.offenseType === 3)
      .map((o) => `${o.validator}@${o.epochOrSlot}`)
      .sort();
    assert.deepEqual(
      inactivity,
      [`${testAddress(3)}@0`, `${testAddress(3)}@1`, `${testAddress(4)}@0`, `${testAddress(4)}@1`].sort(),
    );
    const ourProposals = [...Array(8).keys()]
      .map((i) => i + 1)
      .filter((s) => [testAddress(1), testAddress(2)].includes(node.committees.proposerOf(s)!));
    assert.deepEqual(
      offenses
        .filter((o) => o.offenseType === 5)
        .map((o) => Number(o.epochOrSlot))
        .sort((a, b) => a - b),
      ourProposals.filter((s) => s < 8),
    );
    assert.ok(offenses.every((o) => o.amount === '10000000000000000000'));
  });

  it('current and all; an unknown round is []; a malformed round is the documented -32602', async () => {
    const current = (await call(node.adminUrl, 'nodeAdmin_getSlashOffenses', ['current'])).body.result;
    const one = (await call(node.adminUrl, 'nodeAdmin_getSlashOffenses', ['1'])).body.result;
    assert.deepEqual(current, one);
    const all = (await call(node.adminUrl, 'nodeAdmin_getSlashOffenses', ['all'])).body.result;
    assert.equal(
      all.length,
      (await call(node.adminUrl, 'nodeAdmin_getSlashOffenses', ['0'])).body.result.length + one.length,
    );
    assert.deepEqual((await call(node.adminUrl, 'nodeAdmin_getSlashOffenses', ['4000'])).body.result, []);
    assert.deepEqual((await call(node.adminUrl, 'nodeAdmin_getSlashOffenses', ['latest'])).body.error, {
      code: -32602,
      message: 'params[0] (round): must match pattern "^(all|current|0|[1-9][0-9]*)$"',
      data: { param: 'round', index: 0, rule: 'must match pattern "^(all|current|0|[1-9][0-9]*)$"' },
    });
  });

  it("the current round's payload slashes the others (not our own validators) and carries our votes", async () => {
    const { body } = await call(node.adminUrl, 'nodeAdmin_getSlashPayloads');
    assert.equal(body.result.length, 1);
    const [p] = body.result;
    assert.equal(p.round, '1');
    assert.deepEqual(
      p.slashes.map((s: { validator: string }) => s.validator).sort(),
      [testAddress(3), testAddress(4)].sort(),
    );
    const votedSlots = [8].filter((s) =>
      [testAddress(1), testAddress(2)].includes(node.committees.proposerOf(s)!),
    ).length;
    assert.equal(p.votes, String(votedSlots));
  });
});

describe('nodeAdmin_reloadKeystore', () => {
  it('a new validator with an unknown publisher rejects the whole reload, naming it; keys unchanged', async () => {
    writeKeystore(keys, 'keys.json', [entry(1), entry(2), entry(3, testKey('new-pub'))]);
    const { body } = await call(node.adminUrl, 'nodeAdmin_reloadKeystore');
    assert.deepEqual(body.error, {
      code: -32050,
      message: 'Keystore reload rejected: UNKNOWN_PUBLISHER',
      data: {
        reason: 'UNKNOWN_PUBLISHER',
        detail: `publisher ${testAddress('new-pub')} was not initialized at startup`,
        validator: testAddress(3),
      },
    });
    assert.deepEqual(node.keyring.attesters, [testAddress(1), testAddress(2)]);
  });

  it('an unparsable file is INVALID_KEYSTORE naming the file, without any key in the answer', async () => {
    writeFileSync(join(keys, 'keys.json'), `{"validators":[{"attester":"${testKey(3)}",}]}`);
    const { body } = await call(node.adminUrl, 'nodeAdmin_reloadKeystore');
    assert.deepEqual(body.error, {
      code: -32050,
      message: 'Keystore reload rejected: INVALID_KEYSTORE',
      data: { reason: 'INVALID_KEYSTORE', detail: 'keys.json: not valid JSON' },
    });
    assert.ok(!JSON.stringify(body).includes(testKey(3).slice(2)));
  });

  it('adds a validator without restart; it then attests and shows in the stats as slots pass', async () => {
    const before = await stats(testAddress(3));
    assert.equal(before.result.validator.lastAttestation, undefined);
    assert.ok(before.result.validator.missedAttestations.count > 0);
    writeKeystore(keys, 'keys.json', [entry(1), entry(2), entry(3)]);
    assert.equal((await call(node.adminUrl, 'nodeAdmin_reloadKeystore')).body.result, null);
    const reloadedAt = node.slot;
    await node.passSlots(8);
    const after = (await stats(testAddress(3))).result.validator;
    assert.ok(after.lastAttestation.slot > reloadedAt);
    assert.ok(
      after.history.some(
        (h: { slot: number; status: string }) => h.slot > reloadedAt && h.status === 'attestation-sent',
      ),
    );
    assert.ok(
      after.history
        .filter((h: { slot: number }) => h.slot > reloadedAt)
        .every((h: { status: string }) => h.status !== 'attestation-missed'),
    );
    const all = (await call(node.publicUrl, 'node_getValidatorsStats')).body.result;
    assert.deepEqual(Object.keys(all.stats).sort(), [...validatorSet].sort());
    assert.equal(all.slotWindow, 96);
    assert.equal(all.lastProcessedSlot, node.slot);
  });

  it('removing a validator stops its attestations', async () => {
    writeKeystore(keys, 'keys.json', [entry(1), entry(2)]);
    assert.equal((await call(node.adminUrl, 'nodeAdmin_reloadKeystore')).body.result, null);
    const removedAt = node.slot;
    await node.passSlots(8);
    const v3 = (await stats(testAddress(3))).result.validator;
    const since = v3.history.filter((h: { slot: number }) => h.slot > removedAt);
    assert.ok(since.some((h: { status: string }) => h.status === 'attestation-missed'));
    assert.ok(since.every((h: { status: string }) => h.status !== 'attestation-sent'));
  });

  it('a node started without a keystore answers NO_KEYSTORE_DIRECTORY', async () => {
    const bare = await startAdminNode({ dataDirectory: tempDir(), validatorSet });
    try {
      assert.deepEqual((await call(bare.adminUrl, 'nodeAdmin_reloadKeystore')).body.error, {
        code: -32050,
        message: 'Keystore reload rejected: NO_KEYSTORE_DIRECTORY',
        data: { reason: 'NO_KEYSTORE_DIRECTORY' },
      });
    } finally {
      await bare.close();
    }
  });
});

describe('node_getValidatorStats over the public port', () => {
  it('range too wide and reversed ranges are the documented errors; unknown is null', async () => {
    assert.deepEqual((await stats(testAddress(1), '0', '10000')).error, {
      code: -32040,
      message: 'Slot range 0..10000 exceeds the slot window of 96',
      data: { fromSlot: '0', toSlot: '10000', maxSlots: 96 },
    });
    assert.deepEqual((await stats(testAddress(1), '44', '20')).error, {
      code: -32602,
      message: 'params[2] (toSlot): toSlot must be >= fromSlot',
      data: { param: 'toSlot', index: 2, rule: 'toSlot must be >= fromSlot' },
    });
    assert.equal((await stats('0x3d0c90ca51db3702cb3d3937ca6ad58b2307b3ef')).result, null);
  });
});
