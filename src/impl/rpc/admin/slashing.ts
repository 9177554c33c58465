/**
 * nodeAdmin_getSlashPayloads / nodeAdmin_getSlashOffenses over the slasher.
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';
import type { Slasher } from '../../slashing/slasher.ts';

/** The slashing handlers. */
export function createSlashingHandlers(slasher: Slasher): Pick<AdminHandlers, 'getSlashPayloads' | 'getSlashOffenses'> {
  return {
    /** Handler for `nodeAdmin_getSlashPayloads`. */
    getSlashPayloads: () => slasher.currentPayloads(),
    /** Handler for `nodeAdmin_getSlashOffenses` (`current`, `all` or a decimal round). */
    getSlashOffenses: (round) => slasher.offenses(round),
  };
}
