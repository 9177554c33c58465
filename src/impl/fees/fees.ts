/**
 * What a tx pays, the one owner (docs/ARCHITECTURE.md, "Owner: fees"); the minimum fees per gas
 * over time are fee-model.ts beside it.
 *
 * - Inclusion: a tx's max fees per gas must cover the fees per gas asked (the node's current
 *   minimum for the pool, the block's for the builder) in both dimensions, and its fee payer must
 *   hold what it may be charged: the pool counts each pending tx's `maxFee` (`uncoveredTxs`, over all
 *   of a payer's pending txs), a block the fee itself.
 *   FeeJuice the tx claims for its own fee payer in setup (`setupClaim`) counts as held.
 * - Charge: fee = gas × fees per gas (`feeFor`). A private-only tx pays for its gas used; a tx with
 *   public calls for its `billedGas`, fixed before teardown runs. The fee leaves the fee payer's
 *   FeeJuice balance (`balanceAfterFee`).
 * - Credit: the block's fee recipient receives each tx's fee as a public data write of that tx
 *   (`creditFeeRecipient`), so the state stays derivable from block bodies.
 * - Priority: the pool and the builder order txs by `priorityFee`.
 * @module
 */
import { feeJuiceBalanceLeafSlot, PROTOCOL_CONTRACT_ADDRESSES } from '../chain/protocol.ts';
import type { TxEffect } from '../chain/types.ts';
import { functionSelectorFromSignature } from '../contracts/function-selector.ts';
import { getPublicCallRequests, getPublicCallsWithCalldata } from '../tx/tx-accessors.ts';
import type { Gas, GasFees, GasSettings, Tx } from '../tx/types.ts';

/** The reason's words when the fee payer cannot pay (4.1.2's `TX_ERROR_INSUFFICIENT_FEE_PAYER_BALANCE`). */
export const INSUFFICIENT_FEE_PAYER_BALANCE = 'Insufficient fee payer balance';

/** The fee for `gas` at `fees`: daGas·feePerDaGas + l2Gas·feePerL2Gas. */
export function feeFor(gas: Gas, fees: GasFees): bigint {
  return BigInt(gas.daGas) * fees.feePerDaGas + BigInt(gas.l2Gas) * fees.feePerL2Gas;
}

/** The most a tx can cost its fee payer: its gas limits at its max fees per gas (reference §9). */
export function maxFee(s: GasSettings): bigint {
  return feeFor(s.gasLimits, s.maxFeesPerGas);
}

/** The priority fee (reference §4.3): min(maxFeesPerGas.feePerL2Gas, maxPriorityFeesPerGas.feePerL2Gas). */
export function priorityFee(s: GasSettings): bigint {
  const a = s.maxFeesPerGas.feePerL2Gas,
    b = s.maxPriorityFeesPerGas.feePerL2Gas;
  return a < b ? a : b;
}

/** True when `maxFeesPerGas` covers `asked` in both dimensions. */
export function coversFees(maxFeesPerGas: GasFees, asked: GasFees): boolean {
  return maxFeesPerGas.feePerDaGas >= asked.feePerDaGas && maxFeesPerGas.feePerL2Gas >= asked.feePerL2Gas;
}

/**
 * The txs of one fee payer that `balance` does not cover, walked in the order given (the pool's
 * priority order): each spends its max fee (`feeLimit`) from what is left plus its own setup claim
 * (`claimAmount`); one that cannot is returned with what was available to it and spends nothing.
 */
export function uncoveredTxs<E extends { readonly feeLimit: bigint; readonly claimAmount: bigint }>(
  txs: readonly E[],
  balance: bigint,
): { entry: E; available: bigint }[] {
  const out: { entry: E; available: bigint }[] = [];
  let running = balance;
  for (const entry of txs) {
    const available = running + entry.claimAmount;
    if (available < entry.feeLimit) out.push({ entry, available });
    else running = available - entry.feeLimit;
  }
  return out;
}

/**
 * The gas a tx with public calls is billed for: private gas, the public gas used before teardown,
 * and teardown at its limits (Aztec fixes the fee before teardown runs, which may read it).
 */
export function billedGas(privateGasUsed: Gas, publicGasUsed: Gas, teardownGasLimits: Gas): Gas {
  return {
    daGas: privateGasUsed.daGas + publicGasUsed.daGas + teardownGasLimits.daGas,
    l2Gas: privateGasUsed.l2Gas + publicGasUsed.l2Gas + teardownGasLimits.l2Gas,
  };
}

/**
 * The fee payer's FeeJuice balance after paying `fee`, or undefined when the balance is short and
 * fees are enforced; unenforced (a simulation asked to skip it) the balance goes down to zero.
 */
export function balanceAfterFee(balance: bigint, fee: bigint, enforce = true): bigint | undefined {
  if (balance >= fee) return balance - fee;
  return enforce ? undefined : 0n;
}

/** Adds the fee to the recipient's FeeJuice balance: updates the tx's own write of that leaf, or appends one. */
export function creditFeeRecipient(
  effect: TxEffect,
  recipient: bigint,
  readPublicData: (leafSlot: bigint) => bigint,
): TxEffect {
  if (effect.transactionFee === 0n) return effect;
  const leafSlot = feeJuiceBalanceLeafSlot(recipient);
  const i = effect.publicDataWrites.findIndex((w) => w.leafSlot === leafSlot);
  const before = i >= 0 ? effect.publicDataWrites[i]!.value : readPublicData(leafSlot);
  const write = { leafSlot, value: before + effect.transactionFee };
  const writes =
    i >= 0 ? effect.publicDataWrites.map((w, j) => (j === i ? write : w)) : [...effect.publicDataWrites, write];
  return { ...effect, publicDataWrites: writes };
}

/** FeeJuice `_increase_public_balance(to, amount)`, the setup call of a bridged-fee claim. */
const INCREASE_PUBLIC_BALANCE_SELECTOR = BigInt(
  functionSelectorFromSignature('_increase_public_balance((Field),u128)'),
);

/**
 * The FeeJuice the tx claims for its own fee payer in a setup call (FeeJuice calling its own
 * `_increase_public_balance(feePayer, amount)`), which the balance rules count as held.
 */
export function setupClaim(tx: Tx): bigint {
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
