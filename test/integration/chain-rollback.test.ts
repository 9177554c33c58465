/**
 * Engine rollback: unwinding trees and chain tables together (blocks, receipts, logs, L1→L2
 * placement, checkpoints, tips, fee state), returning the unwound txs, re-applying them to the
 * same roots, and the refusals (above the tip; behind the finalized block without force).
 * @module
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RollbackRefusal } from '../../src/impl/chain/rollback.ts';
import { ManualClock } from '../../src/impl/chain/time.ts';
import type { Engine } from '../../src/impl/engine.ts';
import { DEFAULT_FEE_MODEL } from '../../src/impl/fees/fee-model.ts';
import { TreeId } from '../../src/impl/world-state/constants.ts';
import { devEngine, GENESIS, syntheticTx } from './chain-helpers.ts';

const reason = (e: unknown) => (e as RollbackRefusal).reason;
const stateOf = async (e: Engine) => {
  const b = (await e.chain.findBlock('latest'))!;
  return {
    state: b.header.state,
    fees: b.header.globalVariables.gasFees,
    total: b.header.totalFees,
    excess: e.state.excessMana,
  };
};

test('rollbackTo unwinds everything in one step, returns the txs, and re-applying them gives identical roots', async (t) => {
  const clock = new ManualClock(Number(GENESIS) * 1000);
  const { engine, txSource } = await devEngine(clock, {
    proofDelaySeconds: 100_000,
    feeModel: { ...DEFAULT_FEE_MODEL, manaTarget: 4000n },
  });
  t.after(() => engine.stop());
  const txs = [syntheticTx(1), syntheticTx(2), syntheticTx(3)];
  const after: Awaited<ReturnType<typeof stateOf>>[] = [];
  for (const [i, tx] of txs.entries()) {
    if (i === 1) await engine.l1.sendL1ToL2Message(0x5151n);
    txSource.add(tx);
    clock.advance(4000);
    await engine.tick();
    after.push(await stateOf(engine));
  }
  clock.advance(4000);
  await engine.tick(); // seals block 3's checkpoint, builds empty block 4
  assert.equal(await engine.chain.getBlockNumber(), 4);
  assert.equal((await engine.chain.getL2Tips()).checkpointed.checkpoint.number, 3);
  assert.equal(await engine.chain.getL1ToL2MessageBlock(0x5151n), 2);
  assert.ok(after[2]!.excess > after[0]!.excess, 'blocks above target raise the fee state');

  // Looked up by hash and archive root before the rollback (kept by the chain store), gone after it.
  const block3 = (await engine.chain.findBlock(3))!;
  assert.equal((await engine.chain.findBlockBy('hash', block3.hash))?.header.globalVariables.blockNumber, 3);
  assert.equal((await engine.chain.findBlockBy('archive', block3.archive.root))?.header.globalVariables.blockNumber, 3);
  assert.equal(await engine.state.isBlockHashInChain(block3.hash), true);
  assert.equal((await engine.state.store.findCheckpoint(3))?.number, 3);
  assert.equal((await engine.state.store.latestCheckpoint())?.number, 3);
  await assert.rejects(engine.rollbackTo(5), (e: unknown) => e instanceof RollbackRefusal && reason(e) === 'ABOVE_TIP');
  assert.deepEqual(await engine.rollbackTo(4), []);

  const unwound = await engine.rollbackTo(1);
  assert.deepEqual(
    unwound.map((u) => [u.blockNumber, u.txHash]),
    [
      [2, txs[1]!.txHash],
      [3, txs[2]!.txHash],
    ],
  );
  assert.equal(await engine.chain.getBlockNumber(), 1);
  assert.equal(await engine.worldState.getLatestBlockNumber(), 1);
  const tips = await engine.chain.getL2Tips();
  assert.equal(tips.proposed.number, 1);
  assert.deepEqual([tips.checkpointed.checkpoint.number, tips.checkpointed.block.number], [1, 1]);
  assert.equal(await engine.l1.provenCheckpointNumber(), 0);
  assert.equal(await engine.chain.findBlock(2), undefined);
  assert.equal(await engine.chain.findBlockBy('hash', block3.hash), undefined);
  assert.equal(await engine.chain.findBlockBy('archive', block3.archive.root), undefined);
  assert.equal(await engine.state.isBlockHashInChain(block3.hash), false);
  assert.equal(await engine.state.store.findBlockNumberBy('hash', block3.hash), undefined);
  assert.equal(await engine.state.store.findCheckpoint(3), undefined);
  assert.equal((await engine.state.store.latestCheckpoint())?.number, 1);
  assert.equal((await engine.chain.getTxReceipt(txs[2]!.txHash)).status, 'dropped'); // gone from the chain, not in the source
  assert.equal(await engine.chain.getL1ToL2MessageBlock(0x5151n), undefined);
  assert.deepEqual(
    (await engine.chain.getLogsByTags([0x7a9n], 10))[0]!.map((l) => l.blockNumber),
    [1],
  );
  assert.deepEqual((await stateOf(engine)).state, after[0]!.state);
  assert.equal(engine.state.excessMana, after[0]!.excess);
  assert.equal(engine.latestState.hasNullifier(0x302n), false);
  assert.deepEqual(
    await engine.worldState.getTreeSnapshot(TreeId.ARCHIVE, 'latest'),
    (await engine.chain.findBlock(1))!.archive,
  );

  // The mempool takes the txs back; each lands in its own new slot as before.
  for (const [i, tx] of txs.slice(1).entries()) {
    txSource.add(tx);
    clock.advance(4000);
    await engine.tick();
    const again = await stateOf(engine);
    assert.deepEqual(again, after[i + 1], `re-applied block ${i + 2}`);
  }
  assert.equal(await engine.chain.getL1ToL2MessageBlock(0x5151n), 2);
  assert.equal((await engine.chain.getTxReceipt(txs[2]!.txHash)).blockNumber, 3);

  // Once finalized, going behind it needs force.
  clock.advance(100_000_000);
  const finalized = (await engine.chain.getL2Tips()).finalized.block.number;
  assert.ok(finalized >= 1);
  await assert.rejects(engine.rollbackTo(0), (e: unknown) => reason(e) === 'BEHIND_FINALIZED_NEEDS_FORCE');
  await engine.rollbackTo(0, { force: true });
  assert.equal(await engine.chain.getBlockNumber(), 0);
  assert.equal((await engine.chain.getL2Tips()).finalized.block.number, 0);
  assert.deepEqual(
    await engine.worldState.getTreeSnapshot(TreeId.ARCHIVE, 'latest'),
    engine.chain.genesisBlock.archive,
  );
});
