/**
 * nodeAdmin_pauseSync / nodeAdmin_resumeSync: the sync state machine of SPEC §3.
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';
import type { SyncControl } from '../../node-config/sync-control.ts';

/** The sync handlers. */
export function createSyncHandlers(sync: SyncControl): Pick<AdminHandlers, 'pauseSync' | 'resumeSync'> {
  return {
    /** Handler for `nodeAdmin_pauseSync` (idempotent; returns once the running sync step is done). */
    async pauseSync() {
      await sync.pause();
    },
    /** Handler for `nodeAdmin_resumeSync` (idempotent). */
    async resumeSync() {
      sync.resume();
    },
  };
}
