/** Offense detection (inactivity, insufficient attestations), rounds, payloads and votes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NodeAdminConfigUpdate } from '../../../src/generated/admin/types.ts';
import { NodeConfig } from '../../../src/impl/node-config/node-config.ts';
import { Slasher } from '../../../src/impl/slashing/slasher.ts';
import { SlashingStore } from '../../../src/impl/slashing/slashing-store.ts';
import { createCommittees } from '../../../src/impl/validators/committee.ts';
import { ValidatorKeyring } from '../../../src/impl/validators/keyring.ts';
import { Sentinel } from '../../../src/impl/validators/sentinel.ts';
import { SlotRecordStore } from '../../../src/impl/validators/slot-record.ts';
import { memoryDb, tempDir, testAddress, testFeeRecipient, testKey, writeKeystore } from '../validators/helpers.ts';

const SLOTS_PER_EPOCH = 4;
const PENALTY = '10000000000000000000';
const set = [1, 2, 3, 4].map(testAddress);

async function world(ours: number[], startup: NodeAdminConfigUpdate = {}) {
  const db = memoryDb();
  const dir = tempDir();
  writeKeystore(
    dir,
    'k.json',
    ours.map((i) => ({ attester: testKey(i), feeRecipient: testFeeRecipient(i) })),
  );
  const keyring = ValidatorKeyring.open({ path: dir });
  const committees = createCommittees({ validatorSet: set, committeeSize: 4, slotsPerEpoch: SLOTS_PER_EPOCH });
  const record = await SlotRecordStore.open(db);
  const config = await NodeConfig.open(db, startup);
  let now = 0;
  const slasher = new Slasher({
    store: await SlashingStore.open(db),
    record,
    config: () => config.get(),
    ownValidators: () => keyring.attesters,
    slotsPerEpoch: SLOTS_PER_EPOCH,
    roundSizeInSlots: 8,
    slotStart: (s) => 1000n + 12n * BigInt(s),
    currentSlot: () => now,
  });
  const sentinel = new Sentinel({ committees, keyring, store: record, slotsPerEpoch: SLOTS_PER_EPOCH });
  sentinel.listen(slasher);
  /** Slots pass: our proposers build and mine, other proposers are offline. */
  const run = async (from: number, to: number) => {
    for (let s = from; s <= to; s++) {
      now = s;
      const proposer = committees.proposerOf(s)!;
      await sentinel.onSlot(
        keyring.get(proposer) ? { slot: s, proposal: { archive: BigInt(s), mined: true } } : { slot: s },
      );
      if ((s + 1) % SLOTS_PER_EPOCH === 0) await sentinel.onEpochProven(Math.floor(s / SLOTS_PER_EPOCH));
    }
  };
  return { db, config, slasher, committees, run, setNow: (s: number) => (now = s), close: () => db.destroy() };
}

describe('PROPOSED_INSUFFICIENT_ATTESTATIONS', () => {
  it('a mined checkpoint below the 2/3 + 1 quorum is an offense of its proposer at the slot', async () => {
    const w = await world([1], { slashInactivityPenalty: '0' });
    try {
      await w.run(0, 7);
      const minedSlots = [...Array(8).keys()].filter((s) => w.committees.proposerOf(s) === testAddress(1));
      assert.ok(minedSlots.length > 0, 'validator 1 proposes in the first 8 slots');
      assert.deepEqual(
        await w.slasher.offenses('0'),
        minedSlots.map((s) => ({ validator: testAddress(1), amount: PENALTY, offenseType: 5, epochOrSlot: String(s) })),
      );
    } finally {
      await w.close();
    }
  });

  it('no offense with a quorum of attestations', async () => {
    const w = await world([1, 2, 3], { slashInactivityPenalty: '0' });
    try {
      await w.run(0, 7);
      assert.deepEqual(await w.slasher.offenses('all'), []);
    } finally {
      await w.close();
    }
  });
});

describe('INACTIVITY', () => {
  it('needs the configured number of consecutive inactive epochs; active validators are not slashed', async () => {
    const w = await world([1, 2, 3], { slashInactivityConsecutiveEpochThreshold: 2 });
    try {
      await w.run(0, 3);
      assert.deepEqual(await w.slasher.offenses('0'), []);
      await w.run(4, 7);
      assert.deepEqual(await w.slasher.offenses('0'), [
        { validator: testAddress(4), amount: PENALTY, offenseType: 3, epochOrSlot: '1' },
      ]);
    } finally {
      await w.close();
    }
  });

  it('a "0" penalty disables the offense and the grace period skips early slots', async () => {
    const off = await world([1, 2, 3], { slashInactivityPenalty: '0' });
    const grace = await world([1, 2, 3], { slashGracePeriodL2Slots: 8 });
    try {
      await off.run(0, 7);
      await grace.run(0, 7);
      assert.deepEqual(await off.slasher.offenses('all'), []);
      assert.deepEqual(await grace.slasher.offenses('all'), []);
    } finally {
      await off.close();
      await grace.close();
    }
  });
});

describe('rounds and payloads', () => {
  it('current, all, a number, an unknown round', async () => {
    const w = await world([1, 2, 3]);
    try {
      await w.run(0, 11);
      const round0 = await w.slasher.offenses('0');
      assert.ok(round0.length > 0);
      assert.equal(w.slasher.currentRound, 1);
      assert.deepEqual(await w.slasher.offenses('current'), await w.slasher.offenses('1'));
      assert.deepEqual(await w.slasher.offenses('all'), [...round0, ...(await w.slasher.offenses('1'))]);
      assert.deepEqual(await w.slasher.offenses('99'), []);
      assert.deepEqual(await w.slasher.offenses('123456789012345678901234567890'), []);
    } finally {
      await w.close();
    }
  });

  it("round R pays the offenses of R − 1, leaves out our own validators and counts our proposers' votes", async () => {
    const w = await world([1, 2, 3], { slashInactivityConsecutiveEpochThreshold: 1 });
    try {
      await w.run(0, 15);
      const payloads = await w.slasher.currentPayloads();
      assert.equal(payloads.length, 1);
      const [p] = payloads;
      assert.equal(p!.round, '1');
      assert.match(p!.address, /^0x[0-9a-f]{40}$/);
      assert.deepEqual(p!.slashes, [
        {
          validator: testAddress(4),
          amount: String(2n * BigInt(PENALTY)),
          offenses: [
            { offenseType: 3, epochOrSlot: '0' },
            { offenseType: 3, epochOrSlot: '1' },
          ],
        },
      ]);
      const ourProposals = [...Array(8).keys()]
        .map((i) => i + 8)
        .filter((s) => w.committees.proposerOf(s) !== testAddress(4)).length;
      assert.equal(p!.votes, String(ourProposals));
    } finally {
      await w.close();
    }
  });

  it('slashMaxPayloadSize splits payloads; slashSelfAllowed includes our own; slashValidatorsNever excludes', async () => {
    const w = await world([1], {
      slashMaxPayloadSize: 1,
      slashSelfAllowed: true,
      slashValidatorsNever: [testAddress(2)],
    });
    try {
      await w.run(0, 8);
      const payloads = await w.slasher.currentPayloads();
      const slashed = payloads.flatMap((p) => p.slashes.map((s) => s.validator)).sort();
      assert.ok(payloads.every((p) => p.slashes.length === 1));
      assert.deepEqual(slashed, [testAddress(1), testAddress(3), testAddress(4)].sort());
    } finally {
      await w.close();
    }
  });
});
