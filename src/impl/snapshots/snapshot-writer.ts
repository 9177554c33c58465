/**
 * nodeAdmin_startSnapshotUpload: copies the node database into a snapshot directory in the
 * background while the node keeps serving. The copy uses SQLite's online backup API on a
 * separate read-only connection (it works in steps and yields to the event loop, so requests
 * keep being answered; it restarts itself when a writer changes the source, so the copy is a
 * consistent state). The copy goes to a temp file, is checksummed and flushed, then renamed into
 * place; snapshot.json follows the same way. One upload at a time.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  fileDigest, fsyncPath, snapshotDirectory, SNAPSHOT_DB_FILE, SNAPSHOT_FORMAT, SNAPSHOT_METADATA_FILE, type SnapshotMetadata,
} from './snapshot-files.ts';

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
export async function writeSnapshot(databaseFile: string, directory: string, node?: Record<string, unknown>): Promise<SnapshotMetadata> {
  await mkdir(directory, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmpDb = join(directory, `.${SNAPSHOT_DB_FILE}.${tag}.tmp`);
  const tmpMeta = join(directory, `.${SNAPSHOT_METADATA_FILE}.${tag}.tmp`);
  try {
    const source = new Database(databaseFile, { readonly: true, fileMustExist: true });
    try {
      await source.backup(tmpDb, { progress: () => 64 });
    } finally {
      source.close();
    }
    await fsyncPath(tmpDb);
    const digest = await fileDigest(tmpDb);
    // An older snapshot.json would vouch for the new file: remove it before the file changes.
    await rm(join(directory, SNAPSHOT_METADATA_FILE), { force: true });
    await rename(tmpDb, join(directory, SNAPSHOT_DB_FILE));
    const meta: SnapshotMetadata = {
      format: SNAPSHOT_FORMAT, createdAt: new Date().toISOString(), file: SNAPSHOT_DB_FILE, ...digest, ...(node === undefined ? {} : { node }),
    };
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

/** Uploader dependencies. */
export interface SnapshotUploaderDeps {
  /** The node's SQLite file (undefined for an in-memory or Postgres database: uploads are refused). */
  readonly databaseFile: string | undefined;
  /** Facts recorded in snapshot.json (e.g. latest block). */
  readonly describe?: () => Promise<Record<string, unknown>>;
  /** Undefined when ready, else why not (e.g. 'initial sync not complete'). */
  readonly notReadyReason?: () => string | undefined;
  /** Told about the outcome of each background upload. */
  readonly onDone?: (outcome: { ok: true; meta: SnapshotMetadata; directory: string } | { ok: false; error: unknown; directory: string }) => void;
  /** Awaited before copying starts (lets a caller line up work against a running upload). */
  readonly beforeCopy?: () => Promise<void>;
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
    const directory = snapshotDirectory(location);
    this.#running = (async () => {
      try {
        await this.#d.beforeCopy?.();
        const meta = await writeSnapshot(file, directory, await this.#d.describe?.());
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
