/**
 * The on-disk form of a snapshot: a directory holding `l2node.sqlite` (a consistent copy of the
 * node database) and `snapshot.json` (format, creation time, size and SHA-256 of the copy).
 * The metadata is written last, so a directory with `snapshot.json` is complete. The metadata is
 * made (writer) and checked (restore) here.
 * @module
 */
import { createHash } from 'node:crypto';
import { createReadStream, realpathSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join, normalize } from 'node:path';
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

/** A snapshot that cannot be restored; the data directory is left as it was. */
export class SnapshotRestoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotRestoreError';
  }
}

/** The metadata of a copy with `digest`, made now, with facts about the node it came from. */
export function snapshotMetadata(
  digest: { readonly sha256: string; readonly sizeBytes: number },
  node?: Record<string, unknown>,
): SnapshotMetadata {
  return {
    format: SNAPSHOT_FORMAT,
    createdAt: new Date().toISOString(),
    file: SNAPSHOT_DB_FILE,
    ...digest,
    ...(node === undefined ? {} : { node }),
  };
}

/** Validates snapshot.json's text; `where` names it in errors. */
export function parseSnapshotMetadata(text: string | undefined, where: string): SnapshotMetadata {
  let json: unknown;
  try {
    json = JSON.parse(text ?? '');
  } catch {
    throw new SnapshotRestoreError(`${where} is missing or not valid JSON (an incomplete snapshot?)`);
  }
  const m = json as Partial<SnapshotMetadata> | null;
  if (m === null || typeof m !== 'object') throw new SnapshotRestoreError(`${where} is not a JSON object`);
  if (m.format !== SNAPSHOT_FORMAT)
    throw new SnapshotRestoreError(`unknown snapshot format ${JSON.stringify(m.format)}`);
  if (
    typeof m.sha256 !== 'string' ||
    !/^[0-9a-f]{64}$/.test(m.sha256) ||
    typeof m.sizeBytes !== 'number' ||
    !Number.isSafeInteger(m.sizeBytes) ||
    m.sizeBytes < 0
  ) {
    throw new SnapshotRestoreError('snapshot.json lacks a valid sha256 or sizeBytes');
  }
  return m as SnapshotMetadata;
}

/** Where a snapshot lives: a local directory, or an HTTP(S) base URL its two files are PUT under / GET from. */
export type SnapshotTarget =
  | { readonly kind: 'local'; readonly directory: string }
  | { readonly kind: 'http'; readonly url: URL };

/** True for an http:// or https:// location (the scheme is case-insensitive). */
export function isHttpLocation(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** Parses a location: an absolute path, a file:// URL or an http(s):// URL; anything else is a RangeError. */
export function parseSnapshotLocation(location: string): SnapshotTarget {
  if (!isHttpLocation(location)) return { kind: 'local', directory: snapshotDirectory(location) };
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new RangeError('a snapshot URL must be a valid http(s):// URL');
  }
  if (url.hostname === '') throw new RangeError('a snapshot URL needs a host');
  url.hash = '';
  return { kind: 'http', url };
}

/**
 * A location as it may be logged or put in an error message: an HTTP URL without its userinfo
 * (credentials) and without its query string (a presigned URL's signature is a credential too).
 */
export function displayLocation(location: string | URL): string {
  if (typeof location === 'string' && !isHttpLocation(location)) return location;
  try {
    const url = new URL(location);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '<unparseable URL>';
  }
}

/** The local directory of a location: an absolute path or a file:// URL. */
export function snapshotDirectory(location: string): string {
  const directory = location.startsWith('file://') ? fileURLToPath(location) : location;
  if (!directory.startsWith('/'))
    throw new RangeError(
      'a snapshot location is an absolute path, a file:// URL or an http(s):// URL (object stores: a presigned https URL)',
    );
  // Kernel pseudo-filesystems hold no files; creating a directory under /proc can even block forever.
  // The text is checked first (nothing under /proc is touched), then the path with its symlinks resolved.
  refusePseudoFilesystem(normalize(directory));
  refusePseudoFilesystem(realLocation(directory));
  return directory;
}

function refusePseudoFilesystem(path: string): void {
  const top = path.split('/')[1];
  if (top !== undefined && PSEUDO_FILESYSTEMS.includes(top))
    throw new RangeError(`a snapshot location must be on a storage filesystem, not under /${top}`);
}

/**
 * Where `directory` really is: its deepest existing ancestor with symlinks resolved, plus the part
 * that does not exist yet (the upload creates it). Unresolvable (a permission error): as given.
 */
function realLocation(directory: string): string {
  const missing: string[] = [];
  for (let existing = normalize(directory); ; existing = dirname(existing)) {
    try {
      return join(realpathSync(existing), ...missing.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(existing) === existing) return normalize(directory);
      missing.push(basename(existing));
    }
  }
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
