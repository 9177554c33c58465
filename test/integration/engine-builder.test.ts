/**
 * The one engine builder (src/impl/engine.ts) in its two modes: the writer opens its tx source
 * over its own chain view (`openTxSource`, no late binding), and a reader's engine
 * (`createReadEngine`) reads the chain another engine writes into the same database, moving on
 * only through `catchUpWithStore`, with no sequencer.
 * @module
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { createEngine, createReadEngine, type EngineConfig } from '../../src/impl/engine.ts';
import { InMemoryTxSource } from '../../src/impl/sequencer/tx-source.ts';
import { openDatabase } from '../../src/impl/store/database.ts';
import type { ChainView } from '../../src/impl/txpool/chain-view.ts';
import { devEngine, GENESIS, PAYER, syntheticTx } from './chain-helpers.ts';

const settings: Partial<EngineConfig> = {
  genesisTime: GENESIS,
  slotDurationSeconds: 4,
  slotsPerEpoch: 2,
  l1BlockSeconds: 4,
  proofDelaySeconds: 4,
  finalityDepth: 1,
  fundedAccounts: [{ address: PAYER, amount: 10n ** 30n }],
};

describe('the engine builder', () => {
  it('opens the tx source over its own chain view: the source sees the chain it feeds and owns tx status', async () => {
    const clock = new ManualClock(Number(GENESIS) * 1000);
    let view: ChainView | undefined;
    const source = new InMemoryTxSource();
    const engine = await createEngine({
      ...settings,
      clock,
      buildEmptyBlocks: true,
      openTxSource: async (chain) => {
        view = chain;
        // The view reads the engine's chain already while the source opens.
        assert.equal(await chain.getBlockNumber(), 0);
        return source;
      },
    });
    try {
      assert.equal(engine.txSource, source);
      source.add(syntheticTx(1));
      clock.advance(4000);
      await engine.tick();
      assert.equal(await engine.chain.getBlockNumber(), 1);
      assert.equal(await view!.getBlockNumber(), 1);
      assert.equal(view!.hasNullifier(0x301n), true, 'the view reads the latest state the block wrote');
      assert.equal((await engine.chain.getTxReceipt(0xabc001n)).status, 'mined');
    } finally {
      await engine.stop();
    }
  });

  it("a read engine serves the writer's committed chain, moves on by catchUpWithStore, and builds nothing", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'l2node-engine-builder-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const clock = new ManualClock(Number(GENESIS) * 1000);
    const { engine: writer, txSource } = await devEngine(clock, { dataDirectory: dir });
    const readerDb = await openDatabase({ dataDirectory: dir, migrate: false });
    const asked: bigint[] = [];
    const reader = await createReadEngine({
      ...settings,
      clock,
      db: readerDb,
      txStatus: async (h) => {
        asked.push(h);
        return undefined;
      },
    });
    try {
      txSource.add(syntheticTx(2));
      clock.advance(4000);
      await writer.tick();
      assert.equal(await writer.chain.getBlockNumber(), 1);
      assert.equal(await reader.chain.getBlockNumber(), 0, 'not before its catch-up');
      assert.equal(await reader.catchUpWithStore(), true);
      assert.equal(await reader.chain.getBlockNumber(), 1);
      assert.equal((await reader.chain.findBlock(1))?.hash, (await writer.chain.findBlock(1))?.hash);
      assert.equal(reader.latestState.hasNullifier(0x302n), true);
      assert.equal(await reader.catchUpWithStore(), false, 'nothing new');
      // Tx status: the chain's part from the database, the pool's from the given lookup.
      assert.equal((await reader.chain.getTxReceipt(0xabc002n)).status, 'mined');
      await reader.chain.getTxReceipt(0xdeadn);
      assert.ok(asked.includes(0xdeadn));
      assert.equal('sequencer' in reader, false);
      assert.equal('tick' in reader, false);
    } finally {
      await reader.stop();
      await readerDb.destroy();
      await writer.stop();
    }
  });
});
