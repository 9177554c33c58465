/**
 * The pool's rules as pure decisions over the index (reference §4.3, TxPoolV2): what an incoming
 * tx displaces or why it is refused (nullifier conflict with replace-by-fee, fee payer balance
 * across its pending txs, capacity with the price bump), and which pending txs a new block
 * makes invalid. The pool applies the decision; nothing here writes.
 * @module
 */
import { isExpiredFor, TX_ERROR } from '../tx/index.ts';
import { PoolRejection } from './errors.ts';
import type { PoolIndex } from './pool-index.ts';
import { uncoveredTxs } from '../fees/fees.ts';
import { comparePriority, minimumPriceBumpFee } from './priority.ts';
import type { PoolEntry } from './priority.ts';

/** A pending tx to remove, with the reason recorded for its receipt. */
export interface Eviction {
  readonly txHash: bigint;
  readonly reason: string;
}

/** The knobs of the rules. */
export interface PoolLimits {
  /** 0 = unlimited. */
  readonly maxPendingTxCount: number;
  /** Percent an incoming fee must beat a displaced tx's fee by (at least +1). */
  readonly priceBumpPercent: bigint;
}

/** Drop reasons the pool records (shown in `node_getTxReceipt` as the dropped tx's error). */
export const DROP_REASON = {
  LOW_PRIORITY: 'Evicted from the mempool: pool full and a tx with a higher priority fee arrived',
  INSUFFICIENT_BALANCE: TX_ERROR.INSUFFICIENT_FEE_PAYER_BALANCE,
  EXISTING_NULLIFIER: TX_ERROR.EXISTING_NULLIFIER,
  EXPIRED: TX_ERROR.INVALID_EXPIRATION_TIMESTAMP,
  replacedBy: (txHash: string) => `Replaced by tx ${txHash} with a higher priority fee (nullifier conflict)`,
} as const;

/**
 * Decides the admission of `incoming` (not yet pending): returns the pending txs it evicts, or
 * throws `PoolRejection` (NULLIFIER_CONFLICT, then INSUFFICIENT_FEE_PAYER_BALANCE, then
 * LOW_PRIORITY_FEE — the first rule that refuses wins).
 */
export function planAdmission(
  index: PoolIndex,
  incoming: PoolEntry,
  incomingHashHex: string,
  limits: PoolLimits,
  balanceOf: (feePayer: bigint) => bigint,
): Eviction[] {
  const evicted = new Map<bigint, string>();
  for (const n of incoming.nullifiers) {
    const other = index.ownerOfNullifier(n);
    if (other === undefined || evicted.has(other.txHash)) continue;
    const min = minimumPriceBumpFee(other.priorityFee, limits.priceBumpPercent);
    if (incoming.priorityFee < min) throw PoolRejection.nullifierConflict(other.txHash, min, incoming.priorityFee);
    evicted.set(other.txHash, DROP_REASON.replacedBy(incomingHashHex));
  }
  const pendingOfPayer = index.ofFeePayer(incoming.feePayer).filter((e) => !evicted.has(e.txHash));
  const balance = balanceOf(incoming.feePayer);
  for (const { entry, available } of uncoveredByBalance([...pendingOfPayer, incoming], balance)) {
    if (entry === incoming)
      throw PoolRejection.insufficientBalance(incoming.feePayer, balance, available, incoming.feeLimit);
    evicted.set(entry.txHash, DROP_REASON.INSUFFICIENT_BALANCE);
  }
  if (limits.maxPendingTxCount > 0) {
    const except = new Set(evicted.keys());
    while (index.size - except.size >= limits.maxPendingTxCount) {
      const lowest = index.lowest(except)!;
      const min = minimumPriceBumpFee(lowest.priorityFee, limits.priceBumpPercent);
      if (incoming.priorityFee < min) throw PoolRejection.lowPriorityFee(min, incoming.priorityFee);
      except.add(lowest.txHash);
      evicted.set(lowest.txHash, DROP_REASON.LOW_PRIORITY);
    }
  }
  return [...evicted].map(([txHash, reason]) => ({ txHash, reason }));
}

/** One fee payer's pending txs that its balance does not cover, highest priority first (fees/fees.ts). */
export function uncoveredByBalance(
  txs: readonly PoolEntry[],
  balance: bigint,
): { entry: PoolEntry; available: bigint }[] {
  return uncoveredTxs([...txs].sort(comparePriority), balance);
}

/** What the after-block rules read from the new chain state. */
export interface PostBlockState {
  hasNullifier(nullifier: bigint): boolean;
  readonly nextBlockTimestamp: bigint;
  readonly nextBlockNumber?: number;
  balanceOf(feePayer: bigint): bigint;
}

/** Returns the pending txs a new block made invalid: nullifier now in the tree, expired, or no longer covered by the balance. */
export function planRevalidation(index: PoolIndex, state: PostBlockState): Eviction[] {
  const evicted = new Map<bigint, string>();
  for (const e of index.inPriorityOrder()) {
    if (e.nullifiers.some((n) => state.hasNullifier(n))) evicted.set(e.txHash, DROP_REASON.EXISTING_NULLIFIER);
    else if (isExpiredFor(e.expirationTimestamp, state)) evicted.set(e.txHash, DROP_REASON.EXPIRED);
  }
  for (const payer of index.feePayers()) {
    const txs = index.ofFeePayer(payer).filter((e) => !evicted.has(e.txHash));
    for (const { entry } of uncoveredByBalance(txs, state.balanceOf(payer)))
      evicted.set(entry.txHash, DROP_REASON.INSUFFICIENT_BALANCE);
  }
  return [...evicted].map(([txHash, reason]) => ({ txHash, reason }));
}

/** Returns the lowest-priority txs to evict so that at most `max` remain (0 = unlimited). */
export function planShrink(index: PoolIndex, max: number): Eviction[] {
  if (max <= 0 || index.size <= max) return [];
  return index
    .inPriorityOrder()
    .slice(max)
    .map((e) => ({ txHash: e.txHash, reason: DROP_REASON.LOW_PRIORITY }));
}
