/**
 * What the pool knows about a pending tx without decoding it again (`PoolEntry`, its fees from
 * fees/fees.ts), its ordering (priority fee, ties by tx hash, reference §4.3) and the price bump.
 * @module
 */
import { maxFee, priorityFee, setupClaim } from '../fees/fees.ts';
import type { GasFees, Tx } from '../tx/index.ts';
import { computeBlockHeaderHash, getGasSettings, getNullifiers } from '../tx/index.ts';

/** A pending tx as the pool indexes it. */
export interface PoolEntry {
  readonly txHash: bigint;
  readonly priorityFee: bigint;
  readonly feePayer: bigint;
  /** gas limits × max fees per gas: the most the tx can cost its fee payer. */
  readonly feeLimit: bigint;
  /** FeeJuice the tx itself claims for its fee payer in setup (bridged funds), else 0. */
  readonly claimAmount: bigint;
  readonly nullifiers: readonly bigint[];
  readonly expirationTimestamp: bigint;
  readonly maxPriorityFeesPerGas: GasFees;
  /** Hash of the block header the tx is anchored at: the tx is valid only while that block is in the chain. */
  readonly anchorBlockHash: bigint;
  /** Insertion order, for a stable answer among equal txs across restarts. */
  readonly seq: number;
}

/** Orders entries highest priority first; equal fees go by tx hash as a field, lower first. */
export function comparePriority(
  a: Pick<PoolEntry, 'priorityFee' | 'txHash'>,
  b: Pick<PoolEntry, 'priorityFee' | 'txHash'>,
): number {
  if (a.priorityFee !== b.priorityFee) return a.priorityFee > b.priorityFee ? -1 : 1;
  return a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : 0;
}

/** Returns the fee needed to displace a tx paying `existing`: existing + max(existing·pct/100, 1). */
export function minimumPriceBumpFee(existing: bigint, bumpPercent: bigint): bigint {
  const bump = (existing * bumpPercent) / 100n;
  return existing + (bump > 1n ? bump : 1n);
}

/** Builds the index entry of a decoded tx. */
export function toPoolEntry(tx: Tx, seq: number): PoolEntry {
  const g = getGasSettings(tx);
  return {
    txHash: tx.txHash,
    priorityFee: priorityFee(g),
    feePayer: tx.data.feePayer,
    feeLimit: maxFee(g),
    claimAmount: setupClaim(tx),
    nullifiers: getNullifiers(tx),
    expirationTimestamp: tx.data.expirationTimestamp,
    maxPriorityFeesPerGas: g.maxPriorityFeesPerGas,
    anchorBlockHash: computeBlockHeaderHash(tx.data.constants.anchorBlockHeader),
    seq,
  };
}
