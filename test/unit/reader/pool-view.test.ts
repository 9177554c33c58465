/**
 * A read-only process's view of the writer's pool never reports a tx as both mined and pending:
 * the writer commits a block before it takes the block's txs out of the pool (two transactions),
 * and in between the view leaves out pool rows whose tx a committed block holds.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toFieldHex } from '../../../src/impl/crypto/field.ts';
import { DatabasePoolView } from '../../../src/impl/reader/pool-view.ts';
import { openDatabase } from '../../../src/impl/store/database.ts';
import { PoolStore } from '../../../src/impl/txpool/pool-store.ts';
import type { PoolEntry } from '../../../src/impl/txpool/priority.ts';

const entry = (txHash: bigint, priorityFee: bigint, seq: number): PoolEntry => ({
  txHash,
  priorityFee,
  feePayer: 0x1002n,
  feeLimit: 1000n,
  claimAmount: 0n,
  nullifiers: [txHash + 0x100n],
  expirationTimestamp: 2_000_000_000n,
  maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: priorityFee },
  anchorBlockHash: 0n,
  seq,
});

describe("DatabasePoolView between the writer's block commit and its pool update", () => {
  it('leaves a tx a committed block holds out of the count, the status, the pending list and the top fee', async () => {
    const db = await openDatabase({ dataDirectory: '' });
    try {
      const minedSoon = entry(0xa1n, 9n, 1),
        staying = entry(0xa2n, 5n, 2);
      await new PoolStore(db).apply({
        add: [minedSoon, staying].map((e) => ({
          entry: e,
          wireJson: JSON.stringify({ txHash: toFieldHex(e.txHash) }),
        })),
      });
      const view = new DatabasePoolView(db);
      assert.equal(await view.pendingCount(), 2);
      assert.deepEqual(await view.getMaxPriorityFees(), { feePerDaGas: 0n, feePerL2Gas: 9n });

      // What the writer's block transaction writes for its txs; the pool row is still there.
      await db('chain_tx_effects').insert({ tx_hash: toFieldHex(minedSoon.txHash), block_number: 1, tx_index: 0 });
      assert.equal(
        await db('txpool_txs')
          .count('* as n')
          .first()
          .then((r) => Number(r?.n)),
        2,
      );
      assert.equal(await view.pendingCount(), 1);
      assert.equal(await view.isPending(minedSoon.txHash), false);
      assert.deepEqual(await view.getTxStatus(minedSoon.txHash), undefined);
      assert.equal(await view.isPending(staying.txHash), true);
      assert.deepEqual(await view.getPendingTxs(10), [{ txHash: toFieldHex(staying.txHash) }]);
      assert.deepEqual(await view.getMaxPriorityFees(), { feePerDaGas: 0n, feePerL2Gas: 5n });
    } finally {
      await db.destroy();
    }
  });
});
