/** Committees, proposers, real attestation signatures and the slot statuses the sentinel records. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hexToBytes } from '@noble/hashes/utils.js';
import type { Knex } from 'knex';
import { createCommittees, proposalDigest } from '../../../src/impl/validators/committee.ts';
import { ValidatorKeyring } from '../../../src/impl/validators/keyring.ts';
import { Sentinel } from '../../../src/impl/validators/sentinel.ts';
import { recoverSigner, signDigest } from '../../../src/impl/validators/signer.ts';
import { SlotRecordStore } from '../../../src/impl/validators/slot-record.ts';
import { memoryDb, tempDir, testAddress, testFeeRecipient, testKey, writeKeystore } from './helpers.ts';

const labels = [1, 2, 3, 4, 5, 6];
const set = labels.map(testAddress);

describe('committees', () => {
  const c = createCommittees({ validatorSet: set, committeeSize: 4, slotsPerEpoch: 4 });

  it('are deterministic, of the configured size, drawn from the set; the proposer is a member', () => {
    const again = createCommittees({ validatorSet: [...set].reverse(), committeeSize: 4, slotsPerEpoch: 4 });
    for (let epoch = 0; epoch < 20; epoch++) {
      const m = c.committeeOf(epoch);
      assert.equal(m.length, 4);
      assert.equal(new Set(m).size, 4);
      assert.ok(m.every((a) => set.includes(a)));
      assert.deepEqual(again.committeeOf(epoch), m);
      for (let s = epoch * 4; s < epoch * 4 + 4; s++) assert.ok(m.includes(c.proposerOf(s)!));
    }
  });

  it('rotate: over many epochs every validator sits in a committee and proposes', () => {
    const members = new Set<string>(),
      proposers = new Set<string>();
    for (let epoch = 0; epoch < 40; epoch++)
      c.committeeOf(epoch).forEach((a) => {
        members.add(a);
      });
    for (let s = 0; s < 160; s++) proposers.add(c.proposerOf(s)!);
    assert.equal(members.size, set.length);
    assert.equal(proposers.size, set.length);
  });

  it('a committee larger than the set is the whole set', () => {
    assert.equal(
      createCommittees({ validatorSet: set, committeeSize: 50, slotsPerEpoch: 4 }).committeeOf(3).length,
      set.length,
    );
  });
});

describe('sentinel', () => {
  let db: Knex;
  let store: SlotRecordStore;
  let sentinel: Sentinel;
  const committees = createCommittees({ validatorSet: set, committeeSize: 6, slotsPerEpoch: 4 });
  const ours = [1, 2, 3];

  before(async () => {
    db = memoryDb();
    store = await SlotRecordStore.open(db);
    const dir = tempDir();
    writeKeystore(
      dir,
      'k.json',
      ours.map((i) => ({ attester: testKey(i), feeRecipient: testFeeRecipient(i) })),
    );
    sentinel = new Sentinel({ committees, keyring: ValidatorKeyring.open({ path: dir }), store, slotsPerEpoch: 4 });
  });
  after(() => db.destroy());

  it('a mined checkpoint: our members attest with signatures that recover to them; the others missed', async () => {
    const r = (await sentinel.onSlot({ slot: 5, proposal: { archive: 77n, mined: true } }))!;
    const proposer = committees.proposerOf(5)!;
    assert.equal(r.proposer, proposer);
    assert.equal(r.proposerStatus, 'checkpoint-mined');
    const digest = proposalDigest(5, 77n, proposer);
    const stored = (await store.slot(5))!;
    assert.equal(stored.digest, `0x${Buffer.from(digest).toString('hex')}`);
    for (const e of stored.entries.filter((x) => x.validator !== proposer)) {
      const mine = ours.map(testAddress).includes(e.validator);
      assert.equal(e.status, mine ? 'attestation-sent' : 'attestation-missed', e.validator);
      if (mine) assert.equal(recoverSigner(digest, hexToBytes(e.signature!.slice(2))), e.validator);
      else assert.equal(e.signature, undefined);
    }
    assert.equal(stored.attestations, ours.length);
  });

  it('a received attestation counts when it recovers to a committee member; a forged one does not', async () => {
    const slot = 6;
    const proposer = committees.proposerOf(slot)!;
    const digest = proposalDigest(slot, 5n, proposer);
    const good = signDigest(digest, hexToBytes(testKey(4).slice(2)));
    const outsider = signDigest(digest, hexToBytes(testKey(99).slice(2)));
    const wrongDigest = signDigest(proposalDigest(slot, 6n, proposer), hexToBytes(testKey(5).slice(2)));
    const r = (await sentinel.onSlot({
      slot,
      proposal: { archive: 5n, mined: false },
      attestations: [good, outsider, wrongDigest],
    }))!;
    const status = (a: string) => r.entries.find((e) => e.validator === a)?.status;
    if (proposer !== testAddress(4)) assert.equal(status(testAddress(4)), 'attestation-sent');
    if (proposer !== testAddress(5)) assert.equal(status(testAddress(5)), 'attestation-missed');
    assert.equal(r.proposerStatus, 'checkpoint-proposed');
    assert.equal(status(testAddress(99)), undefined);
  });

  it('no proposal: blocks-missed (or checkpoint-missed when blocks were seen) and no attestation entries', async () => {
    const a = (await sentinel.onSlot({ slot: 8 }))!;
    assert.equal(a.proposerStatus, 'blocks-missed');
    assert.equal(a.entries.length, 1);
    const b = (await sentinel.onSlot({ slot: 9, blocksSeen: true }))!;
    assert.equal(b.proposerStatus, 'checkpoint-missed');
    assert.equal(b.entries.length, 1);
  });

  it('a proposal nobody else attested to is checkpoint-missed', async () => {
    const lonely = new Sentinel({ committees, keyring: ValidatorKeyring.open(), store, slotsPerEpoch: 4 });
    const r = (await lonely.onSlot({ slot: 10, proposal: { archive: 1n, mined: false } }))!;
    assert.equal(r.proposerStatus, 'checkpoint-missed');
    assert.equal(r.attestations, 0);
  });

  it('onEpochProven stores per-validator missed/total of the epoch', async () => {
    await sentinel.onEpochProven(2);
    const slot8 = committees.proposerOf(8)!;
    const perf = await store.provenPerformance(slot8);
    assert.ok(perf.some((p) => p.epoch === 2 && p.missed >= 1));
    for (const v of set) {
      const row = (await store.provenPerformance(v)).find((p) => p.epoch === 2);
      const entries = await store.entries(8, 11, v);
      if (entries.length === 0) assert.equal(row, undefined);
      else
        assert.deepEqual(
          { missed: row!.missed, total: row!.total },
          {
            missed: entries.filter((e) => e.status.endsWith('missed')).length,
            total: entries.length,
          },
        );
    }
  });
});
