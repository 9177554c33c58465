/**
 * Runs a tx's public part in Aztec's phases: setup (non-revertible, allow-listed), app logic
 * (revertible as a whole), teardown (revertible on its own), then the protocol fee payment. Yields
 * the revert code, gas per phase, the fee, return values and the tx's side effects.
 * @module
 */
import { feeJuiceBalanceLeafSlot } from '../chain/protocol.ts';
import { RevertCode } from '../chain/types.ts';
import type { FunctionSignatureRegistry } from '../contracts/function-selector.ts';
import { computeNoteHashNonce, computeUniqueNoteHash } from '../contracts/siloing.ts';
import type { PublicCallRequest } from '../tx/types.ts';
import { balanceAfterFee, billedGas as billedGasOf, feeFor, INSUFFICIENT_FEE_PAYER_BALANCE } from '../fees/fees.ts';
import type { AllowedElement } from './allow-list.ts';
import { isAllowedSetupCall } from './allow-list.ts';
import { addGas, subGas, ZERO_GAS } from './gas.ts';
import { executePublicCall } from './interpreter.ts';
import { JournaledState } from './journaled-state.ts';
import type {
  CallEnvironment,
  Gas,
  PublicCallResult,
  PublicCallRevert,
  PrivateEffects,
  PublicStateSource,
  SideEffects,
} from './types.ts';

/** A public call request with its calldata (calldata[0] is the selector) in place of the calldata's hash. */
export interface EnqueuedCall extends Omit<PublicCallRequest, 'calldataHash'> {
  readonly calldata: readonly bigint[];
}

/** Everything the executor needs about one tx. */
export interface PublicTxInput {
  readonly setupCalls: readonly EnqueuedCall[];
  readonly appLogicCalls: readonly EnqueuedCall[];
  readonly teardownCall: EnqueuedCall | undefined;
  readonly gasLimits: Gas;
  readonly teardownGasLimits: Gas;
  /** Gas used by private execution, NOT counting the teardown gas limits. */
  readonly privateGasUsed: Gas;
  readonly nonRevertible: PrivateEffects;
  readonly revertible: PrivateEffects;
  readonly feePayer: bigint;
}

/** The node-side context: state, block values, allow-list, options. */
export interface PublicTxContext {
  readonly source: PublicStateSource;
  readonly env: Omit<CallEnvironment, 'transactionFee'>;
  readonly allowList: readonly AllowedElement[];
  readonly signatures?: FunctionSignatureRegistry;
  /** Skip the fee payer balance check (simulation); the fee is still deducted down to zero. */
  readonly skipFeeEnforcement?: boolean;
}

/**
 * Gas per PublicSimulationOutput.gasUsed: `totalGas` private plus all public gas used, `teardownGas`
 * used by the teardown call, `publicGas` used by setup, app logic and teardown, `billedGas` what the
 * fee is computed on (teardown at its limits, fees/fees.ts `billedGas`).
 */
export type PublicGasUsed = Readonly<Record<'totalGas' | 'teardownGas' | 'publicGas' | 'billedGas', Gas>>;

/** The outcome of a tx's public execution. */
export interface PublicTxResult {
  readonly revertCode: RevertCode;
  /** The first revert: app logic's, else teardown's. */
  readonly revertReason: PublicCallRevert | undefined;
  readonly gasUsed: PublicGasUsed;
  readonly transactionFee: bigint;
  /** TxEffect parts; note hashes are unique (nonce from the first nullifier and index in the tx). */
  readonly effects: SideEffects;
  /** Each enqueued call's frame, its return values and nested calls (PublicSimulationOutput.publicReturnValues). */
  readonly callResults: readonly PublicCallResult[];
}

/** The tx cannot be included: a setup call reverted or was not allow-listed, or the fee cannot be paid. */
export class PublicTxInvalidError extends Error {
  readonly reason: string;
  readonly revert: PublicCallRevert | undefined;
  /** The fee payer cannot pay the fee (SPEC §7 INSUFFICIENT_FEE_PAYER_BALANCE). */
  readonly cannotPay: boolean;
  constructor(reason: string, revert?: PublicCallRevert) {
    super(revert ? `${reason}: ${revert.message}` : reason);
    this.name = 'PublicTxInvalidError';
    this.reason = reason;
    this.revert = revert;
    this.cannotPay = reason.startsWith(INSUFFICIENT_FEE_PAYER_BALANCE);
  }
}

async function insertPrivate(state: JournaledState, effects: PrivateEffects): Promise<void> {
  for (const n of effects.nullifiers) {
    if (!(await state.insertSiloedNullifier(n)))
      throw new PublicTxInvalidError(`Duplicate nullifier 0x${n.toString(16)}`);
  }
  for (const h of effects.noteHashes) state.insertSiloedNoteHash(h);
  for (const m of effects.l2ToL1Msgs) state.insertL2ToL1Message(m);
}

/** Executes the public part of a tx; throws PublicTxInvalidError when the tx must be dropped. */
export async function executePublicTx(tx: PublicTxInput, ctx: PublicTxContext): Promise<PublicTxResult> {
  const state = new JournaledState(ctx.source);
  const results: PublicCallResult[] = [];
  let used = ZERO_GAS;
  const run = async (call: EnqueuedCall, gasLimit: Gas, transactionFee = 0n) => {
    const r = await executePublicCall({
      contractAddress: call.contractAddress,
      sender: call.msgSender,
      calldata: call.calldata,
      isStaticCall: call.isStaticCall,
      gasLimit,
      host: state,
      env: { ...ctx.env, transactionFee },
      ...(ctx.signatures ? { signatures: ctx.signatures } : {}),
    });
    results.push(r);
    return r;
  };
  const available = () => subGas(subGas(tx.gasLimits, tx.privateGasUsed), used);

  await insertPrivate(state, tx.nonRevertible);
  for (const call of tx.setupCalls) {
    const code = await ctx.source.getContract(call.contractAddress);
    const facts = {
      contractAddress: call.contractAddress,
      classId: code?.classId,
      msgSender: call.msgSender,
      calldata: call.calldata,
    };
    if (!isAllowedSetupCall(facts, ctx.allowList)) {
      throw new PublicTxInvalidError(
        `Setup call to 0x${call.contractAddress.toString(16)} selector ${String(call.calldata[0])} is not on the allow-list`,
      );
    }
    const r = await run(call, available());
    used = addGas(used, r.gasUsed);
    if (r.reverted) throw new PublicTxInvalidError('Setup phase reverted', r.revert);
  }

  let appReverted: PublicCallRevert | undefined;
  state.checkpoint();
  await insertPrivate(state, tx.revertible);
  for (const call of tx.appLogicCalls) {
    const r = await run(call, available());
    used = addGas(used, r.gasUsed);
    if (r.reverted) {
      appReverted = r.revert;
      break;
    }
  }
  if (appReverted) state.rollback();
  else state.commit();

  // The fee is fixed before teardown runs (fees/fees.ts).
  const billedGas = billedGasOf(tx.privateGasUsed, used, tx.teardownGasLimits);
  const transactionFee = feeFor(billedGas, ctx.env.gasFees);
  let teardownGas = ZERO_GAS;
  let teardownReverted: PublicCallRevert | undefined;
  if (tx.teardownCall) {
    const r = await run(tx.teardownCall, tx.teardownGasLimits, transactionFee);
    teardownGas = r.gasUsed;
    teardownReverted = r.revert;
  }
  await payFee(state, tx.feePayer, transactionFee, ctx.skipFeeEnforcement === true);

  const publicGas = addGas(used, teardownGas);
  const revertCode = appReverted
    ? teardownReverted
      ? RevertCode.BOTH_REVERTED
      : RevertCode.APP_LOGIC_REVERTED
    : teardownReverted
      ? RevertCode.TEARDOWN_REVERTED
      : RevertCode.OK;
  const effects = state.effects();
  const firstNullifier = effects.nullifiers[0] ?? 0n;
  return {
    revertCode,
    revertReason: appReverted ?? teardownReverted,
    gasUsed: { totalGas: addGas(tx.privateGasUsed, publicGas), teardownGas, publicGas, billedGas },
    transactionFee,
    effects: {
      ...effects,
      noteHashes: effects.noteHashes.map((h, i) => computeUniqueNoteHash(computeNoteHashNonce(firstNullifier, i), h)),
    },
    callResults: results,
  };
}

/** Deducts the fee from the payer's FeeJuice balance (a non-revertible public data write); no payer (0) pays nothing. */
async function payFee(state: JournaledState, feePayer: bigint, fee: bigint, skipEnforcement: boolean): Promise<void> {
  if (feePayer === 0n || fee === 0n) return;
  const leafSlot = feeJuiceBalanceLeafSlot(feePayer);
  const balance = await state.readLeaf(leafSlot);
  const after = balanceAfterFee(balance, fee, !skipEnforcement);
  if (after === undefined) throw new PublicTxInvalidError(`${INSUFFICIENT_FEE_PAYER_BALANCE}: ${balance} < ${fee}`);
  state.writeLeaf(leafSlot, after);
}
