/**
 * Restoring a snapshot at startup (`--snapshot <location>`): only into an empty (or absent) data
 * directory, only when the copy's SHA-256 and size match snapshot.json. A local snapshot is
 * checked on the source and again on the copy; an http(s):// one is downloaded (snapshot.json
 * first) into the same temp file and checked there. Either way the copy is renamed into place
 * only once verified, so a failed or partial restore leaves the data directory as it was.
 * @module
 */
import { copyFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { withByteProgress } from '../progress.ts';
import type { ProgressReporting } from '../progress.ts';
import { join } from 'node:path';
import { SQLITE_FILE_NAME } from '../store/database.ts';
import {
  displayLocation,
  fileDigest,
  fsyncPath,
  parseSnapshotLocation,
  parseSnapshotMetadata,
  SNAPSHOT_DB_FILE,
  SNAPSHOT_METADATA_FILE,
  type SnapshotMetadata,
  SnapshotRestoreError,
} from './snapshot-files.ts';
import { getText, getToFile, snapshotFileUrl, type SnapshotHttpOptions } from './snapshot-http.ts';

/** Restores the snapshot at `location` (path, file:// or http(s):// URL) into `dataDirectory`; returns its metadata. */
export async function restoreSnapshot(
  location: string,
  dataDirectory: string,
  http: SnapshotHttpOptions = {},
  progress?: ProgressReporting,
): Promise<SnapshotMetadata> {
  const target = parseSnapshotLocation(location);
  if (target.kind === 'http') return restoreFromHttp(target.url, dataDirectory, http, progress);
  const dir = target.directory;
  const metaFile = join(dir, SNAPSHOT_METADATA_FILE);
  const metaText = await readFile(metaFile, 'utf8').catch(() => undefined);
  const meta = parseSnapshotMetadata(metaText, metaFile);
  await assertEmptyDataDirectory(dataDirectory);
  const source = join(dir, SNAPSHOT_DB_FILE);
  const found = await fileDigest(source).catch(() => {
    throw new SnapshotRestoreError(`snapshot file ${source} cannot be read`);
  });
  assertMatches(meta, found);
  await installVerifiedCopy(dataDirectory, meta, (tmp) => copyFile(source, tmp), progress);
  return meta;
}

async function restoreFromHttp(
  base: URL,
  dataDirectory: string,
  http: SnapshotHttpOptions,
  progress: ProgressReporting | undefined,
): Promise<SnapshotMetadata> {
  const metaUrl = snapshotFileUrl(base, SNAPSHOT_METADATA_FILE);
  const metaText = await getText(metaUrl, http).catch((err: unknown) => {
    throw new SnapshotRestoreError(
      `${displayLocation(metaUrl)} cannot be fetched (an incomplete snapshot?): ${(err as Error).message}`,
    );
  });
  const meta = parseSnapshotMetadata(metaText, displayLocation(metaUrl));
  await assertEmptyDataDirectory(dataDirectory);
  const fileUrl = snapshotFileUrl(base, SNAPSHOT_DB_FILE);
  await installVerifiedCopy(
    dataDirectory,
    meta,
    (tmp) =>
      getToFile(fileUrl, tmp, meta.sizeBytes, http).catch((err: unknown) => {
        throw new SnapshotRestoreError(`snapshot download failed: ${(err as Error).message}`);
      }),
    progress,
  );
  return meta;
}

/**
 * The part every restore shares: `fill` writes the database copy into a temp file in the data
 * directory, which is flushed, checked against snapshot.json and only then renamed into place.
 * On failure the temp file goes, and so does the data directory when this call created it.
 */
async function installVerifiedCopy(
  dataDirectory: string,
  meta: SnapshotMetadata,
  fill: (tmp: string) => Promise<void>,
  progress?: ProgressReporting,
): Promise<void> {
  const created = await mkdir(dataDirectory, { recursive: true });
  const tmp = join(dataDirectory, `.${SQLITE_FILE_NAME}.restore.tmp`);
  let installed = false;
  try {
    // The temp file's size is the bytes copied or downloaded so far.
    await withByteProgress(
      progress,
      { message: 'snapshot restore: copying', total: meta.sizeBytes },
      async () => (await stat(tmp).catch(() => undefined))?.size ?? 0,
      () => fill(tmp),
    );
    await fsyncPath(tmp);
    assertMatches(meta, await fileDigest(tmp));
    await rename(tmp, join(dataDirectory, SQLITE_FILE_NAME));
    await fsyncPath(dataDirectory);
    installed = true;
  } finally {
    await rm(tmp, { force: true });
    if (!installed && created !== undefined) await rm(created, { recursive: true, force: true });
  }
}

function assertMatches(meta: SnapshotMetadata, found: { sha256: string; sizeBytes: number }): void {
  if (found.sha256 !== meta.sha256 || found.sizeBytes !== meta.sizeBytes) {
    throw new SnapshotRestoreError(
      `snapshot checksum mismatch: snapshot.json says sha256 ${meta.sha256} (${meta.sizeBytes} bytes), the file has ${found.sha256} (${found.sizeBytes} bytes)`,
    );
  }
}

async function assertEmptyDataDirectory(dataDirectory: string): Promise<void> {
  const entries = await readdir(dataDirectory).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  if (entries.length > 0)
    throw new SnapshotRestoreError(
      `data directory ${dataDirectory} is not empty; a snapshot is restored only into an empty one`,
    );
}
