/**
 * nodeAdmin_rollbackTo over the rollback coordinator (src/impl/node-config/rollback-coordinator.ts).
 * @module
 */
import type { AdminHandlers } from '../../../generated/admin/handlers.ts';
import { rollbackTo, type RollbackDeps } from '../../node-config/rollback-coordinator.ts';

/** The rollback handler. */
export function createRollbackHandlers(deps: RollbackDeps): Pick<AdminHandlers, 'rollbackTo'> {
  return {
    /** Handler for `nodeAdmin_rollbackTo`; `force` absent or null means false. */
    async rollbackTo(target, force) {
      await rollbackTo(deps, target, force ?? false);
    },
  };
}
