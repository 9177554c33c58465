/**
 * Receipts and tx effects of the public API (tag `transactions`, SPEC §3, §4.2): a receipt joins
 * the chain (mined) with the mempool (pending / dropped). Submission and mempool reads live in
 * transactions.ts.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import type { PoolTxStatus } from '../../txpool/tx-pool.ts';
import { toWireIndexedTxEffect, toWireTxReceipt } from '../wire/blocks.ts';
import type { ChainReader } from './block-param.ts';

/** The handler members this module serves. */
export type ReceiptHandlers = Pick<PublicHandlers, 'getTxReceipt' | 'getTxEffect'>;

/** What the receipt handlers read: `engine.chain` and the mempool's `getTxStatus`. */
export interface ReceiptDeps {
  readonly chain: Pick<ChainReader, 'getTxReceipt' | 'getTxEffect'>;
  /** The mempool's view of a tx (`TxPool.getTxStatus`): pending, dropped with a reason, or unknown. */
  txStatus(txHash: bigint): Promise<PoolTxStatus>;
}

/** Creates the receipt handlers. */
export function createReceiptHandlers({ chain, txStatus }: ReceiptDeps): ReceiptHandlers {
  return {
    /** Handler for `node_getTxReceipt`: mined (chain) wins, then the pool's status, then the chain's drop record. */
    async getTxReceipt(txHash) {
      const hash = BigInt(txHash);
      const fromChain = await chain.getTxReceipt(hash);
      if (fromChain.status === 'mined') return toWireTxReceipt(fromChain);
      const pool = await txStatus(hash);
      if (pool?.status === 'pending') return toWireTxReceipt({ txHash: hash, status: 'pending' });
      if (pool?.status === 'dropped') return toWireTxReceipt({ txHash: hash, status: 'dropped', error: pool.reason });
      return toWireTxReceipt(fromChain);
    },

    /** Handler for `node_getTxEffect`: `null` unless the tx is in a block. */
    async getTxEffect(txHash) {
      const found = await chain.getTxEffect(BigInt(txHash));
      return found === undefined ? null : toWireIndexedTxEffect(found);
    },
  };
}
