/**
 * Validator statistics of the public API (tag `validators`, SPEC §4.10) where no validator record
 * is attached (handler sets built without the admin side: tests, the RPC bench). src/main.ts names the
 * slot-record handlers of src/impl/validators/handlers.ts in their place for every node process it
 * starts. Both answer -32001 here after the checks the document makes on the parameters
 * (`fromSlot` > `toSlot` is -32602).
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import { NotImplementedError } from '../errors.ts';
import { invalidParam } from './block-param.ts';

/** The handler members this module serves. */
export type ValidatorHandlers = Pick<PublicHandlers, 'getValidatorsStats' | 'getValidatorStats'>;

/** Creates the fallback validator handlers (no validator record attached). */
export function createValidatorHandlers(): ValidatorHandlers {
  return {
    /** Handler for `node_getValidatorsStats`: needs the validator record. */
    async getValidatorsStats() {
      throw new NotImplementedError('node_getValidatorsStats');
    },

    /** Handler for `node_getValidatorStats`: a reversed slot range is -32602; otherwise needs the validator record. */
    async getValidatorStats(_validatorAddress, fromSlot, toSlot) {
      if (fromSlot !== undefined && toSlot !== undefined && BigInt(fromSlot) > BigInt(toSlot)) {
        throw invalidParam(2, 'toSlot', 'toSlot must be >= fromSlot');
      }
      throw new NotImplementedError('node_getValidatorStats');
    },
  };
}
