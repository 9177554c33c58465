/**
 * nodeAdmin_pauseSync / nodeAdmin_resumeSync (SPEC §3) and nodeAdmin_rollbackTo.
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';
import { rollbackTo, type RollbackDeps } from '../../node-config/rollback-coordinator.ts';
import type { SyncControl } from '../../node-config/sync-control.ts';

/** The sync handlers. */
export function createSyncHandlers(sync: SyncControl): Pick<AdminHandlers, 'pauseSync' | 'resumeSync'> {
  return {
    async pauseSync() {
      await sync.pause();
    },
    async resumeSync() {
      sync.resume();
    },
  };
}

/** The rollback handler. */
export function createRollbackHandlers(deps: RollbackDeps): Pick<AdminHandlers, 'rollbackTo'> {
  return {
    async rollbackTo(target, force) {
      await rollbackTo(deps, target, force ?? false);
    },
  };
}
