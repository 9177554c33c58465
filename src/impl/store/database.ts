/**
 * Opens the node database: knex over better-sqlite3 (`<dataDirectory>/l2node.sqlite` in WAL mode,
 * or `:memory:`) or Postgres through `pg` when a URL is given; runs the TypeScript migrations and
 * checks the schema version recorded in `l2node_metadata`.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { migrations, LATEST_SCHEMA_VERSION } from './migrations/index.ts';

/** Where the database lives. */
export interface DatabaseOptions {
  /** Directory for l2node.sqlite; '' or ':memory:' for an in-memory database. */
  readonly dataDirectory: string;
  /** postgres://… — when set, Postgres is used instead of SQLite. */
  readonly databaseUrl?: string;
}

/** The database file name inside the data directory. */
export const SQLITE_FILE_NAME = 'l2node.sqlite';

/** Thrown when the database was written by a newer l2node (unknown schema version). */
export class SchemaVersionError extends Error {
  constructor(found: number, supported: number) {
    super(`database schema version ${found} is newer than this l2node supports (${supported})`);
    this.name = 'SchemaVersionError';
  }
}

/** A knex migration source over the statically imported migration list (works under type stripping). */
class ModuleMigrationSource implements Knex.MigrationSource<string> {
  async getMigrations(): Promise<string[]> {
    return migrations.map((m) => m.name);
  }
  getMigrationName(name: string): string {
    return name;
  }
  async getMigration(name: string): Promise<Knex.Migration> {
    const m = migrations.find((x) => x.name === name);
    if (!m) throw new Error(`unknown migration ${name}`);
    return { up: m.up, down: m.down };
  }
}

/** Builds the knex config for the options (no connection yet). */
function knexConfig(opts: DatabaseOptions): Knex.Config {
  if (opts.databaseUrl) {
    return { client: 'pg', connection: opts.databaseUrl, pool: { min: 0, max: 10 } };
  }
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
          done(null, conn);
        } catch (err) {
          done(err as Error, conn);
        }
      },
    },
  };
}

/** Opens the database, migrates it to the latest schema and verifies the schema version. */
export async function openDatabase(opts: DatabaseOptions): Promise<Knex> {
  const db = knexFactory(knexConfig(opts));
  try {
    await checkSchemaVersion(db);
    await db.migrate.latest({ migrationSource: new ModuleMigrationSource(), tableName: 'knex_migrations' });
    await db('l2node_metadata')
      .insert({ key: 'schema_version', value: String(LATEST_SCHEMA_VERSION) })
      .onConflict('key')
      .merge();
    return db;
  } catch (err) {
    await db.destroy();
    throw err;
  }
}

/** Refuses a database whose recorded schema version is newer than the code's migrations. */
async function checkSchemaVersion(db: Knex): Promise<void> {
  if (!(await db.schema.hasTable('l2node_metadata'))) return;
  const row = await db('l2node_metadata').where({ key: 'schema_version' }).first();
  const found = row ? Number(row.value) : 0;
  if (found > LATEST_SCHEMA_VERSION) throw new SchemaVersionError(found, LATEST_SCHEMA_VERSION);
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
