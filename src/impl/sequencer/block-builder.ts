/**
 * Builds one block from candidate txs: drops txs that can never be mined (public calls before the
 * public VM exists, nullifiers already spent, fee payer unable to pay), leaves txs that do not fit
 * this block pending, charges each included tx `gasUsed × gasFees` from its fee payer's FeeJuice
 * balance and credits the block's fee recipient — both as public data writes of the tx, so the
 * state stays derivable from block bodies. The result is a `ProposedBlock`: the chain applies it
 * to the trees and stores it in one transaction, which fills in the state, hash and archive.
 *
 * spongeBlobHash: Aztec absorbs the checkpoint's blob fields into a Poseidon2 sponge; we compute
 * poseidon2Hash of this block's blob fields (`blockBlobFields`), which commits to the same data.
 * @module
 */
import { poseidon2Hash } from '../crypto/poseidon2.ts';
import type { ProposedBlock } from '../chain/chain-state.ts';
import { feeJuiceBalanceLeafSlot, l2ToL1MessageHash } from '../chain/protocol.ts';
import type { GlobalVariables, PublicDataWrite, TxEffect } from '../chain/types.ts';
import type { MinableTx } from './tx-source.ts';

/** Per-block limits. */
export interface BlockLimits {
  readonly maxTxsPerBlock: number;
  readonly maxL2GasPerBlock: number;
  readonly maxDaGasPerBlock: number;
}

/** Why a tx was dropped instead of mined. */
export const DropReason = {
  PUBLIC_CALLS: 'Tx has public calls, which this node cannot execute yet (no public VM); rejected without applying any effect',
  EXISTING_NULLIFIER: 'Existing nullifier',
  INSUFFICIENT_BALANCE: 'Insufficient fee payer balance',
} as const;

/** The latest committed state as block selection reads it (synchronously, per tx). */
export interface SelectionState {
  hasNullifier(nullifier: bigint): boolean;
  readPublicData(leafSlot: bigint): bigint;
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
    e.txHash, e.transactionFee, ...e.noteHashes, ...e.nullifiers, ...e.l2ToL1Msgs,
    ...e.publicDataWrites.flatMap((w) => [w.leafSlot, w.value]),
    ...e.privateLogs.flatMap((l) => l.fields.slice(0, l.emittedLength)),
    ...e.contractClassLogs.flatMap((l) => l.fields.slice(0, l.emittedLength)),
  ]);
}

/** Selects and charges txs; returns the block to apply. */
export function buildBlock(ws: SelectionState, input: BlockBuildInput): ProposedBlock {
  const g = input.globals;
  const balances = new Map<bigint, bigint>();
  const balanceOf = (account: bigint) => balances.get(account) ?? ws.readPublicData(feeJuiceBalanceLeafSlot(account));
  const spent = new Set<bigint>();
  const effects: TxEffect[] = [];
  const dropped: { txHash: bigint; reason: string }[] = [];
  let l2Gas = 0, daGas = 0, totalFees = 0n;

  for (const tx of input.candidates) {
    if (effects.length >= input.limits.maxTxsPerBlock) break;
    if (tx.publicCallCount > 0) { dropped.push({ txHash: tx.txHash, reason: DropReason.PUBLIC_CALLS }); continue; }
    if (new Set(tx.nullifiers).size !== tx.nullifiers.length || tx.nullifiers.some((n) => spent.has(n) || ws.hasNullifier(n))) { dropped.push({ txHash: tx.txHash, reason: DropReason.EXISTING_NULLIFIER }); continue; }
    // Too big or too cheap for this block: stays pending for a later one.
    if (l2Gas + tx.gasUsed.l2Gas > input.limits.maxL2GasPerBlock || daGas + tx.gasUsed.daGas > input.limits.maxDaGasPerBlock) continue;
    const max = tx.gasSettings.maxFeesPerGas;
    if (max.feePerL2Gas < g.gasFees.feePerL2Gas || max.feePerDaGas < g.gasFees.feePerDaGas) continue;
    const fee = BigInt(tx.gasUsed.daGas) * g.gasFees.feePerDaGas + BigInt(tx.gasUsed.l2Gas) * g.gasFees.feePerL2Gas;
    const payerBalance = balanceOf(tx.feePayer);
    if (payerBalance < fee) { dropped.push({ txHash: tx.txHash, reason: DropReason.INSUFFICIENT_BALANCE }); continue; }

    const writes: PublicDataWrite[] = [];
    if (fee > 0n) {
      balances.set(tx.feePayer, payerBalance - fee);
      balances.set(g.feeRecipient, balanceOf(g.feeRecipient) + fee);
      writes.push({ leafSlot: feeJuiceBalanceLeafSlot(tx.feePayer), value: balances.get(tx.feePayer)! });
      if (g.feeRecipient !== tx.feePayer) writes.push({ leafSlot: feeJuiceBalanceLeafSlot(g.feeRecipient), value: balances.get(g.feeRecipient)! });
    }
    for (const n of tx.nullifiers) spent.add(n);
    l2Gas += tx.gasUsed.l2Gas;
    daGas += tx.gasUsed.daGas;
    totalFees += fee;
    effects.push({
      revertCode: 0, txHash: tx.txHash, transactionFee: fee,
      noteHashes: tx.noteHashes, nullifiers: tx.nullifiers,
      l2ToL1Msgs: tx.l2ToL1Msgs.map((m) => l2ToL1MessageHash({ ...m, rollupVersion: g.version, chainId: g.chainId })),
      publicDataWrites: writes, privateLogs: tx.privateLogs.map((l) => ({ fields: l.fields, emittedLength: l.emittedLength })),
      publicLogs: [], contractClassLogs: tx.contractClassLogs.map((l) => ({ contractAddress: l.contractAddress, fields: l.fields, emittedLength: l.emittedLength })),
    });
  }

  return {
    globals: g, txEffects: effects, l1ToL2Messages: input.l1ToL2Messages, spongeBlobHash: poseidon2Hash(blockBlobFields(effects)),
    totalFees, manaUsed: BigInt(l2Gas), checkpointNumber: input.checkpointNumber, indexWithinCheckpoint: input.indexWithinCheckpoint, dropped,
  };
}
