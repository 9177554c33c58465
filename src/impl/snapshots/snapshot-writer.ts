/**
 * nodeAdmin_startSnapshotUpload: copies the node database into a snapshot directory in the
 * background while the node keeps serving. The copy uses SQLite's online backup API on a
 * separate read-only connection (it works in steps and yields to the event loop, so requests
 * keep being answered; it restarts itself when a writer changes the source, so the copy is a
 * consistent state). The copy goes to a temp file, is checksummed and flushed, then renamed into
 * place; snapshot.json follows the same way. One upload at a time. An http(s):// location is
 * written the same way into a staging directory inside the data directory, then PUT file by
 * file (snapshot.json last) and the staging directory removed.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import {
  displayLocation,
  fileDigest,
  fsyncPath,
  parseSnapshotLocation,
  SNAPSHOT_DB_FILE,
  SNAPSHOT_METADATA_FILE,
  type SnapshotMetadata,
  snapshotMetadata,
} from './snapshot-files.ts';
import { putFile, putText, snapshotFileUrl, type SnapshotHttpOptions } from './snapshot-http.ts';
import { withByteProgress } from '../progress.ts';
import type { ProgressReporting } from '../progress.ts';

/** Prefix of the staging directories of HTTP uploads inside the data directory. */
const HTTP_STAGING_PREFIX = '.snapshot-upload-';

/** An upload is already running. */
export class SnapshotBusy extends Error {
  constructor() {
    super('Snapshot upload already in progress');
    this.name = 'SnapshotBusy';
  }
}

/** The node cannot take a snapshot yet (e.g. the initial sync has not finished). */
export class SnapshotNotReady extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`Node not ready: ${reason}`);
    this.name = 'SnapshotNotReady';
    this.reason = reason;
  }
}

/** Writes a consistent copy of an SQLite database file into `directory`; returns its metadata. */
export async function writeSnapshot(
  databaseFile: string,
  directory: string,
  node?: Record<string, unknown>,
  progress?: ProgressReporting,
): Promise<SnapshotMetadata> {
  await mkdir(directory, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmpDb = join(directory, `.${SNAPSHOT_DB_FILE}.${tag}.tmp`);
  const tmpMeta = join(directory, `.${SNAPSHOT_METADATA_FILE}.${tag}.tmp`);
  try {
    const source = new Database(databaseFile, { readonly: true, fileMustExist: true });
    try {
      // The copy's size so far against the database's (its WAL is folded in, so the total is approximate).
      const total =
        (await stat(databaseFile)).size + ((await stat(`${databaseFile}-wal`).catch(() => undefined))?.size ?? 0);
      await withByteProgress(
        progress,
        { message: 'snapshot upload: copying', total, fields: { to: directory } },
        async () => (await stat(tmpDb).catch(() => undefined))?.size ?? 0,
        () => source.backup(tmpDb, { progress: () => 64 }),
      );
    } finally {
      source.close();
    }
    await fsyncPath(tmpDb);
    const digest = await fileDigest(tmpDb);
    // An older snapshot.json would vouch for the new file: remove it before the file changes.
    await rm(join(directory, SNAPSHOT_METADATA_FILE), { force: true });
    await rename(tmpDb, join(directory, SNAPSHOT_DB_FILE));
    const meta = snapshotMetadata(digest, node);
    await writeFile(tmpMeta, `${JSON.stringify(meta, null, 2)}\n`);
    await fsyncPath(tmpMeta);
    await rename(tmpMeta, join(directory, SNAPSHOT_METADATA_FILE));
    await fsyncPath(directory);
    return meta;
  } finally {
    await rm(tmpDb, { force: true });
    await rm(tmpMeta, { force: true });
  }
}

/**
 * Writes a snapshot into a staging directory under `stagingParent`, then PUTs `<url>/l2node.sqlite`
 * and, last, `<url>/snapshot.json` (it vouches for a complete upload, as on disk). The staging
 * directory is removed whatever the outcome.
 */
export async function uploadSnapshotOverHttp(
  databaseFile: string,
  url: URL,
  stagingParent: string,
  node?: Record<string, unknown>,
  options: SnapshotHttpOptions = {},
  progress?: ProgressReporting,
): Promise<SnapshotMetadata> {
  // Only one upload runs per node, so any staging directory found here was left by a crash.
  for (const entry of await readdir(stagingParent)) {
    if (entry.startsWith(HTTP_STAGING_PREFIX)) await rm(join(stagingParent, entry), { recursive: true, force: true });
  }
  const staging = await mkdtemp(join(stagingParent, HTTP_STAGING_PREFIX));
  try {
    const meta = await writeSnapshot(databaseFile, staging, node, progress);
    let sent = 0;
    await withByteProgress(
      progress,
      { message: 'snapshot upload: sending', total: meta.sizeBytes, fields: { to: displayLocation(url) } },
      () => sent,
      () =>
        putFile(snapshotFileUrl(url, SNAPSHOT_DB_FILE), join(staging, SNAPSHOT_DB_FILE), 'application/vnd.sqlite3', {
          ...options,
          onBytesSent: (n) => void (sent += n),
        }),
    );
    const metadataText = await readFile(join(staging, SNAPSHOT_METADATA_FILE), 'utf8');
    await putText(snapshotFileUrl(url, SNAPSHOT_METADATA_FILE), metadataText, 'application/json', options);
    return meta;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Uploader dependencies. */
export interface SnapshotUploaderDeps {
  /** The node's SQLite file (undefined for an in-memory or Postgres database: uploads are refused). */
  readonly databaseFile: string | undefined;
  /** Facts recorded in snapshot.json (e.g. latest block). */
  readonly describe?: () => Promise<Record<string, unknown>>;
  /** Undefined when ready, else why not (e.g. 'initial sync not complete'). */
  readonly notReadyReason?: () => string | undefined;
  /** Told about the outcome of each background upload; `directory` is the local directory or the URL without credentials and query. */
  readonly onDone?: (
    outcome: { ok: true; meta: SnapshotMetadata; directory: string } | { ok: false; error: unknown; directory: string },
  ) => void;
  /** Awaited before copying starts (lets a caller line up work against a running upload). */
  readonly beforeCopy?: () => Promise<void>;
  /** Idle timeout of each HTTP request of an http(s):// upload (default SNAPSHOT_HTTP_IDLE_TIMEOUT_MS). */
  readonly httpIdleTimeoutMs?: number;
  /** Progress lines (bytes done / total) of the copy and, over http(s), the PUT. */
  readonly progress?: ProgressReporting;
}

/** Runs at most one background upload. */
export class SnapshotUploader {
  readonly #d: SnapshotUploaderDeps;
  #running: Promise<SnapshotMetadata | undefined> | undefined;

  constructor(deps: SnapshotUploaderDeps) {
    this.#d = deps;
  }

  /** True while an upload runs. */
  get busy(): boolean {
    return this.#running !== undefined;
  }

  /** Throws SnapshotBusy while an upload runs (rollback refuses then too). */
  assertNotBusy(): void {
    if (this.#running !== undefined) throw new SnapshotBusy();
  }

  /** Starts an upload and returns at once. */
  start(location: string): void {
    this.assertNotBusy();
    const notReady = this.#d.notReadyReason?.();
    if (notReady !== undefined) throw new SnapshotNotReady(notReady);
    const file = this.#d.databaseFile;
    if (file === undefined) throw new SnapshotNotReady('the database is not a local SQLite file');
    const target = parseSnapshotLocation(location);
    const directory = target.kind === 'local' ? target.directory : displayLocation(target.url);
    this.#running = (async () => {
      try {
        await this.#d.beforeCopy?.();
        const node = await this.#d.describe?.();
        const meta =
          target.kind === 'local'
            ? await writeSnapshot(file, target.directory, node, this.#d.progress)
            : await uploadSnapshotOverHttp(
                file,
                target.url,
                dirname(file),
                node,
                { idleTimeoutMs: this.#d.httpIdleTimeoutMs },
                this.#d.progress,
              );
        this.#d.onDone?.({ ok: true, meta, directory });
        return meta;
      } catch (error) {
        this.#d.onDone?.({ ok: false, error, directory });
        return undefined;
      } finally {
        this.#running = undefined;
      }
    })();
  }

  /** Resolves when the running upload (if any) has finished: its metadata, or undefined on failure. */
  async idle(): Promise<SnapshotMetadata | undefined> {
    return this.#running;
  }
}
