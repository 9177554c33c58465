/**
 * The admin (`nodeAdmin_`) handler object, composed from the parts the node has: each group of
 * methods is served when its part is given, and stated as not served by this role when it is not
 * (-32001 NOT_IMPLEMENTED naming the method) instead of pretending to act. Typed as the generated
 * interface, so a missing method fails the build. Domain errors become wire errors in one place
 * (../wire-errors.ts).
 * @module
 */
import { adminMethodNames, type AdminHandlers } from '../../../generated/admin/handlers.ts';
import type { Logger } from '../../../server/types.ts';
import type { NodeConfig } from '../../node-config/node-config.ts';
import type { RollbackDeps } from '../../node-config/rollback-coordinator.ts';
import type { SyncControl } from '../../node-config/sync-control.ts';
import type { Slasher } from '../../slashing/slasher.ts';
import type { SnapshotUploader } from '../../snapshots/snapshot-writer.ts';
import type { ValidatorKeyring } from '../../validators/keyring.ts';
import { notServedByThisRole } from '../not-served.ts';
import { createConfigHandlers } from './config.ts';
import { createKeystoreHandlers } from './keystore.ts';
import { createRollbackHandlers } from './rollback.ts';
import { createSlashingHandlers } from './slashing.ts';
import { createSnapshotHandlers } from './snapshots.ts';
import { createSyncHandlers } from './sync.ts';

/** What the admin handlers are built from; each part is optional until the node has it. */
export interface AdminHandlerDeps {
  readonly config?: NodeConfig;
  readonly sync?: SyncControl;
  readonly rollback?: RollbackDeps;
  readonly snapshots?: SnapshotUploader;
  readonly slasher?: Slasher;
  readonly keyring?: ValidatorKeyring;
  /** Hears of what a handler ignored (nodeAdmin_setConfig's unknown keys). */
  readonly logger?: Logger;
}

/** The admin handlers: every method, served or stated as not served. */
export type AdminHandlerSet = AdminHandlers;

const notServed = notServedByThisRole<AdminHandlers>(adminMethodNames);

/** Creates the admin handler object. */
export function createAdminHandlers(deps: AdminHandlerDeps = {}): AdminHandlerSet {
  return {
    ...(deps.config ? createConfigHandlers(deps.config, deps.logger) : notServed(['getConfig', 'setConfig'])),
    ...(deps.sync ? createSyncHandlers(deps.sync) : notServed(['pauseSync', 'resumeSync'])),
    ...(deps.rollback ? createRollbackHandlers(deps.rollback) : notServed(['rollbackTo'])),
    ...(deps.snapshots ? createSnapshotHandlers(deps.snapshots) : notServed(['startSnapshotUpload'])),
    ...(deps.slasher ? createSlashingHandlers(deps.slasher) : notServed(['getSlashPayloads', 'getSlashOffenses'])),
    ...(deps.keyring ? createKeystoreHandlers(deps.keyring) : notServed(['reloadKeystore'])),
  };
}
