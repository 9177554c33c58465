/**
 * nodeAdmin_reloadKeystore: swaps the validator keys in without a restart (SPEC §4.12).
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';
import type { ValidatorKeyring } from '../../validators/keyring.ts';

/** The keystore handler. */
export function createKeystoreHandlers(keyring: ValidatorKeyring): Pick<AdminHandlers, 'reloadKeystore'> {
  return {
    /** Handler for `nodeAdmin_reloadKeystore`. */
    async reloadKeystore() {
      keyring.reload();
    },
  };
}
