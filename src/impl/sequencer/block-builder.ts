/**
 * Builds one block from candidate txs over a block-level state overlay (the latest state plus the
 * txs already placed). A tx with public calls runs through the public VM (public-processor.ts):
 * setup, app logic (reverts are included with their revert code), teardown, the fee charged
 * whatever reverted; a tx whose public part is invalid (PublicTxInvalidError) is dropped with the
 * reason, never half-applied. What a tx must offer, what it is charged and the credit to the
 * block's fee recipient are fees/fees.ts's rules. Txs that do not fit this block, or whose max
 * fees per gas are below the block's, stay pending. The result is a `ProposedBlock`: the chain applies it to the trees
 * and stores it (with the contract index) in one transaction.
 *
 * spongeBlobHash: Aztec absorbs the checkpoint's blob fields into a Poseidon2 sponge; we compute
 * poseidon2Hash of this block's blob fields (`blockBlobFields`), which commits to the same data.
 * @module
 */

import type { ProposedBlock } from '../chain/chain-state.ts';
import type { ContractLookup } from '../chain/contract-index.ts';
import { feeJuiceBalanceLeafSlot } from '../chain/protocol.ts';
import type { GlobalVariables, TxEffect } from '../chain/types.ts';
import { poseidon2HashesOffThread } from '../crypto/poseidon2-off-thread.ts';
import { EventLoopBudget } from '../world-state/event-loop-budget.ts';
import { PublicTxInvalidError } from '../execution/public-tx-executor.ts';
import { coversFees, creditFeeRecipient, INSUFFICIENT_FEE_PAYER_BALANCE } from '../fees/fees.ts';
import { isExpiredFor } from '../tx/tx-validation.ts';
import type { CommittedState } from './block-state-overlay.ts';
import { BlockStateOverlay } from './block-state-overlay.ts';
import type { PublicExecutionOptions } from './public-processor.ts';
import { privateTxEffect, processPublicTx } from './public-processor.ts';
import type { MinableTx } from './tx-source.ts';

/** Per-block limits. */
export interface BlockLimits {
  readonly maxTxsPerBlock: number;
  readonly maxL2GasPerBlock: number;
  readonly maxDaGasPerBlock: number;
}

/** Why a tx was dropped instead of mined. */
export const DropReason = {
  ANCHOR_NOT_IN_CHAIN: 'Block header not found',
  EXPIRED: 'Invalid expiration timestamp',
  PUBLIC_CALLS:
    'Tx has public calls but no public part to run (calldata missing); rejected without applying any effect',
  EXISTING_NULLIFIER: 'Existing nullifier',
  INSUFFICIENT_BALANCE: INSUFFICIENT_FEE_PAYER_BALANCE,
} as const;

/** The latest committed state as block building reads it: nullifiers and public data (synchronously), contracts. */
export interface SelectionState extends CommittedState {
  readonly contracts: ContractLookup;
  /** True when the block hash is in the chain this block extends (a tx's anchor must be). */
  isInChain?(blockHash: bigint): Promise<boolean>;
}

/** Inputs of a block build. */
export interface BlockBuildInput {
  readonly globals: GlobalVariables;
  readonly candidates: readonly MinableTx[];
  readonly limits: BlockLimits;
  readonly l1ToL2Messages: readonly bigint[] | undefined;
  readonly checkpointNumber: number;
  readonly indexWithinCheckpoint: number;
}

/** The fields a block contributes to its checkpoint's blobs. */
export function blockBlobFields(effects: readonly TxEffect[]): bigint[] {
  return effects.flatMap((e) => [
    e.txHash,
    e.transactionFee,
    ...e.noteHashes,
    ...e.nullifiers,
    ...e.l2ToL1Msgs,
    ...e.publicDataWrites.flatMap((w) => [w.leafSlot, w.value]),
    ...e.privateLogs.flatMap((l) => l.fields.slice(0, l.emittedLength)),
    ...e.contractClassLogs.flatMap((l) => l.fields.slice(0, l.emittedLength)),
  ]);
}

/** Selects, executes and charges txs; returns the block to apply. */
export async function buildBlock(
  ws: SelectionState,
  input: BlockBuildInput,
  vm: PublicExecutionOptions,
): Promise<ProposedBlock> {
  const g = input.globals;
  const state = new BlockStateOverlay(ws, ws.contracts);
  const readPublicData = (leafSlot: bigint) => state.readPublicData(leafSlot);
  const effects: TxEffect[] = [];
  const dropped: { txHash: bigint; reason: string }[] = [];
  let l2Gas = 0,
    daGas = 0,
    totalFees = 0n;
  // Selection runs in one stretch of the event loop otherwise (issue #21: no stall over 20 ms).
  const budget = new EventLoopBudget();

  for (const tx of input.candidates) {
    await budget.turn();
    if (effects.length >= input.limits.maxTxsPerBlock) break;
    if (tx.publicCallCount > 0 && tx.publicPart === undefined) {
      dropped.push({ txHash: tx.txHash, reason: DropReason.PUBLIC_CALLS });
      continue;
    }
    // A tx proven against a block this chain does not hold, or expired by this block, can never be in it.
    if (tx.anchorBlockHash !== undefined && ws.isInChain !== undefined && !(await ws.isInChain(tx.anchorBlockHash))) {
      dropped.push({ txHash: tx.txHash, reason: DropReason.ANCHOR_NOT_IN_CHAIN });
      continue;
    }
    if (
      tx.expirationTimestamp !== undefined &&
      isExpiredFor(tx.expirationTimestamp, { nextBlockTimestamp: g.timestamp, nextBlockNumber: g.blockNumber })
    ) {
      dropped.push({ txHash: tx.txHash, reason: DropReason.EXPIRED });
      continue;
    }
    if (new Set(tx.nullifiers).size !== tx.nullifiers.length || tx.nullifiers.some((n) => state.hasNullifier(n))) {
      dropped.push({ txHash: tx.txHash, reason: DropReason.EXISTING_NULLIFIER });
      continue;
    }
    // Too big or too cheap for this block: stays pending for a later one. A public tx may use up to its limits.
    const bound = tx.publicPart ? tx.gasSettings.gasLimits : tx.gasUsed;
    if (l2Gas + bound.l2Gas > input.limits.maxL2GasPerBlock || daGas + bound.daGas > input.limits.maxDaGasPerBlock)
      continue;
    if (!coversFees(tx.gasSettings.maxFeesPerGas, g.gasFees)) continue;

    let effect: TxEffect, used: { daGas: number; l2Gas: number };
    if (tx.publicPart) {
      try {
        const processed = await processPublicTx({ ...tx, publicPart: tx.publicPart }, state, g, vm);
        effect = creditFeeRecipient(processed.effect, g.feeRecipient, readPublicData);
        used = processed.result.gasUsed.totalGas;
      } catch (err) {
        if (!(err instanceof PublicTxInvalidError)) throw err;
        dropped.push({ txHash: tx.txHash, reason: err.message });
        continue;
      }
    } else {
      const charged = privateTxEffect(tx, g, readPublicData(feeJuiceBalanceLeafSlot(tx.feePayer)));
      if (charged === undefined) {
        dropped.push({ txHash: tx.txHash, reason: DropReason.INSUFFICIENT_BALANCE });
        continue;
      }
      effect = creditFeeRecipient(charged, g.feeRecipient, readPublicData);
      used = tx.gasUsed;
    }
    state.apply(effect);
    l2Gas += used.l2Gas;
    daGas += used.daGas;
    totalFees += effect.transactionFee;
    effects.push(effect);
  }

  // The blob fields of up to a few hundred txs: hashed on the Poseidon2 worker, off the event loop.
  const [spongeBlobHash] = await poseidon2HashesOffThread([blockBlobFields(effects)]);
  return {
    globals: g,
    txEffects: effects,
    l1ToL2Messages: input.l1ToL2Messages,
    spongeBlobHash: spongeBlobHash!,
    totalFees,
    manaUsed: BigInt(l2Gas),
    checkpointNumber: input.checkpointNumber,
    indexWithinCheckpoint: input.indexWithinCheckpoint,
    dropped,
  };
}
