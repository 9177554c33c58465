/**
 * Contract reads of the public API (tag `contracts`, SPEC §4.7). The engine has no contract class /
 * instance index yet (the registries' logs are not indexed), so both answer -32001 rather than a
 * `null` that would claim "not deployed".
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import { NotImplementedError } from '../errors.ts';

/** The handler members this module serves. */
export type ContractHandlers = Pick<PublicHandlers, 'getContractClass' | 'getContract'>;

/** Creates the contract handlers (no engine part to read yet). */
export function createContractHandlers(): ContractHandlers {
  return {
    /** Handler for `node_getContractClass`: needs the contract class index. */
    async getContractClass() {
      throw new NotImplementedError('node_getContractClass');
    },

    /** Handler for `node_getContract`: needs the contract instance index. */
    async getContract() {
      throw new NotImplementedError('node_getContract');
    },
  };
}
