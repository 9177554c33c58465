/**
 * Tx status across a rollback (issue: "a chain that never contradicts itself"), on a whole
 * in-process node: a tx anchored in a block that a rollback unwinds is dropped with the reason and
 * never mined; `force` clears the pool; unwound txs are pending again in the unwind's own
 * transaction; a tx sent after a rollback anchored at the new tip is mined. A mined tx's body (its
 * wire JSON, stored once at admission) survives a kill and comes back pending on a later rollback.
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
  crash,
  type InProcessNode,
  inProcessConfig,
  openInProcessNode,
  SLOT_SECONDS,
  txAnchoredAt,
} from './in-process-node.ts';

const PAYER = 0x1001n;

async function nodeAtBlock(blocks: number, extra: string[] = []) {
  const clock = clockAtSlot(1);
  const config = inProcessConfig({ dataDirectory: mkdtempSync(join(tmpdir(), 'tx-status-')) }, [
    '--build-empty-blocks',
    ...extra,
  ]);
  const n = await openInProcessNode(config, clock);
  const slot = async () => {
    clock.advance(SLOT_SECONDS * 1000);
    await n.node.step();
  };
  await n.node.step();
  while ((await n.node.publicHandlers.getBlockNumber!()) < blocks) await slot();
  return { n, clock, slot, config };
}

/** The tx hashes with a stored body, and those with a pending or a mined record. */
async function poolRows(n: InProcessNode) {
  const hashes = async (table: string) =>
    (await n.node.db(table).orderBy('tx_hash').select('tx_hash')).map((r) => r.tx_hash as string);
  return {
    bodies: await hashes('txpool_bodies'),
    pending: await hashes('txpool_txs'),
    mined: await hashes('txpool_mined'),
  };
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

  it('a mined tx keeps one body through a kill; a rollback after the restart makes it pending again with the same wire JSON, a dropped one leaves no body', async () => {
    const { n, clock, config, slot } = await nodeAtBlock(2);
    let reopened: InProcessNode | undefined;
    try {
      const a = await txAnchoredAt(n, { anchor: 1, payer: PAYER, nullifiers: [0xa0004n] });
      const b = await txAnchoredAt(n, { anchor: 2, payer: PAYER, nullifiers: [0xb0004n] });
      await n.node.publicHandlers.sendTx!(a.wire as never);
      await n.node.publicHandlers.sendTx!(b.wire as never);
      const sorted = [a.hash, b.hash].sort();
      assert.deepEqual(await poolRows(n), { bodies: sorted, pending: sorted, mined: [] });
      await slot();
      assert.equal((await receipt(n, a.hash)).status, 'mined');
      // Mining moved no body: the pending records became mined ones naming the same bodies.
      assert.deepEqual(await poolRows(n), { bodies: sorted, pending: [], mined: sorted });
      await crash(n);

      reopened = await openInProcessNode(config, clock);
      assert.deepEqual(await poolRows(reopened), { bodies: sorted, pending: [], mined: sorted });
      await reopened.admin.rollbackTo!(1, false);
      assert.equal((await receipt(reopened, a.hash)).status, 'pending');
      assert.deepEqual(await reopened.node.publicHandlers.getTxByHash!(a.hash), a.wire);
      assert.equal((await receipt(reopened, b.hash)).status, 'dropped');
      assert.deepEqual(await poolRows(reopened), { bodies: [a.hash], pending: [a.hash], mined: [] });
    } finally {
      await (reopened ?? n).node.stop();
    }
  });
});
