/**
 * Debug helpers of the public API (tag `debug`, SPEC §4.11): function signature registration
 * (names selectors in logs and simulation errors) and the public setup allow-list the node enforces.
 * @module
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import type { FunctionSignatureRegistry } from '../../contracts/function-selector.ts';
import type { AllowedElement } from '../../execution/allow-list.ts';
import { toWireAllowedElement } from '../../encoding/wire/node-info.ts';

/**
 * Signatures hashed between two turns of the event loop: 8 of the longest allowed (1024 characters)
 * hash in about 4 ms, so a call of 100 never holds other clients for its whole ~50 ms.
 */
const SIGNATURES_PER_TURN = 8;

/** The handler members this module serves. */
export type DebugHandlers = Pick<PublicHandlers, 'registerContractFunctionSignatures' | 'getAllowedPublicSetup'>;

/** What the debug handlers use. */
export interface DebugDeps {
  /** The registry the public executor names functions from. */
  readonly signatures: Pick<FunctionSignatureRegistry, 'registerFunctionSignatures'>;
  /** The setup allow-list in force: the default list plus the configured extension (the same one the tx validator uses). */
  allowList(): readonly AllowedElement[];
}

/** Creates the debug handlers. */
export function createDebugHandlers({ signatures, allowList }: DebugDeps): DebugHandlers {
  return {
    /** Handler for `node_registerContractFunctionSignatures`: idempotent; the registry is bounded. */
    async registerContractFunctionSignatures(functionSignatures) {
      for (let i = 0; i < functionSignatures.length; i += SIGNATURES_PER_TURN) {
        if (i > 0) await nextTurn();
        signatures.registerFunctionSignatures(functionSignatures.slice(i, i + SIGNATURES_PER_TURN));
      }
    },

    /** Handler for `node_getAllowedPublicSetup`. */
    async getAllowedPublicSetup() {
      return allowList().map(toWireAllowedElement);
    },
  };
}
