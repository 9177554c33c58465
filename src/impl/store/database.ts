/**
 * Opens the node database: knex over better-sqlite3 (`<dataDirectory>/l2node.sqlite` in WAL mode,
 * or `:memory:`) or Postgres through `pg` when a URL is given; runs the same TypeScript migrations
 * on either engine and checks the schema version recorded in `l2node_metadata`. A SQLite file's WAL
 * checkpoints run on a worker thread with its own connection (wal-checkpointer.ts), not inside the
 * node's commits.
 *
 * Isolation: every block is written in one transaction (world state: WorldState.applyBlock;
 * chain tables: ChainStore.saveBlock). On Postgres that is READ COMMITTED, the server default,
 * which never shows a reader rows of an uncommitted transaction, so a block becomes visible
 * all at once at COMMIT. A reader that needs several statements to agree on one state either
 * pins a block number (the world-state rows are versioned by block) or runs them in
 * `readSnapshot` (REPEATABLE READ, read only). SQLite in WAL mode gives the same guarantees:
 * one writer, readers see the last committed transaction.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Knex } from 'knex';
import knexFactory from 'knex';
import type { ReconnectOptions } from './database-health.ts';
import { DatabaseHealth, retryOnConnectionLoss, watchConnection } from './database-health.ts';
import { LATEST_SCHEMA_VERSION, migrationLists, runMigrationList } from './migrations/index.ts';
import { WalCheckpointer } from './wal-checkpointer.ts';

export type { DatabaseHealth, DatabaseHealthReport } from './database-health.ts';
export { DatabaseState, databaseHealth, isConnectionLost, retryOnConnectionLoss } from './database-health.ts';

/** Where the database lives. */
export interface DatabaseOptions {
  /** Directory for l2node.sqlite; '' or ':memory:' for an in-memory database. */
  readonly dataDirectory: string;
  /** postgres://… — when set, Postgres is used instead of SQLite. */
  readonly databaseUrl?: string;
  /** Postgres schema to keep the tables in (created when missing); default: the role's search_path. */
  readonly databaseSchema?: string;
  /** false: do not migrate, only require the schema to be exactly this code's (readers beside a writer). */
  readonly migrate?: boolean;
  /** Backoff after a lost Postgres connection. */
  readonly reconnect?: ReconnectOptions;
  /** How long opening keeps retrying a Postgres server that refuses connections (default 5 s). */
  readonly connectRetryMs?: number;
}

/** The database file name inside the data directory. */
export const SQLITE_FILE_NAME = 'l2node.sqlite';

/** Thrown when the database's schema version is not one this l2node can use. */
export class SchemaVersionError extends Error {
  readonly found: number;
  readonly supported: number;
  constructor(found: number, supported: number) {
    super(
      found > supported
        ? `database schema version ${found} is newer than this l2node supports (${supported}): it was written by a newer l2node; upgrade l2node or use another database`
        : `database schema version ${found} is older than this l2node's (${supported}); open it once with migrations enabled`,
    );
    this.name = 'SchemaVersionError';
    this.found = found;
    this.supported = supported;
  }
}

const PG_INT8_OID = 20;

/**
 * pg returns int8 (bigint columns, count(*), max()) as strings; heights, indices and counts stay
 * below 2^53, so they come back as numbers, as better-sqlite3 returns them. Larger values throw
 * rather than lose digits.
 */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${text} does not fit a JavaScript number`);
  return n;
}

/** Builds the knex config for the options (no connection yet; the Postgres schema must exist). */
export function databaseKnexConfig(opts: DatabaseOptions): Knex.Config {
  if (opts.databaseUrl) return postgresConfig(opts.databaseUrl, opts.databaseSchema);
  const memory = opts.dataDirectory === '' || opts.dataDirectory === ':memory:';
  let filename = ':memory:';
  if (!memory) {
    mkdirSync(opts.dataDirectory, { recursive: true });
    filename = join(opts.dataDirectory, SQLITE_FILE_NAME);
  }
  return {
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    // One connection: SQLite serialises writers anyway, and an in-memory database exists per connection.
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { pragma(s: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        try {
          if (!memory) conn.pragma('journal_mode = WAL');
          // NORMAL is durable across process crashes in WAL mode (only power loss can lose the last commit).
          conn.pragma('synchronous = NORMAL');
          conn.pragma('foreign_keys = ON');
          cachePreparedStatements(conn as unknown as PreparingConnection);
          // A memory database has no WAL; a file's checkpoints run on a worker thread (wal-checkpointer.ts).
          if (!memory) checkpointOffThread(conn as unknown as ClosingConnection, filename);
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
  };
}

interface ClosingConnection {
  pragma(s: string): unknown;
  close(): unknown;
}

/** Starts `conn`'s checkpoint worker; closing `conn` stops it first, so `conn` closes last and removes the WAL. */
function checkpointOffThread(conn: ClosingConnection, filename: string): void {
  const checkpointer = new WalCheckpointer(conn, filename);
  const close = conn.close.bind(conn);
  conn.close = async () => {
    await checkpointer.stop();
    return close();
  };
}

/**
 * Statements kept per SQLite connection. The engine runs ~20 distinct knex SQL texts per block and
 * the RPC readers a few dozen more; texts that vary (IN lists of varying length, savepoint names)
 * fall out least-recently-used first. A statement costs ~2–10 KB of native memory, so the cache
 * holds at most a few MB.
 */
export const SQLITE_STATEMENT_CACHE_SIZE = 256;

interface PreparingConnection {
  prepare(sql: string): unknown;
}

/**
 * Makes `conn.prepare` return a cached statement for a SQL text it has prepared before. knex's
 * better-sqlite3 dialect prepares every query anew; each statement holds native memory that V8
 * does not see, freed only after a full GC finds its wrapper dead and a later event-loop turn runs
 * its finalizer. A process with a small, flat JS heap runs few full GCs (and a loop that never
 * yields to the event loop none), so dead statements piled up to hundreds of MB of malloc heap
 * that glibc then kept (issue #12, docs/PERFORMANCE-NOTES.md "Memory"). Reuse is safe here: knex
 * and sql.ts run a statement to completion synchronously (all/get/run, never iterate) and never
 * change its modes (raw, pluck, bind, safeIntegers).
 */
export function cachePreparedStatements(conn: PreparingConnection, max = SQLITE_STATEMENT_CACHE_SIZE): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, unknown>();
  conn.prepare = (sql: string) => {
    let st = cache.get(sql);
    if (st !== undefined) {
      cache.delete(sql); // re-inserted below: Map order is recency order
    } else {
      st = prepare(sql);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, st);
    return st;
  };
}

function postgresConfig(url: string, schema: string | undefined): Knex.Config {
  // pg is loaded only here, so a SQLite-only node never loads it (knex would anyway, for client 'pg').
  pgTypes ??= (createRequire(import.meta.url)('pg') as { types: PgTypes }).types;
  const defaults = pgTypes;
  const types = {
    getTypeParser: (oid: number, format?: string) =>
      oid === PG_INT8_OID && format !== 'binary' ? parseInt8 : defaults.getTypeParser(oid, format),
  };
  return {
    client: 'pg',
    connection: { connectionString: url, types } as Knex.PgConnectionConfig,
    ...(schema ? { searchPath: [schema] } : {}),
    // min 0: after a server restart no dead idle connection lingers; new ones are made on demand.
    pool: { min: 0, max: 10 },
    acquireConnectionTimeout: 10_000,
    // knex warns on every refused connect; DatabaseHealth records those (GET /status), so only they are dropped.
    log: {
      warn: (m: unknown) => {
        if (!/^Acquire connection error/.test(String(m))) console.warn(m);
      },
    },
  };
}

/** pg's own type parsers, used for every type but int8. */
interface PgTypes {
  getTypeParser(oid: number, format?: string): (v: string) => unknown;
}
let pgTypes: PgTypes | undefined;

/** Opens the database, migrates it to the latest schema and verifies the schema version. */
export async function openDatabase(opts: DatabaseOptions): Promise<Knex> {
  const postgres = Boolean(opts.databaseUrl);
  const db = knexFactory(databaseKnexConfig(opts));
  const health = new DatabaseHealth(postgres ? 'postgres' : 'sqlite', opts.reconnect);
  if (postgres) watchConnection(db, health);
  try {
    await retryOnConnectionLoss(db, () => prepare(db, opts), postgres ? (opts.connectRetryMs ?? 5_000) : 0);
    return db;
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

async function prepare(db: Knex, opts: DatabaseOptions): Promise<void> {
  if (opts.databaseUrl && opts.databaseSchema) await db.raw('create schema if not exists ??', [opts.databaseSchema]);
  const found = await readSchemaVersion(db);
  if (found > LATEST_SCHEMA_VERSION) throw new SchemaVersionError(found, LATEST_SCHEMA_VERSION);
  if (opts.migrate === false) {
    if (found !== LATEST_SCHEMA_VERSION) throw new SchemaVersionError(found, LATEST_SCHEMA_VERSION);
    return;
  }
  for (const list of migrationLists) await runMigrationList(db, list);
  await setMetadata(db, 'schema_version', String(LATEST_SCHEMA_VERSION));
}

/** The recorded schema version (0 for an empty database). */
async function readSchemaVersion(db: Knex): Promise<number> {
  if (!(await db.schema.hasTable('l2node_metadata'))) return 0;
  const row = await db('l2node_metadata').where({ key: 'schema_version' }).first();
  return row ? Number(row.value) : 0;
}

/**
 * Runs `fn` in a read-only transaction that sees one committed state throughout (Postgres:
 * REPEATABLE READ READ ONLY; SQLite: a WAL read transaction, which holds its snapshot).
 */
export function readSnapshot<T>(db: Knex, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const pg = db.client.config?.client === 'pg';
  return db.transaction(fn, pg ? { isolationLevel: 'repeatable read', readOnly: true } : undefined);
}

/** Reads a metadata value (undefined when absent). */
export async function getMetadata(db: Knex | Knex.Transaction, key: string): Promise<string | undefined> {
  const row = await db('l2node_metadata').where({ key }).first();
  return row ? String(row.value) : undefined;
}

/** Writes a metadata value. */
export async function setMetadata(db: Knex | Knex.Transaction, key: string, value: string): Promise<void> {
  await db('l2node_metadata').insert({ key, value }).onConflict('key').merge();
}
