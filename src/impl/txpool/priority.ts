/**
 * What the pool knows about a pending tx without decoding it again (`PoolEntry`), its priority
 * fee and ordering (reference §4.3: min of the L2 max fee and L2 max priority fee, ties by tx
 * hash), the price bump, and the FeeJuice claim a tx pays itself in setup.
 * @module
 */
import { functionSelectorFromSignature } from '../contracts/function-selector.ts';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../chain/protocol.ts';
import {
  computeBlockHeaderHash,
  computeFeeLimit,
  getGasSettings,
  getNullifiers,
  getPublicCallRequests,
  getPublicCallsWithCalldata,
} from '../tx/index.ts';
import type { GasFees, Tx } from '../tx/index.ts';

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

/** FeeJuice `_increase_public_balance(to, amount)`, the setup call of a bridged-fee claim. */
const INCREASE_PUBLIC_BALANCE_SELECTOR = BigInt(
  functionSelectorFromSignature('_increase_public_balance((Field),u128)'),
);

/** Returns the priority fee: min(maxFeesPerGas.feePerL2Gas, maxPriorityFeesPerGas.feePerL2Gas). */
export function getTxPriorityFee(tx: Tx): bigint {
  const g = getGasSettings(tx);
  const a = g.maxFeesPerGas.feePerL2Gas,
    b = g.maxPriorityFeesPerGas.feePerL2Gas;
  return a < b ? a : b;
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

/**
 * Returns the FeeJuice the tx claims for its own fee payer in a setup call (FeeJuice calling its
 * own `_increase_public_balance(feePayer, amount)`), which the balance rules count as available.
 */
export function getClaimAmount(tx: Tx): bigint {
  const feeJuice = PROTOCOL_CONTRACT_ADDRESSES.feeJuice;
  const setupCount = getPublicCallRequests(tx.data).setup.length;
  let total = 0n;
  for (const { request, calldata } of getPublicCallsWithCalldata(tx).slice(0, setupCount)) {
    if (request.contractAddress !== feeJuice || request.msgSender !== feeJuice) continue;
    if (
      calldata[0] === INCREASE_PUBLIC_BALANCE_SELECTOR &&
      calldata[1] === tx.data.feePayer &&
      calldata[2] !== undefined
    ) {
      total += calldata[2];
    }
  }
  return total;
}

/** Builds the index entry of a decoded tx. */
export function toPoolEntry(tx: Tx, seq: number): PoolEntry {
  const g = getGasSettings(tx);
  return {
    txHash: tx.txHash,
    priorityFee: getTxPriorityFee(tx),
    feePayer: tx.data.feePayer,
    feeLimit: computeFeeLimit(g),
    claimAmount: getClaimAmount(tx),
    nullifiers: getNullifiers(tx),
    expirationTimestamp: tx.data.expirationTimestamp,
    maxPriorityFeesPerGas: g.maxPriorityFeesPerGas,
    anchorBlockHash: computeBlockHeaderHash(tx.data.constants.anchorBlockHeader),
    seq,
  };
}
