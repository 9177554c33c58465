/**
 * Building only after catching up with peers (docs/P2P.md, "Slot timing"): the gate's policy —
 * alone, expecting peers, caught up, behind, unreachable, on another chain, waiting for the
 * previous slot's block — and the sequencer honouring it: asked once per slot before the seal,
 * a refusal skips the slot, and no block is started in the last `buildMarginMs` of the slot.
 * @module
 */

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../../src/impl/chain/time.ts';
import type { CatchUpResult } from '../../../src/impl/sync/follower.ts';
import { buildGateTiming, PeerBuildGate, type PeerBuildGateOptions } from '../../../src/impl/sync/peer-build-gate.ts';
import { devEngine, GENESIS } from '../../integration/chain-helpers.ts';

const SLOT = 5;
const SLOT_MS = 1000;

function gate(over: Partial<PeerBuildGateOptions> & { now?: () => number } = {}) {
  const calls: number[] = [];
  const now = over.now ?? (() => Date.now());
  const g = new PeerBuildGate({
    peerCount: () => 1,
    catchUp: async (until) => (calls.push(until), 'caught-up'),
    previousSlotPending: async () => false,
    slotStartMs: () => now(),
    nowMs: now,
    expectsPeers: true,
    startedAtMs: now(),
    aloneAfterMs: 10_000,
    previousSlotGraceMs: SLOT_MS / 4,
    buildMarginMs: SLOT_MS / 4,
    retryMs: 10,
    ...over,
  });
  return { g, calls };
}

describe('PeerBuildGate', () => {
  it('timing: a quarter slot of build margin and of grace for the previous slot; alone after an epoch, not before two bootstrap re-dials', () => {
    assert.deepEqual(buildGateTiming(1, 2), { buildMarginMs: 250, previousSlotGraceMs: 250, aloneAfterMs: 10_000 });
    assert.deepEqual(buildGateTiming(36, 32), {
      buildMarginMs: 9000,
      previousSlotGraceMs: 9000,
      aloneAfterMs: 36 * 32 * 1000,
    });
  });

  it('no peer: the first node (no bootstrap peers) builds alone; one expecting peers only after aloneAfterMs', async () => {
    let t = 1_000_000;
    const now = () => t;
    assert.equal(await gate({ peerCount: () => 0, expectsPeers: false, now }).g.beforeBuild(SLOT, t + 750), true);
    const { g, calls } = gate({ peerCount: () => 0, expectsPeers: true, startedAtMs: t, now });
    assert.equal(await g.beforeBuild(SLOT, t + 750), false);
    t += 10_000;
    assert.equal(await g.beforeBuild(SLOT + 1, t + 750), true);
    assert.equal(calls.length, 0, 'nobody to catch up with');
  });

  it('with peers: builds once caught up (the catch-up bounded by the build deadline); behind or on another chain skips the slot; unreachable peers count as none', async () => {
    // Deadlines well ahead on the real clock: a stalled event loop must not make them pass (5 s, not 750 ms).
    const deadline = Date.now() + 5000;
    const { g, calls } = gate();
    assert.equal(await g.beforeBuild(SLOT, deadline), true);
    assert.deepEqual(calls, [deadline]);
    for (const [r, ok] of [
      ['behind', false],
      ['mismatch', false],
      ['unreachable', true],
    ] as [CatchUpResult, boolean][]) {
      assert.equal(await gate({ catchUp: async () => r }).g.beforeBuild(SLOT, Date.now() + 5000), ok, r);
    }
  });

  it("waits for the previous slot's block (pulling again) until it arrives, or until the grace into our slot has passed", async () => {
    let pending = true;
    let pulls = 0;
    const start = Date.now();
    // Real clock: the grace (arrives) and the deadlines are far enough that a stalled event loop cannot
    // pass them before the third pull; \`never\` keeps the quarter-slot grace it is about.
    const arrives = gate({
      slotStartMs: () => start,
      previousSlotPending: async () => pending,
      previousSlotGraceMs: 5000,
      catchUp: async () => {
        if (++pulls === 3) pending = false;
        return 'caught-up';
      },
    });
    assert.equal(await arrives.g.beforeBuild(SLOT, start + 10_000), true);
    assert.equal(pulls, 3, 'pulled until the block was there');
    const never = gate({ slotStartMs: () => start, previousSlotPending: async () => true });
    assert.equal(
      await never.g.beforeBuild(SLOT, start + 5000),
      true,
      'builds after the grace: the previous proposer may be down',
    );
    assert.ok(Date.now() - start >= 250, 'waited the grace');
    assert.ok(never.calls.length >= 2);
  });
});

describe('the sequencer with a slot gate', () => {
  it('asks once per slot before building, skips the slot on a refusal, starts no block in the last buildMarginMs', async (t) => {
    const clock = new ManualClock(Number(GENESIS) * 1000);
    const asked: [number, number][] = [];
    let answer = true;
    const { engine } = await devEngine(clock, {
      sequencer: {
        slotGate: {
          buildMarginMs: 1000,
          beforeBuild: async (slot, deadlineMs) => (asked.push([slot, deadlineMs]), answer),
        },
        proposer: (slot) => (slot === 2 ? undefined : { coinbase: 1n, feeRecipient: 2n }),
      },
    });
    t.after(() => engine.stop());
    const slotStart = (s: number) => (Number(GENESIS) + 4 * s) * 1000;
    clock.set(slotStart(1));
    await engine.tick();
    await engine.tick();
    assert.deepEqual(asked, [[1, slotStart(2) - 1000]], 'once per slot, deadline = slot end - margin');
    assert.equal(await engine.chain.getBlockNumber(), 1);
    clock.set(slotStart(2));
    await engine.tick();
    assert.equal(asked.length, 1, 'not asked in a slot we do not propose');
    answer = false;
    clock.set(slotStart(3));
    await engine.tick();
    assert.equal(await engine.chain.getBlockNumber(), 1, 'refused: slot 3 left out');
    assert.equal(
      (await engine.checkpoints.latestCheckpoint())?.header.slotNumber,
      1,
      'the seal of finished slots still happens',
    );
    answer = true;
    clock.set(slotStart(5) - 1000);
    await engine.tick();
    assert.equal(asked.at(-1)![0], 4);
    assert.equal(await engine.chain.getBlockNumber(), 1, 'too late in slot 4: no block started');
    clock.set(slotStart(5));
    await engine.tick();
    assert.equal(await engine.chain.getBlockNumber(), 2);
  });
});
