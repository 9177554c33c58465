/**
 * The one owner of tx status. A tx the node accepted is, at every moment, exactly one of:
 * **pending** (in the mempool), **mined** (in a block of the chain) or **dropped** (with a reason);
 * a hash the node never accepted (or whose drop record was pruned) is reported dropped with
 * `UNKNOWN_TX_REASON`, as Aztec does.
 *
 * - **Writes.** The chain (chain/chain-state.ts) hands every block commit and every unwind to the
 *   `TxStatusOwner` (the mempool, txpool/tx-pool.ts) *inside the block's own database
 *   transaction*: the block's txs leave the pool tables, the builder's refusals are recorded in the
 *   one dropped-tx table (`txpool_dropped`), the rest of the pool is revalidated against the state
 *   after the block, and an unwind re-admits or drops the unwound txs and drops every pending tx
 *   anchored in an unwound block — all in the same commit as the chain rows. The owner's in-memory
 *   view follows only after the commit (`CommitFollowUp`, run with no await in between).
 * - **Reads.** `resolveTxStatus` is the one decision every receipt goes through (writer, reader,
 *   follower): the pool's answer is read first, then the chain. A pool answer is never ahead of the
 *   database, so "pending, then mined" read in that order is simply mined, and a tx that left the
 *   pool is found mined or dropped by the reads after it (same transaction).
 * @module
 */
import type { Knex } from 'knex';
import type { L2Block } from '../chain/types.ts';

/** What the receipt of a tx the chain has not mined says, from the pool: pending, dropped with a reason, or unknown. */
export type PoolTxStatus =
  | { readonly status: 'pending' }
  | { readonly status: 'dropped'; readonly reason: string }
  | undefined;

/** The receipt error of a tx this node does not know (never accepted, or its record pruned) — Aztec's wording. */
export const UNKNOWN_TX_REASON = 'Tx dropped by P2P node';

/** Why a tx was dropped by a rollback with `force` (nodeAdmin_rollbackTo clears the P2P data). */
export const FORCED_ROLLBACK_REASON = 'Tx pool cleared by nodeAdmin_rollbackTo with force';

/** Runs after the chain's transaction committed, synchronously: moves the owner's in-memory view to what was committed. */
export type CommitFollowUp = () => void;

/** What an unwind tells the owner. */
export interface UnwindOptions {
  /** The new tip. */
  readonly target: number;
  /** nodeAdmin_rollbackTo with `force`: the pool is cleared (every pending and unwound tx dropped). */
  readonly force: boolean;
}

/** A tx the builder refused for good, recorded with the block. */
export interface DroppedTx {
  readonly txHash: bigint;
  readonly reason: string;
}

/** The owner of tx status as the chain sees it. */
export interface TxStatusOwner {
  /** Pending, dropped with the reason, or unknown to the pool (a mined tx is unknown here: the chain answers for it). */
  getTxStatus(txHash: bigint): Promise<PoolTxStatus>;
  /** Runs a block commit or an unwind so that no other status change of the owner interleaves with it. */
  serializeCommit<T>(fn: () => Promise<T>): Promise<T>;
  /** Inside block `block`'s transaction: its txs leave the pool, `dropped` are recorded, the rest is revalidated. */
  inBlockCommit(trx: Knex.Transaction, block: L2Block, dropped: readonly DroppedTx[]): Promise<CommitFollowUp>;
  /** Inside an unwind's transaction (the chain rows of `removed` are already deleted): re-admit or drop their txs. */
  inUnwind(trx: Knex.Transaction, removed: readonly L2Block[], opts: UnwindOptions): Promise<CommitFollowUp>;
  /** After an unwind committed and the latest-state cache was reloaded: revalidate the pool against it at once. */
  afterUnwind?(): Promise<void>;
}

/** A receipt's status: mined (with where), pending, or dropped with the reason. */
export type ResolvedTxStatus<M> =
  | { readonly status: 'mined'; readonly mined: M }
  | { readonly status: 'pending' }
  | { readonly status: 'dropped'; readonly reason: string };

/**
 * The one decision of a tx's status. The pool is asked first, then the chain: the pool never runs
 * ahead of the database, and a tx leaves the pool in the same transaction that mines or drops it,
 * so reading in this order never reports a tx both mined and pending, nor an accepted tx unknown.
 */
export async function resolveTxStatus<M>(
  txHash: bigint,
  pool: (txHash: bigint) => Promise<PoolTxStatus>,
  findMined: (txHash: bigint) => Promise<M | undefined>,
): Promise<ResolvedTxStatus<M>> {
  const inPool = await pool(txHash);
  const mined = await findMined(txHash);
  if (mined !== undefined) return { status: 'mined', mined };
  if (inPool?.status === 'pending') return inPool;
  if (inPool?.status === 'dropped') return inPool;
  // Not pending when first asked and not mined now: a drop recorded meanwhile is found by asking again.
  const again = inPool === undefined ? await pool(txHash) : undefined;
  if (again !== undefined) return again;
  return { status: 'dropped', reason: UNKNOWN_TX_REASON };
}
