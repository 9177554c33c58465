import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import trees from '../../test/vectors/trees.json' with { type: 'json' };
import { ManualClock } from '../../src/impl/chain/time.ts';
import { feeJuiceBalanceLeafSlot } from '../../src/impl/chain/protocol.ts';
import { TreeId } from '../../src/impl/world-state/constants.ts';
import { createEngine, DEV_FUNDED_ACCOUNTS, DEV_FUNDING } from '../../src/impl/engine.ts';
import { devEngine, GENESIS, hex, PAYER, RECIPIENT, syntheticTx } from './chain-helpers.ts';

describe('dev chain', () => {
  it('genesis: block 0 and all tips match trees.json when nothing is prefilled', async () => {
    const { engine } = await devEngine(new ManualClock(Number(GENESIS) * 1000), { fundedAccounts: [] });
    const b0 = (await engine.chain.findBlock(0))!;
    assert.equal(hex(b0.hash), trees.genesis.genesisBlockHeaderHash);
    assert.equal(hex(b0.archive.root), trees.genesis.genesisArchiveRoot);
    const tips = await engine.chain.getL2Tips();
    for (const t of [tips.checkpointed, tips.proven, tips.finalized]) {
      assert.deepEqual(
        { n: t.block.number, h: hex(t.block.hash), cn: t.checkpoint.number, ch: hex(t.checkpoint.hash) },
        { n: 0, h: trees.genesis.genesisBlockHeaderHash, cn: 0, ch: trees.genesis.GENESIS_CHECKPOINT_HEADER_HASH },
      );
    }
    assert.equal(hex(tips.proposed.hash), trees.genesis.genesisBlockHeaderHash);
    await engine.stop();
  });

  it('tips advance proposed → checkpointed → proven → finalized as the clock moves; receipts pending → mined; restart keeps hashes', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'l2node-chain-'));
    try {
      const clock = new ManualClock(Number(GENESIS) * 1000);
      const { engine, txSource } = await devEngine(clock, { dataDirectory: dir, finalityDepth: 3 });
      t.after(() => engine.stop());
      const payerBefore = engine.latestState.readPublicData(feeJuiceBalanceLeafSlot(PAYER));
      const tx = syntheticTx(1);
      txSource.add(tx);
      assert.equal((await engine.chain.getTxReceipt(tx.txHash)).status, 'pending');
      await engine.l1.sendL1ToL2Message(0x5151n);

      clock.advance(4000); // slot 1
      await engine.tick();
      assert.equal(await engine.chain.getBlockNumber(), 1);
      let tips = await engine.chain.getL2Tips();
      assert.equal(tips.proposed.number, 1);
      assert.equal(tips.checkpointed.block.number, 0);

      const receipt = await engine.chain.getTxReceipt(tx.txHash);
      const block1 = (await engine.chain.findBlock(1))!;
      assert.equal(receipt.status, 'mined');
      assert.equal(receipt.blockNumber, 1);
      assert.equal(receipt.blockHash, block1.hash);
      const fee =
        100n * block1.header.globalVariables.gasFees.feePerDaGas +
        5000n * block1.header.globalVariables.gasFees.feePerL2Gas;
      assert.ok(fee > 0n);
      assert.equal(receipt.transactionFee, fee);
      assert.equal(block1.header.totalFees, fee);
      assert.equal(engine.latestState.readPublicData(feeJuiceBalanceLeafSlot(PAYER)), payerBefore - fee);
      assert.equal(engine.latestState.readPublicData(feeJuiceBalanceLeafSlot(RECIPIENT)), fee);
      assert.equal(await engine.chain.getL1ToL2MessageBlock(0x5151n), 1);
      assert.equal(block1.header.state.l1ToL2MessageTree.nextAvailableLeafIndex, 1024);
      assert.deepEqual(
        (await engine.chain.getL2ToL1Messages(1))!.map((m) => m.length),
        [1],
      );
      const byTag = await engine.chain.getLogsByTags([0x7a9n, 0x999n], 10);
      assert.deepEqual(
        byTag.map((l) => l.length),
        [1, 0],
      );
      assert.equal(byTag[0]![0]!.txHash, tx.txHash);

      clock.advance(4000); // slot 2 (epoch 1): slot 1 is sealed into checkpoint 1
      await engine.tick();
      tips = await engine.chain.getL2Tips();
      assert.equal(tips.checkpointed.checkpoint.number, 1);
      assert.equal(tips.checkpointed.block.number, 1);
      assert.equal(tips.proven.block.number, 0);
      assert.equal(tips.proposed.number, 2);

      clock.advance(4000 * 2); // epoch 0 ended at slot 2, proof lands 4 s later
      await engine.tick();
      tips = await engine.chain.getL2Tips();
      assert.equal(tips.proven.checkpoint.number, 1);
      assert.equal(tips.finalized.block.number, 0);
      assert.equal(await engine.chain.getProvenBlockNumber(), 1);
      clock.advance(8000); // the proof's L1 block is now 3 L1 blocks deep
      await engine.tick();
      tips = await engine.chain.getL2Tips();
      assert.equal(tips.finalized.checkpoint.number, 1);
      const before = {
        tips,
        latest: await engine.chain.getBlockNumber(),
        archive: await engine.worldState.getTreeSnapshot(TreeId.ARCHIVE, 'latest'),
      };
      await engine.stop();
      assert.equal(await engine.chain.getBlockNumber(), before.latest);

      const reopened = await devEngine(clock, { dataDirectory: dir, finalityDepth: 3 });
      t.after(() => reopened.engine.stop());
      assert.deepEqual(await reopened.engine.chain.getL2Tips(), before.tips);
      assert.deepEqual(await reopened.engine.worldState.getTreeSnapshot(TreeId.ARCHIVE, 'latest'), before.archive);
      clock.advance(4000);
      await reopened.engine.tick();
      assert.equal(await reopened.engine.chain.getBlockNumber(), before.latest + 1);
      assert.equal(
        (await reopened.engine.chain.findBlock(before.latest + 1))!.header.lastArchive.root,
        before.archive.root,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('drops txs with public calls or without enough FeeJuice, applying none of their effects', async () => {
    const clock = new ManualClock(Number(GENESIS) * 1000);
    const { engine, txSource } = await devEngine(clock);
    const pub = syntheticTx(2, { publicCallCount: 1 });
    const poor = syntheticTx(3, { feePayer: 0xdeadn });
    txSource.add(pub);
    txSource.add(poor);
    clock.advance(4000);
    await engine.tick();
    const block = (await engine.chain.findBlock(1))!;
    assert.equal(block.body.txEffects.length, 0);
    assert.match((await engine.chain.getTxReceipt(pub.txHash)).error!, /public calls/);
    assert.equal((await engine.chain.getTxReceipt(poor.txHash)).status, 'dropped');
    assert.equal(engine.latestState.hasNullifier(0x302n), false);
    await engine.stop();
  });

  it('defaults: the documented dev accounts are funded at genesis and returned; readiness follows start/stop', async () => {
    const engine = await createEngine({
      clock: new ManualClock(Number(GENESIS) * 1000),
      genesisTime: GENESIS,
      tickMs: 60_000,
    });
    assert.deepEqual(
      engine.fundedAccounts.map((a) => [a.address, a.amount]),
      DEV_FUNDED_ACCOUNTS.map((a) => [a, DEV_FUNDING]),
    );
    for (const a of engine.fundedAccounts) {
      assert.equal(a.leafSlot, feeJuiceBalanceLeafSlot(a.address));
      assert.equal((await engine.worldState.getPublicDataWitness('latest', a.leafSlot)).leaf.value, DEV_FUNDING);
      assert.equal(engine.latestState.readPublicData(a.leafSlot), DEV_FUNDING);
    }
    assert.deepEqual(await engine.isReady(), {
      ready: false,
      storageOpen: true,
      worldStateAtTip: true,
      sequencerRunning: false,
    });
    await engine.start();
    assert.equal((await engine.isReady()).ready, true);
    await engine.stop();
    assert.deepEqual(await engine.isReady(), {
      ready: false,
      storageOpen: false,
      worldStateAtTip: false,
      sequencerRunning: false,
    });
  });
});
