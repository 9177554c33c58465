/**
 * Tx status across a rollback (issue: "a chain that never contradicts itself"), on a whole
 * in-process node: a tx anchored in a block that a rollback unwinds is dropped with the reason and
 * never mined; `force` clears the pool; unwound txs are pending again in the unwind's own
 * transaction; a tx sent after a rollback anchored at the new tip is mined.
 * @module
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TX_ERROR } from '../../src/impl/tx/index.ts';
import { FORCED_ROLLBACK_REASON } from '../../src/impl/txpool/tx-status.ts';
import {
  clockAtSlot,
  inProcessConfig,
  openInProcessNode,
  SLOT_SECONDS,
  txAnchoredAt,
  type InProcessNode,
} from './in-process-node.ts';

const PAYER = 0x1001n;

async function nodeAtBlock(blocks: number, extra: string[] = []) {
  const clock = clockAtSlot(1);
  const n = await openInProcessNode(
    inProcessConfig({ dataDirectory: mkdtempSync(join(tmpdir(), 'tx-status-')) }, ['--build-empty-blocks', ...extra]),
    clock,
  );
  const slot = async () => {
    clock.advance(SLOT_SECONDS * 1000);
    await n.node.step();
  };
  await n.node.step();
  while ((await n.node.publicHandlers.getBlockNumber!()) < blocks) await slot();
  return { n, clock, slot };
}

const receipt = (n: InProcessNode, hash: string) => n.node.publicHandlers.getTxReceipt!(hash);

describe('tx status across nodeAdmin_rollbackTo', () => {
  it('pause, send B anchored at block 4, rollbackTo(3, force), resume: B is dropped with a reason and never mined', async () => {
    const { n, slot } = await nodeAtBlock(4);
    try {
      await n.admin.pauseSync!();
      const b = await txAnchoredAt(n, { anchor: 4, payer: PAYER, nullifiers: [0xb0001n] });
      await n.node.publicHandlers.sendTx!(b.wire as never);
      assert.equal((await receipt(n, b.hash)).status, 'pending');
      await n.admin.rollbackTo!(3, true);
      await n.admin.resumeSync!();
      for (let i = 0; i < 3; i++) await slot();
      const r = await receipt(n, b.hash);
      assert.equal(r.status, 'dropped');
      assert.equal(r.error, FORCED_ROLLBACK_REASON);
      assert.equal(await n.node.publicHandlers.getPendingTxCount!(), 0);
      assert.ok((await n.node.publicHandlers.getBlockNumber!()) >= 4);
    } finally {
      await n.node.stop();
    }
  });

  it('without force: B anchored in an unwound block is dropped (Block header not found) at once; C anchored below the target stays and is mined', async () => {
    const { n, slot } = await nodeAtBlock(4);
    try {
      await n.admin.pauseSync!();
      const b = await txAnchoredAt(n, { anchor: 4, payer: PAYER, nullifiers: [0xb0002n] });
      const c = await txAnchoredAt(n, { anchor: 2, payer: PAYER, nullifiers: [0xc0002n] });
      await n.node.publicHandlers.sendTx!(b.wire as never);
      await n.node.publicHandlers.sendTx!(c.wire as never);
      await n.admin.rollbackTo!(3, false);
      // Before any block: the rollback itself revalidated the pool.
      assert.deepEqual(await receipt(n, b.hash), { txHash: b.hash, status: 'dropped', error: TX_ERROR.BLOCK_HEADER });
      assert.equal((await receipt(n, c.hash)).status, 'pending');
      assert.equal(await n.node.publicHandlers.getPendingTxCount!(), 1);
      await slot();
      const mined = await receipt(n, c.hash);
      assert.equal(mined.status, 'mined');
      assert.equal((await receipt(n, b.hash)).status, 'dropped');
    } finally {
      await n.node.stop();
    }
  });

  it('an unwound tx is pending again right after the rollback, and dropped when its anchor went with it', async () => {
    const { n, slot } = await nodeAtBlock(2);
    try {
      const a = await txAnchoredAt(n, { anchor: 1, payer: PAYER, nullifiers: [0xa0003n] });
      const b = await txAnchoredAt(n, { anchor: 2, payer: PAYER, nullifiers: [0xb0003n] });
      await n.node.publicHandlers.sendTx!(a.wire as never);
      await n.node.publicHandlers.sendTx!(b.wire as never);
      await slot();
      const minedIn = (await receipt(n, a.hash)).blockNumber!;
      assert.equal((await receipt(n, b.hash)).blockNumber, minedIn);
      await n.admin.rollbackTo!(1, false);
      assert.equal((await receipt(n, a.hash)).status, 'pending');
      assert.deepEqual(await receipt(n, b.hash), { txHash: b.hash, status: 'dropped', error: TX_ERROR.BLOCK_HEADER });
      const pending = (await n.node.publicHandlers.getPendingTxs!()) as { txHash: string }[];
      assert.deepEqual(
        pending.map((t) => t.txHash),
        [a.hash],
      );
    } finally {
      await n.node.stop();
    }
  });
});
