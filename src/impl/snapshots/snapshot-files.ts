/**
 * The on-disk form of a snapshot: a directory holding `l2node.sqlite` (a consistent copy of the
 * node database) and `snapshot.json` (format, creation time, size and SHA-256 of the copy).
 * The metadata is written last, so a directory with `snapshot.json` is complete.
 * @module
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Name of the database copy inside a snapshot directory. */
export const SNAPSHOT_DB_FILE = 'l2node.sqlite';
/** Name of the metadata file inside a snapshot directory. */
export const SNAPSHOT_METADATA_FILE = 'snapshot.json';
/** Value of `format` in the metadata. */
export const SNAPSHOT_FORMAT = 'l2node-snapshot/1';

/** snapshot.json. */
export interface SnapshotMetadata {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly createdAt: string;
  readonly file: typeof SNAPSHOT_DB_FILE;
  readonly sizeBytes: number;
  /** Lowercase hex SHA-256 of the database copy. */
  readonly sha256: string;
  /** Extra facts the node adds (e.g. the latest block number). */
  readonly node?: Readonly<Record<string, unknown>>;
}

/** The local directory of a location: an absolute path or a file:// URL. */
export function snapshotDirectory(location: string): string {
  const directory = location.startsWith('file://') ? fileURLToPath(location) : location;
  if (!directory.startsWith('/')) throw new RangeError('a snapshot location is an absolute path or a file:// URL');
  // Kernel pseudo-filesystems hold no files; creating a directory under /proc can even block forever.
  const top = normalize(directory).split('/')[1];
  if (top !== undefined && PSEUDO_FILESYSTEMS.includes(top)) throw new RangeError(`a snapshot location must be on a storage filesystem, not under /${top}`);
  return directory;
}

const PSEUDO_FILESYSTEMS = ['proc', 'sys'];

/** Lowercase hex SHA-256 and size of a file, streamed. */
export async function fileDigest(path: string): Promise<{ sha256: string; sizeBytes: number }> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    sizeBytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), sizeBytes };
}

/** Flushes a file (or directory) to disk. */
export async function fsyncPath(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
