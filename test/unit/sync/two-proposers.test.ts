/**
 * Two engines taking turns by slot, each importing the other's blocks through the follower (as a
 * sequencer beside validators on other nodes does): a block of the next slot imported before our
 * first tick in that slot stays open — each finished slot is sealed into its own checkpoint, the
 * same on both — and an imported block whose checkpoint number or position does not follow from
 * our chain is refused.
 * @module
 */

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../../src/impl/chain/time.ts';
import type { L2Block } from '../../../src/impl/chain/types.ts';
import type { Engine } from '../../../src/impl/engine.ts';
import { SyncSwitch } from '../../../src/impl/node-config/sync-control.ts';
import type { BlockSource } from '../../../src/impl/sync/block-source.ts';
import { Follower } from '../../../src/impl/sync/follower.ts';
import { devEngine, GENESIS } from '../../integration/chain-helpers.ts';

const SLOT_MS = 4000;

/** A follower of `engine` over `other`'s chain (blocks only, as over p2p); `tamper` changes what is served. */
function follower(engine: Engine, other: Engine, tamper: (b: L2Block) => L2Block = (b) => b): Follower {
  const source: BlockSource = {
    name: 'peer',
    maxBlocksPerRequest: 64,
    getTips: async () => undefined,
    getBlocks: async (from, limit) => (await other.chain.blocksFrom(from, limit)).map(tamper),
  };
  return new Follower({
    engine,
    source,
    sync: new SyncSwitch(1000),
    ownProofTips: true,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
  });
}

async function pair(t: { after(fn: () => Promise<void>): void }) {
  const clock = new ManualClock(Number(GENESIS) * 1000);
  // a proposes the odd slots, b the even ones.
  const { engine: a } = await devEngine(clock, {
    sequencer: { proposer: (slot) => (slot % 2 === 1 ? { coinbase: 0xan, feeRecipient: 0xaaaan } : undefined) },
  });
  const { engine: b } = await devEngine(clock, {
    sequencer: { proposer: (slot) => (slot % 2 === 0 ? { coinbase: 0xbn, feeRecipient: 0xbbbbn } : undefined) },
  });
  t.after(async () => {
    await a.stop();
    await b.stop();
  });
  return { clock, a, b };
}

const checkpoints = async (e: Engine) =>
  (await e.checkpoints.checkpointsFrom(1, 10)).map((c) => ({
    number: c.number,
    slot: c.header.slotNumber,
    startBlock: c.startBlock,
    blockCount: c.blockCount,
    hash: c.hash,
  }));

describe("two proposers importing each other's blocks", () => {
  it('a block of the next slot imported before our first tick there stays open: one checkpoint per slot, the same on both', async (t) => {
    const { clock, a, b } = await pair(t);
    const fromB = follower(a, b);
    const fromA = follower(b, a);
    clock.advance(SLOT_MS); // slot 1: a builds block 1, b imports it
    await a.tick();
    await fromA.syncNow();
    await b.tick();
    clock.advance(SLOT_MS); // slot 2: b seals slot 1 and builds block 2; a imports it before its own first tick of slot 2
    await b.tick();
    assert.equal(await fromB.syncNow(), 1);
    await a.tick();
    assert.deepEqual(
      (await checkpoints(a)).map((c) => [c.number, c.slot, c.startBlock, c.blockCount]),
      [[1, 1, 1, 1]],
      "block 2 (slot 2) is not in slot 1's checkpoint",
    );
    clock.advance(SLOT_MS); // slot 3: a seals slot 2 and builds block 3 in checkpoint 3; b imports it
    await a.tick();
    assert.equal(await fromA.syncNow(), 1);
    await b.tick();
    const block3 = (await a.chain.findBlock(3))!;
    assert.deepEqual(
      [block3.header.globalVariables.slotNumber, block3.checkpointNumber, block3.indexWithinCheckpoint],
      [3, 3, 0],
    );
    assert.deepEqual(
      (await checkpoints(a)).map((c) => [c.number, c.slot, c.startBlock, c.blockCount]),
      [
        [1, 1, 1, 1],
        [2, 2, 2, 1],
      ],
    );
    assert.deepEqual(await checkpoints(b), await checkpoints(a), 'both nodes sealed the same checkpoints');
    assert.equal(fromA.status().state, 'caught-up');
    assert.equal(fromB.status().state, 'caught-up');
  });

  it('refuses an imported block whose checkpoint number or position does not follow from our chain', async (t) => {
    for (const [what, tamper] of [
      ['checkpoint number', (x: L2Block) => ({ ...x, checkpointNumber: x.checkpointNumber - 1 })],
      ['index within checkpoint', (x: L2Block) => ({ ...x, indexWithinCheckpoint: 1 })],
    ] as const) {
      const { clock, a, b } = await pair(t);
      clock.advance(SLOT_MS);
      await a.tick(); // block 1, slot 1
      clock.advance(SLOT_MS);
      await a.tick(); // seals slot 1 (a builds no block in slot 2)
      clock.advance(SLOT_MS);
      await a.tick(); // block 2, slot 3, checkpoint 2
      const fromA = follower(b, a, (x) => (x.header.globalVariables.blockNumber === 2 ? tamper(x) : x));
      assert.equal(await fromA.syncNow(), 1, what);
      const status = fromA.status();
      assert.equal(status.state, 'stopped-on-mismatch', what);
      assert.equal(status.lastGoodBlock, 1, what);
      assert.match(
        status.error ?? '',
        /block 2 refused: checkpoint \d+ index \d+, 2 index 0 expected after block 1 \(slot 1\)/,
        what,
      );
    }
  });
});
