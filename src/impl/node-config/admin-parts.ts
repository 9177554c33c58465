/**
 * Opens everything behind the admin API and the validator queries on one database, wired
 * together: live config (pushed to the given targets), sync switch, keyring, committees,
 * sentinel, slasher and snapshot uploader. main.ts calls this once, then hands `adminDeps`
 * to createAdminHandlers, `validatorHandlers` to the public handlers, and the hooks
 * (`sentinel`, `sync`, `committees`, `keyring`) to the engine and sequencer.
 * @module
 */
import { join } from 'node:path';
import type { Knex } from 'knex';
import type { NodeAdminConfigUpdate } from '../../generated/admin/types.ts';
import type { AdminHandlerDeps } from '../rpc/admin/index.ts';
import { Slasher } from '../slashing/slasher.ts';
import { SlashingStore } from '../slashing/slashing-store.ts';
import { SnapshotUploader, type SnapshotUploaderDeps } from '../snapshots/snapshot-writer.ts';
import { SQLITE_FILE_NAME } from '../store/database.ts';
import { createCommittees, type Committees } from '../validators/committee.ts';
import { createValidatorHandlers, type ValidatorHandlers } from '../validators/handlers.ts';
import { ValidatorKeyring } from '../validators/keyring.ts';
import type { Keystore } from '../validators/keystore.ts';
import { Sentinel } from '../validators/sentinel.ts';
import { SlotRecordStore } from '../validators/slot-record.ts';
import { wireConfigTargets, type ConfigTargets } from './config-targets.ts';
import { NodeConfig } from './node-config.ts';
import type { RollbackDeps } from './rollback-coordinator.ts';
import { SyncSwitch } from './sync-control.ts';

/** What the admin side is opened with. */
export interface AdminPartsOptions {
  readonly db: Knex;
  /** The data directory ('' for in-memory: snapshots are refused). */
  readonly dataDirectory: string;
  readonly startupConfig?: NodeAdminConfigUpdate;
  readonly keystorePath?: string;
  /** Validators run when there is no keystore path (the dev validator). */
  readonly defaultKeystore?: Keystore;
  readonly disableValidator?: boolean;
  /** Registered attesters (genesis); committeeSize members per epoch. */
  readonly validatorSet: readonly string[];
  readonly committeeSize: number;
  readonly slotsPerEpoch: number;
  /** Slashing round length in slots. */
  readonly roundSizeInSlots: number;
  readonly slotStart: (slot: number) => bigint;
  readonly currentSlot: () => number;
  /** Parts that receive live settings (sync cadence goes to the sync switch automatically). */
  readonly targets?: Omit<ConfigTargets, 'sync'>;
  /** The engine's rollback side; without it nodeAdmin_rollbackTo stays NOT_IMPLEMENTED. */
  readonly rollback?: Omit<RollbackDeps, 'sync' | 'assertNotBusy' | 'trimRecordAfterSlot'>;
  readonly snapshot?: Omit<SnapshotUploaderDeps, 'databaseFile'>;
  readonly historyLengthInEpochs?: number;
}

/** The opened admin side. */
export interface AdminParts {
  readonly config: NodeConfig;
  readonly sync: SyncSwitch;
  readonly keyring: ValidatorKeyring;
  readonly committees: Committees;
  readonly sentinel: Sentinel;
  readonly slasher: Slasher;
  readonly snapshots: SnapshotUploader;
  readonly record: SlotRecordStore;
  readonly adminDeps: AdminHandlerDeps;
  readonly validatorHandlers: ValidatorHandlers;
}

/** Opens and wires the admin side. */
export async function openAdminParts(o: AdminPartsOptions): Promise<AdminParts> {
  const config = await NodeConfig.open(o.db, o.startupConfig);
  const sync = new SyncSwitch(config.get().archiverPollingIntervalMS);
  await wireConfigTargets(config, { ...o.targets, sync });
  const keyring = ValidatorKeyring.open({
    ...(o.keystorePath === undefined ? {} : { path: o.keystorePath }),
    ...(o.defaultKeystore === undefined ? {} : { fallback: o.defaultKeystore }),
    disabled: o.disableValidator ?? false,
  });
  const committees = createCommittees({
    validatorSet: o.validatorSet,
    committeeSize: o.committeeSize,
    slotsPerEpoch: o.slotsPerEpoch,
  });
  const record = await SlotRecordStore.open(o.db);
  const slasher = new Slasher({
    store: await SlashingStore.open(o.db),
    record,
    config: () => config.get(),
    ownValidators: () => keyring.attesters,
    slotsPerEpoch: o.slotsPerEpoch,
    roundSizeInSlots: o.roundSizeInSlots,
    slotStart: o.slotStart,
    currentSlot: o.currentSlot,
  });
  const sentinel = new Sentinel({ committees, keyring, store: record, slotsPerEpoch: o.slotsPerEpoch });
  sentinel.listen(slasher);
  const memory = o.dataDirectory === '' || o.dataDirectory === ':memory:';
  const snapshots = new SnapshotUploader({
    ...o.snapshot,
    databaseFile: memory ? undefined : join(o.dataDirectory, SQLITE_FILE_NAME),
  });
  const adminDeps: AdminHandlerDeps = {
    config,
    sync,
    snapshots,
    slasher,
    keyring,
    ...(o.rollback === undefined
      ? {}
      : {
          rollback: {
            ...o.rollback,
            sync,
            assertNotBusy: () => snapshots.assertNotBusy(),
            trimRecordAfterSlot: (s: number) => record.deleteAfter(s),
          },
        }),
  };
  const validatorHandlers = createValidatorHandlers({
    store: record,
    slotStart: o.slotStart,
    slotsPerEpoch: o.slotsPerEpoch,
    ...(o.historyLengthInEpochs === undefined ? {} : { historyLengthInEpochs: o.historyLengthInEpochs }),
  });
  return { config, sync, keyring, committees, sentinel, slasher, snapshots, record, adminDeps, validatorHandlers };
}
