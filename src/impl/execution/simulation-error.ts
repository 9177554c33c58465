/**
 * The JSON shape of a revert reason in `PublicSimulationOutput.revertReason` (Aztec
 * `SimulationError`): hex addresses, selectors and revert data.
 * @module
 */
import { toFieldHex } from '../crypto/field.ts';
import { toSelectorHex } from '../contracts/function-selector.ts';
import type { PublicCallRevert } from './types.ts';

/** Aztec's SimulationError as JSON. */
export interface WireSimulationError {
  readonly originalMessage: string;
  readonly functionErrorStack: readonly {
    readonly contractAddress: string;
    readonly functionSelector?: string;
    readonly functionName?: string;
  }[];
  readonly revertData: readonly string[];
}

/** Returns the wire shape of a revert. */
export function toWireSimulationError(revert: PublicCallRevert): WireSimulationError {
  return {
    originalMessage: revert.message,
    functionErrorStack: revert.stack.map((f) => ({
      contractAddress: toFieldHex(f.contractAddress),
      ...(f.functionSelector !== undefined ? { functionSelector: toSelectorHex(f.functionSelector) } : {}),
      ...(f.functionName !== undefined ? { functionName: f.functionName } : {}),
    })),
    revertData: revert.revertData.map(toFieldHex),
  };
}
