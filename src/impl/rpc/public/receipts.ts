/**
 * Receipts and tx effects of the public API (tag `transactions`, SPEC §3, §4.2): the receipt is
 * the chain's (`ChainQueries.getTxReceipt`), whose status comes from the one owner of tx status
 * (txpool/tx-status.ts: pool first, then chain). Submission and mempool reads live in transactions.ts.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import { toWireIndexedTxEffect, toWireTxReceipt } from '../../encoding/wire/blocks.ts';
import type { ChainReader } from './block-param.ts';

/** The handler members this module serves. */
export type ReceiptHandlers = Pick<PublicHandlers, 'getTxReceipt' | 'getTxEffect'>;

/** What the receipt handlers read: `engine.chain`. */
export interface ReceiptDeps {
  readonly chain: Pick<ChainReader, 'getTxReceipt' | 'getTxEffect'>;
}

/** Creates the receipt handlers. */
export function createReceiptHandlers({ chain }: ReceiptDeps): ReceiptHandlers {
  return {
    /** Handler for `node_getTxReceipt`. */
    async getTxReceipt(txHash) {
      return toWireTxReceipt(await chain.getTxReceipt(BigInt(txHash)));
    },

    /** Handler for `node_getTxEffect`: `null` unless the tx is in a block. */
    async getTxEffect(txHash) {
      const found = await chain.getTxEffect(BigInt(txHash));
      return found === undefined ? null : toWireIndexedTxEffect(found);
    },
  };
}
