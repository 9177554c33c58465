/**
 * Debug helpers of the public API (tag `debug`, SPEC §4.11): function signature registration
 * (names selectors in logs and simulation errors) and the public setup allow-list the node enforces.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import type { FunctionSignatureRegistry } from '../../contracts/function-selector.ts';
import type { AllowedElement } from '../../execution/allow-list.ts';
import { toWireAllowedElement } from '../wire/node-info.ts';

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
    /** Handler for `node_registerContractFunctionSignatures`: idempotent. */
    async registerContractFunctionSignatures(functionSignatures) {
      signatures.registerFunctionSignatures(functionSignatures);
    },

    /** Handler for `node_getAllowedPublicSetup`. */
    async getAllowedPublicSetup() {
      return allowList().map(toWireAllowedElement);
    },
  };
}
