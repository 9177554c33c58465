/**
 * `node_simulatePublicCalls` (tag `transactions`): runs a tx's public part as block latest + 1
 * (coinbase and fee recipient zero, current min fees) on a throw-away overlay of the latest state
 * — the block builder's own code path (sequencer/public-processor.ts), with nothing written back.
 * A revert is a result (`revertReason`, functions named from the signature registry); a tx that
 * could never be included (setup not allowed or reverted, fee unpayable, duplicate nullifier) and
 * a gas limit above the node's maximum are SIMULATION_REFUSED.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import type * as Wire from '../../../generated/public/types.ts';
import { feeJuiceBalanceLeafSlot } from '../../chain/protocol.ts';
import { secondsOf } from '../../chain/time.ts';
import type { GlobalVariables } from '../../chain/types.ts';
import type { FunctionSignatureRegistry } from '../../contracts/function-selector.ts';
import { hex32 } from '../../encoding/hex.ts';
import { toWireTxEffect } from '../../encoding/wire/blocks.ts';
import { toWireGlobalVariables } from '../../encoding/wire/headers.ts';
import type { AllowedElement } from '../../execution/allow-list.ts';
import { PublicTxInvalidError } from '../../execution/public-tx-executor.ts';
import { toWireSimulationError } from '../../execution/simulation-error.ts';
import type { PublicCallResult, PublicCallRevert } from '../../execution/types.ts';
import { feeFor, INSUFFICIENT_FEE_PAYER_BALANCE } from '../../fees/fees.ts';
import { BlockStateOverlay } from '../../sequencer/block-state-overlay.ts';
import { privateTxEffect, processPublicTx } from '../../sequencer/public-processor.ts';
import { toMinableTx } from '../../sequencer/tx-source.ts';
import { SimulationRefusedError } from '../errors.ts';
import { decodeParamTx } from './transactions.ts';
import type { EngineReads } from '../../engine.ts';

/** The handler members this module serves. */
export type SimulationHandlers = Pick<PublicHandlers, 'simulatePublicCalls'>;

/** Aztec's default `rpcSimulatePublicMaxGasLimit` (10e9). */
export const DEFAULT_SIMULATION_MAX_L2_GAS = 10_000_000_000n;

/** What the simulation handler is built from (the engine's parts plus the node's VM settings). */
export interface SimulationDeps {
  readonly engine: Pick<EngineReads, 'chain' | 'latestState' | 'contracts' | 'time' | 'config' | 'getCurrentMinFees'>;
  /** The setup allow-list in force (the validator's and the sequencer's). */
  allowList(): readonly AllowedElement[];
  readonly signatures?: FunctionSignatureRegistry;
  /** Refuse `gasLimits.l2Gas + teardownGasLimits.l2Gas` above this (default 10e9). */
  readonly maxL2GasLimit?: bigint;
}

// The document cuts the recursion at depth 2 (an untyped object below; docs/SDK.md), so a deeper
// level, typed as the full shape here, is widened to that object.
const toWireReturnValues = (r: PublicCallResult): Wire.NestedProcessReturnValues => ({
  values: r.returnValues.map(hex32),
  nested: r.nested.map(toWireReturnValues) as unknown as Wire.NestedProcessReturnValuesNested,
});

function toWireRevert(r: PublicCallRevert): Wire.SimulationError {
  const w = toWireSimulationError(r);
  return {
    originalMessage: w.originalMessage,
    functionErrorStack: w.functionErrorStack.map((f) => ({ ...f })),
    revertData: [...w.revertData],
  };
}

/** Creates the simulation handler. */
export function createSimulationHandlers(deps: SimulationDeps): SimulationHandlers {
  const { engine } = deps;
  const maxL2 = deps.maxL2GasLimit ?? DEFAULT_SIMULATION_MAX_L2_GAS;
  return {
    /** Handler for `node_simulatePublicCalls`. */
    async simulatePublicCalls(wire, skipFeeEnforcement) {
      const tx = toMinableTx(await decodeParamTx(wire));
      const gas = tx.gasSettings;
      const l2GasLimit = BigInt(gas.gasLimits.l2Gas) + BigInt(gas.teardownGasLimits.l2Gas);
      if (l2GasLimit > maxL2)
        throw new SimulationRefusedError(`L2 gas limit ${l2GasLimit} exceeds the maximum of ${maxL2}`, {
          l2GasLimit,
          maxL2GasLimit: maxL2,
        });
      const slot = engine.time.slotAt(secondsOf(engine.config.clock));
      const globals: GlobalVariables = {
        chainId: BigInt(engine.config.l1ChainId),
        version: BigInt(engine.config.rollupVersion),
        blockNumber: (await engine.chain.getBlockNumber()) + 1,
        slotNumber: slot,
        timestamp: engine.time.slotStart(slot),
        coinbase: 0n,
        feeRecipient: 0n,
        gasFees: engine.getCurrentMinFees(),
      };
      // A fresh overlay per call: the simulation's writes die with it.
      const state = new BlockStateOverlay(engine.latestState, engine.contracts);
      const skip = skipFeeEnforcement === true;
      if (tx.nullifiers.some((n) => state.hasNullifier(n))) throw new SimulationRefusedError('Existing nullifier');
      if (tx.publicPart === undefined) {
        const balance = state.readPublicData(feeJuiceBalanceLeafSlot(tx.feePayer));
        const effect = privateTxEffect(tx, globals, balance, !skip);
        if (effect === undefined)
          throw new SimulationRefusedError(
            `${INSUFFICIENT_FEE_PAYER_BALANCE}: ${balance} < ${feeFor(tx.gasUsed, globals.gasFees)}`,
            { code: 'INSUFFICIENT_FEE_PAYER_BALANCE' },
          );
        const zero = { daGas: 0, l2Gas: 0 };
        return {
          globalVariables: toWireGlobalVariables(globals),
          txEffect: toWireTxEffect(effect),
          publicReturnValues: [],
          gasUsed: { totalGas: tx.gasUsed, teardownGas: zero, publicGas: zero, billedGas: tx.gasUsed },
          debugLogs: [],
        };
      }
      try {
        const { effect, result } = await processPublicTx({ ...tx, publicPart: tx.publicPart }, state, globals, {
          allowList: deps.allowList,
          ...(deps.signatures ? { signatures: deps.signatures } : {}),
          skipFeeEnforcement: skip,
        });
        return {
          ...(result.revertReason ? { revertReason: toWireRevert(result.revertReason) } : {}),
          globalVariables: toWireGlobalVariables(globals),
          txEffect: toWireTxEffect(effect),
          publicReturnValues: result.callResults.map(toWireReturnValues),
          gasUsed: result.gasUsed,
          debugLogs: [],
        };
      } catch (err) {
        if (err instanceof PublicTxInvalidError)
          throw new SimulationRefusedError(
            err.message,
            err.cannotPay ? { code: 'INSUFFICIENT_FEE_PAYER_BALANCE' } : {},
          );
        throw err;
      }
    },
  };
}
