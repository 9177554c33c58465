/**
 * Restoring a snapshot at startup (`--snapshot <location>`): only into an empty (or absent) data
 * directory, only when the copy's SHA-256 matches snapshot.json — checked on the source and
 * again on the copy before it is renamed into place.
 * @module
 */
import { copyFile, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SQLITE_FILE_NAME } from '../store/database.ts';
import { fileDigest, fsyncPath, snapshotDirectory, SNAPSHOT_DB_FILE, SNAPSHOT_FORMAT, SNAPSHOT_METADATA_FILE, type SnapshotMetadata } from './snapshot-files.ts';

/** A snapshot that cannot be restored; the data directory is left as it was. */
export class SnapshotRestoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotRestoreError';
  }
}

/** Restores the snapshot at `location` into `dataDirectory`; returns its metadata. */
export async function restoreSnapshot(location: string, dataDirectory: string): Promise<SnapshotMetadata> {
  const dir = snapshotDirectory(location);
  const meta = await readMetadata(dir);
  const entries = await readdir(dataDirectory).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  if (entries.length > 0) throw new SnapshotRestoreError(`data directory ${dataDirectory} is not empty; a snapshot is restored only into an empty one`);
  const source = join(dir, SNAPSHOT_DB_FILE);
  const found = await fileDigest(source).catch(() => {
    throw new SnapshotRestoreError(`snapshot file ${source} cannot be read`);
  });
  if (found.sha256 !== meta.sha256 || found.sizeBytes !== meta.sizeBytes) {
    throw new SnapshotRestoreError(`snapshot checksum mismatch: snapshot.json says sha256 ${meta.sha256}, the file has ${found.sha256}`);
  }
  await mkdir(dataDirectory, { recursive: true });
  const tmp = join(dataDirectory, `.${SQLITE_FILE_NAME}.restore.tmp`);
  try {
    await copyFile(source, tmp);
    await fsyncPath(tmp);
    const copied = await fileDigest(tmp);
    if (copied.sha256 !== meta.sha256) throw new SnapshotRestoreError('the restored copy does not match the snapshot checksum');
    await rename(tmp, join(dataDirectory, SQLITE_FILE_NAME));
    await fsyncPath(dataDirectory);
  } finally {
    await rm(tmp, { force: true });
  }
  return meta;
}

async function readMetadata(dir: string): Promise<SnapshotMetadata> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(join(dir, SNAPSHOT_METADATA_FILE), 'utf8'));
  } catch {
    throw new SnapshotRestoreError(`${join(dir, SNAPSHOT_METADATA_FILE)} is missing or not valid JSON (an incomplete snapshot?)`);
  }
  const m = json as Partial<SnapshotMetadata>;
  if (m.format !== SNAPSHOT_FORMAT) throw new SnapshotRestoreError(`unknown snapshot format ${JSON.stringify(m.format)}`);
  if (typeof m.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(m.sha256) || typeof m.sizeBytes !== 'number') {
    throw new SnapshotRestoreError('snapshot.json lacks a valid sha256 or sizeBytes');
  }
  return m as SnapshotMetadata;
}
