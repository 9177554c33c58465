/** Validator stats on synthetic records: statuses, streaks, rates, window, unknown → null, ranges (reference §6). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Knex } from 'knex';
import { toJsonRpcError } from '../../../src/impl/rpc/wire-errors.ts';
import { createValidatorHandlers, type ValidatorHandlers } from '../../../src/impl/validators/handlers.ts';
import { type SlotEntry, SlotRecordStore, type ValidatorStatus } from '../../../src/impl/validators/slot-record.ts';
import { missedStats, PROPOSER_STATUSES } from '../../../src/impl/validators/stats.ts';
import { memoryDb } from './helpers.ts';

const V = '0x' + '11'.repeat(20);
const W = '0x' + '22'.repeat(20);
const X = '0x' + '33'.repeat(20);
const slotStart = (slot: number) => 1_700_000_000n + BigInt(slot) * 12n;

let db: Knex;
let store: SlotRecordStore;
let h: ValidatorHandlers;

/** Statuses per slot: [validator, status][]; the first validator is the proposer. */
const plan: Record<number, [string, ValidatorStatus][]> = {
  1: [
    [W, 'checkpoint-mined'],
    [V, 'attestation-sent'],
  ],
  2: [
    [W, 'checkpoint-proposed'],
    [V, 'attestation-missed'],
  ],
  3: [
    [V, 'checkpoint-mined'],
    [W, 'attestation-sent'],
  ],
  4: [
    [W, 'checkpoint-mined'],
    [V, 'attestation-missed'],
  ],
  5: [
    [W, 'checkpoint-mined'],
    [V, 'attestation-missed'],
  ],
  6: [[V, 'blocks-missed']],
  14: [[W, 'checkpoint-missed']],
  20: [[W, 'blocks-missed']],
};

before(async () => {
  db = memoryDb();
  store = await SlotRecordStore.open(db);
  for (let slot = 0; slot <= 20; slot++) {
    const list = plan[slot] ?? [[X, 'blocks-missed']];
    const entries: SlotEntry[] = list.map(([validator, status]) => ({ slot, validator, status }));
    await store.save({
      slot,
      epoch: Math.floor(slot / 4),
      proposer: list[0]![0],
      proposerStatus: list[0]![1],
      attestations: 0,
      committeeSize: 2,
      entries,
    });
  }
  await store.saveProvenPerformance(
    [
      { validator: V, epoch: 0, missed: 2, total: 3 },
      { validator: V, epoch: 1, missed: 2, total: 3 },
    ],
    2000,
  );
  h = createValidatorHandlers({ store, slotStart, slotsPerEpoch: 4, historyLengthInEpochs: 2 });
});
after(() => db.destroy());

describe('missedStats', () => {
  it('counts back the streak from the latest relevant entry and omits rate when total is 0', () => {
    const s = (status: ValidatorStatus) => ({ status });
    assert.deepEqual(missedStats([], PROPOSER_STATUSES, new Set(['blocks-missed'])), {
      currentStreak: 0,
      count: 0,
      total: 0,
    });
    const hist = [
      s('checkpoint-missed'),
      s('checkpoint-mined'),
      s('attestation-missed'),
      s('blocks-missed'),
      s('checkpoint-missed'),
    ];
    assert.deepEqual(
      missedStats(hist, PROPOSER_STATUSES, new Set<ValidatorStatus>(['checkpoint-missed', 'blocks-missed'])),
      {
        currentStreak: 2,
        rate: 0.75,
        count: 3,
        total: 4,
      },
    );
  });
});

describe('node_getValidatorStats', () => {
  it('computes statuses, rates, streaks and last activity over an explicit range', async () => {
    const r = await h.getValidatorStats(V, '0', '8');
    assert.ok(r !== null);
    assert.deepEqual(r.validator, {
      address: V,
      lastProposal: {
        timestamp: String(slotStart(3)),
        slot: 3,
        date: new Date(Number(slotStart(3)) * 1000).toISOString(),
      },
      lastAttestation: {
        timestamp: String(slotStart(1)),
        slot: 1,
        date: new Date(Number(slotStart(1)) * 1000).toISOString(),
      },
      totalSlots: 9,
      missedProposals: { currentStreak: 1, rate: 0.5, count: 1, total: 2 },
      missedAttestations: { currentStreak: 3, rate: 0.75, count: 3, total: 4 },
      history: [
        { slot: 1, status: 'attestation-sent' },
        { slot: 2, status: 'attestation-missed' },
        { slot: 3, status: 'checkpoint-mined' },
        { slot: 4, status: 'attestation-missed' },
        { slot: 5, status: 'attestation-missed' },
        { slot: 6, status: 'blocks-missed' },
      ],
    });
    assert.deepEqual(r.allTimeProvenPerformance, [
      { missed: 2, total: 3, epoch: 0 },
      { missed: 2, total: 3, epoch: 1 },
    ]);
    assert.equal(r.lastProcessedSlot, 20);
    assert.equal(r.initialSlot, 0);
    assert.equal(r.slotWindow, 8);
  });

  it('defaults to the window [last − slotWindow, last]', async () => {
    const r = await h.getValidatorStats(W);
    assert.ok(r !== null);
    assert.deepEqual(r.validator.history, [
      { slot: 14, status: 'checkpoint-missed' },
      { slot: 20, status: 'blocks-missed' },
    ]);
    assert.equal(r.validator.totalSlots, 9);
    assert.deepEqual(r.validator.missedProposals, { currentStreak: 2, rate: 1, count: 2, total: 2 });
    assert.deepEqual(r.validator.missedAttestations, { currentStreak: 0, count: 0, total: 0 });
    assert.equal(r.validator.lastProposal, undefined);
  });

  it('a range of exactly the window is allowed; one more slot is SLOT_RANGE_TOO_WIDE', async () => {
    assert.notEqual(await h.getValidatorStats(V, '0', '8'), null);
    await assert.rejects(h.getValidatorStats(V, '0', '9'), (err: unknown) => {
      assert.deepEqual(toJsonRpcError(err), {
        code: -32040,
        message: 'Slot range 0..9 exceeds the slot window of 8',
        data: { fromSlot: '0', toSlot: '9', maxSlots: 8 },
      });
      return true;
    });
  });

  it('toSlot below fromSlot is -32602 naming toSlot', async () => {
    await assert.rejects(h.getValidatorStats(V, '5', '3'), (err: unknown) => {
      assert.deepEqual(toJsonRpcError(err), {
        code: -32602,
        message: 'params[2] (toSlot): toSlot must be >= fromSlot',
        data: { index: 2, param: 'toSlot', rule: 'toSlot must be >= fromSlot' },
      });
      return true;
    });
  });

  it('an unknown validator is null', async () => {
    assert.equal(await h.getValidatorStats('0x' + '44'.repeat(20)), null);
  });
});

describe('node_getValidatorsStats', () => {
  it('covers every validator with entries in the window, keyed by address', async () => {
    const r = await h.getValidatorsStats();
    assert.deepEqual(Object.keys(r.stats), [W, X]);
    assert.equal(r.slotWindow, 8);
    assert.equal(r.lastProcessedSlot, 20);
    assert.equal(r.initialSlot, 0);
    assert.equal(r.stats[X]!.missedProposals.count, 7);
    assert.equal(r.stats[X]!.totalSlots, 9);
  });

  it('is {stats: {}, slotWindow} before any slot is processed', async () => {
    const empty = memoryDb();
    try {
      const h2 = createValidatorHandlers({ store: await SlotRecordStore.open(empty), slotStart, slotsPerEpoch: 32 });
      assert.deepEqual(await h2.getValidatorsStats(), { stats: {}, slotWindow: 768 });
      assert.equal(await h2.getValidatorStats(V), null);
    } finally {
      await empty.destroy();
    }
  });
});
