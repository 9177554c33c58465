/**
 * nodeAdmin_getSlashPayloads / nodeAdmin_getSlashOffenses over the slasher.
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';
import type { Slasher } from '../../slashing/slasher.ts';

/** The slashing handlers. */
export function createSlashingHandlers(slasher: Slasher): Pick<AdminHandlers, 'getSlashPayloads' | 'getSlashOffenses'> {
  return {
    getSlashPayloads: () => slasher.currentPayloads(),
    getSlashOffenses: (round) => slasher.offenses(round),
  };
}
