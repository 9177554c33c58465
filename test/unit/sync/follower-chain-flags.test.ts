/**
 * A follower started with other chain settings than its source (the p2p case, where nothing is
 * checked before the first block): another genesis (funded accounts) or other slot timing
 * stops it at block 0 with an error that names the cause, and onImported sees what was imported.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../../src/impl/chain/time.ts';
import type { L2Block } from '../../../src/impl/chain/types.ts';
import type { BlockSource } from '../../../src/impl/sync/block-source.ts';
import { Follower } from '../../../src/impl/sync/follower.ts';
import { devEngine, GENESIS, syntheticTx } from '../../integration/chain-helpers.ts';

async function proposerWithBlocks(t: { after(fn: () => unknown): void }) {
  const clock = new ManualClock(Number(GENESIS) * 1000);
  const { engine, txSource } = await devEngine(clock);
  t.after(() => engine.stop());
  for (let i = 1; i <= 3; i++) {
    txSource.add(syntheticTx(i));
    clock.advance(4000);
    await engine.tick();
  }
  // Like a p2p peer: no tips, blocks only.
  const source: BlockSource = {
    name: 'peer',
    maxBlocksPerRequest: 64,
    getTips: async () => undefined,
    getBlocks: (from, limit) => engine.chain.blocksFrom(from, limit),
  };
  return { engine, source };
}

describe('Follower: chain settings of the source', () => {
  it('imports with the same settings and reports each imported batch', async (t) => {
    const { engine: proposer, source } = await proposerWithBlocks(t);
    const { engine } = await devEngine(new ManualClock(Number(GENESIS) * 1000));
    t.after(() => engine.stop());
    const seen: L2Block[] = [];
    const follower = new Follower({ engine, source, onImported: async (b) => void seen.push(...b) });
    assert.equal(await follower.syncNow(), 3);
    assert.deepEqual(
      seen.map((b) => b.hash),
      (await proposer.chain.blocksFrom(1, 3)).map((b) => b.hash),
    );
  });

  it('another genesis (other funded accounts) is named as such', async (t) => {
    const { source } = await proposerWithBlocks(t);
    const { engine } = await devEngine(new ManualClock(Number(GENESIS) * 1000), {
      fundedAccounts: [{ address: 0x4242n, amount: 1n }],
    });
    t.after(() => engine.stop());
    const follower = new Follower({ engine, source });
    assert.equal(await follower.syncNow(), 0);
    const st = follower.status();
    assert.equal(st.state, 'stopped-on-mismatch');
    assert.match(
      st.error!,
      /^block 1 refused: its genesis \(archive root 0x[0-9a-f]{64}\) is not ours \(0x[0-9a-f]{64}\): start this node with the source's chain flags$/,
    );
    assert.equal(await engine.chain.getBlockNumber(), 0);
  });

  it('other slot timing (genesis time or slot duration) is named as such', async (t) => {
    const { source } = await proposerWithBlocks(t);
    for (const over of [{ genesisTime: GENESIS + 1n }, { slotDurationSeconds: 8 }]) {
      const { engine } = await devEngine(new ManualClock(Number(GENESIS) * 1000), over);
      t.after(() => engine.stop());
      const follower = new Follower({ engine, source });
      assert.equal(await follower.syncNow(), 0);
      assert.match(
        follower.status().error!,
        /^block 1 refused: timestamp \d+ is not the start of slot \d+ here \(\d+\): start this node with the source's --genesis-time and --slot-duration$/,
      );
    }
  });
});
