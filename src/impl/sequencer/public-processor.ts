/**
 * One tx's public part inside a block (or a simulation): runs `executePublicTx` over the block's
 * state overlay and turns the result into the TxEffect that goes into the block. When app logic
 * reverts, the executor already discarded the revertible note hashes, nullifiers and messages;
 * here the revertible private logs and contract class logs are dropped too (Aztec keeps only the
 * non-revertible side of a reverted tx), so a reverted deployment publishes nothing.
 * Throws PublicTxInvalidError (from the executor) when the tx cannot be included at all.
 * @module
 */
import { feeJuiceBalanceLeafSlot, l2ToL1MessageHash } from '../chain/protocol.ts';
import { type GlobalVariables, type PublicDataWrite, RevertCode, type TxEffect } from '../chain/types.ts';
import type { FunctionSignatureRegistry } from '../contracts/function-selector.ts';
import { publishedContracts } from '../contracts/registry-events.ts';
import type { AllowedElement } from '../execution/allow-list.ts';
import type { PublicTxResult } from '../execution/public-tx-executor.ts';
import { executePublicTx } from '../execution/public-tx-executor.ts';
import type { TxPublicPart } from '../execution/tx-public-input.ts';
import type { PublicStateSource } from '../execution/types.ts';
import { balanceAfterFee, feeFor } from '../fees/fees.ts';
import type { BlockStateOverlay } from './block-state-overlay.ts';
import type { MinableTx } from './tx-source.ts';

/** Node-side settings of public execution. */
export interface PublicExecutionOptions {
  /** The setup allow-list in force (the same list the tx validator enforces). */
  allowList(): readonly AllowedElement[];
  /** Names functions in revert reasons. */
  readonly signatures?: FunctionSignatureRegistry;
}

/** A processed tx: its block effect and the executor's full result. */
export interface ProcessedPublicTx {
  readonly effect: TxEffect;
  readonly result: PublicTxResult;
}

/**
 * The source as the tx's public calls see it: contracts the tx itself publishes in its private
 * part are callable by its own public calls (deploy and initialize in one tx), as Aztec's public
 * processor adds a tx's new contracts before executing it.
 */
function withOwnDeployments(source: BlockStateOverlay, tx: MinableTx): PublicStateSource {
  const own = publishedContracts(tx);
  if (own.instances.length === 0 && own.classes.length === 0) return source;
  return {
    readPublicData: (s) => source.readPublicData(s),
    hasNullifier: (n) => source.hasNullifier(n),
    async getContract(address) {
      const instance = own.instances.find((i) => i.address === address);
      if (instance === undefined) return source.getContract(address);
      const cls =
        own.classes.find((c) => c.id === instance.currentContractClassId) ??
        (await source.getContractClass(instance.currentContractClassId));
      return cls && { classId: cls.id, packedBytecode: cls.packedBytecode };
    },
  };
}

/** Runs a tx with public calls against `source` as part of the block with `globals`. */
export async function processPublicTx(
  tx: MinableTx & { readonly publicPart: TxPublicPart },
  source: BlockStateOverlay,
  globals: GlobalVariables,
  opts: PublicExecutionOptions & { readonly skipFeeEnforcement?: boolean },
): Promise<ProcessedPublicTx> {
  const part = tx.publicPart;
  const result = await executePublicTx(part.input, {
    source: withOwnDeployments(source, tx),
    env: {
      chainId: globals.chainId,
      version: globals.version,
      blockNumber: globals.blockNumber,
      timestamp: globals.timestamp,
      gasFees: globals.gasFees,
    },
    allowList: opts.allowList(),
    ...(opts.signatures ? { signatures: opts.signatures } : {}),
    ...(opts.skipFeeEnforcement ? { skipFeeEnforcement: true } : {}),
  });
  const appReverted =
    result.revertCode === RevertCode.APP_LOGIC_REVERTED || result.revertCode === RevertCode.BOTH_REVERTED;
  const keep = <T>(all: readonly T[], revertible: number) =>
    appReverted ? all.slice(0, all.length - revertible) : all;
  const e = result.effects;
  return {
    result,
    effect: {
      revertCode: result.revertCode,
      txHash: tx.txHash,
      transactionFee: result.transactionFee,
      noteHashes: e.noteHashes,
      nullifiers: e.nullifiers,
      l2ToL1Msgs: e.l2ToL1Msgs.map((m) =>
        l2ToL1MessageHash({
          sender: m.contractAddress,
          recipient: m.message.recipient,
          content: m.message.content,
          rollupVersion: globals.version,
          chainId: globals.chainId,
        }),
      ),
      publicDataWrites: e.publicDataWrites,
      privateLogs: keep(tx.privateLogs, part.revertiblePrivateLogs).map((l) => ({
        fields: l.fields,
        emittedLength: l.emittedLength,
      })),
      publicLogs: e.publicLogs,
      contractClassLogs: keep(tx.contractClassLogs, part.revertibleContractClassLogs).map((l) => ({
        contractAddress: l.contractAddress,
        fields: l.fields,
        emittedLength: l.emittedLength,
      })),
    },
  };
}

/**
 * A private-only tx's effect, charged for its gas used from `payerBalance` (fees/fees.ts); undefined
 * when the fee payer cannot pay and fees are enforced.
 */
export function privateTxEffect(
  tx: MinableTx,
  globals: GlobalVariables,
  payerBalance: bigint,
  enforceFee = true,
): TxEffect | undefined {
  const g = globals;
  const fee = feeFor(tx.gasUsed, g.gasFees);
  const after = balanceAfterFee(payerBalance, fee, enforceFee);
  if (after === undefined) return undefined;
  const writes: PublicDataWrite[] = fee > 0n ? [{ leafSlot: feeJuiceBalanceLeafSlot(tx.feePayer), value: after }] : [];
  return {
    revertCode: 0,
    txHash: tx.txHash,
    transactionFee: fee,
    noteHashes: tx.noteHashes,
    nullifiers: tx.nullifiers,
    l2ToL1Msgs: tx.l2ToL1Msgs.map((m) => l2ToL1MessageHash({ ...m, rollupVersion: g.version, chainId: g.chainId })),
    publicDataWrites: writes,
    privateLogs: tx.privateLogs.map((l) => ({ fields: l.fields, emittedLength: l.emittedLength })),
    publicLogs: [],
    contractClassLogs: tx.contractClassLogs.map((l) => ({
      contractAddress: l.contractAddress,
      fields: l.fields,
      emittedLength: l.emittedLength,
    })),
  };
}
