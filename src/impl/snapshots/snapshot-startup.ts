/**
 * `--snapshot <location>` at startup (docs/OPERATIONS.md "Starting from a snapshot"): runs first,
 * before the admin key hash is written into the data directory and before the database is
 * opened. A data directory without a database gets the snapshot (restoreSnapshot: an empty
 * directory only, checksum verified); one that already has a database is used as it is, with a
 * warning — like Aztec's snapshot sync, which only runs when the node has no local state, so a
 * restart with the same flags continues the local chain.
 * @module
 */
import { readdir } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { Config } from '../../config/options.ts';
import type { Logger } from '../../server/types.ts';
import { SQLITE_FILE_NAME } from '../store/database.ts';
import { restoreSnapshot } from './snapshot-restore.ts';
import { displayLocation, isHttpLocation, type SnapshotMetadata, SnapshotRestoreError } from './snapshot-files.ts';

/** What the start did with `--snapshot`. */
export type SnapshotStartOutcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'restored'; readonly meta: SnapshotMetadata }
  | { readonly kind: 'ignored'; readonly reason: string };

/** Restores `config.snapshot` when given and the data directory has no database; throws on any refusal. */
export async function restoreSnapshotAtStart(config: Config, logger: Logger): Promise<SnapshotStartOutcome> {
  const given = config.snapshot;
  if (given === undefined || given === '') return { kind: 'none' };
  if (config.dataDirectory === '')
    throw new SnapshotRestoreError("--snapshot needs a data directory to restore into (not --data-directory '')");
  if (config.databaseUrl)
    throw new SnapshotRestoreError('--snapshot restores an SQLite database; it cannot be combined with --database-url');
  if (config.importChain !== undefined && config.importChain !== '')
    throw new SnapshotRestoreError('--snapshot cannot be combined with --import-chain');
  if (config.role !== undefined && config.role !== 'full')
    throw new SnapshotRestoreError('--snapshot cannot be used with --role rpc (a reader never writes)');
  // A relative path is taken from the working directory; absolute paths, file:// and http(s):// URLs as they are.
  const location = given.startsWith('file://') || isHttpLocation(given) || isAbsolute(given) ? given : resolve(given);
  // What the log may show: no credentials, no presigned query.
  const shown = displayLocation(location);
  const entries = await readdir(config.dataDirectory).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  if (entries.includes(SQLITE_FILE_NAME)) {
    const reason = `data directory ${config.dataDirectory} already has a database; starting from it, --snapshot ignored`;
    logger.warn(reason, { snapshot: shown });
    return { kind: 'ignored', reason };
  }
  if (entries.length > 0) {
    throw new SnapshotRestoreError(
      `data directory ${config.dataDirectory} has no database but is not empty (${entries.slice(0, 5).join(', ')}); --snapshot restores only into an empty data directory`,
    );
  }
  const meta = await restoreSnapshot(
    location,
    config.dataDirectory,
    {},
    { logger, intervalMs: (config.progressIntervalSeconds ?? 10) * 1000 },
  );
  logger.info('snapshot restored', {
    snapshot: shown,
    createdAt: meta.createdAt,
    sizeBytes: meta.sizeBytes,
    sha256: meta.sha256,
    ...(meta.node === undefined ? {} : { node: meta.node }),
  });
  return { kind: 'restored', meta };
}
