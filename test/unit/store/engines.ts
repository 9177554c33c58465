/**
 * Test databases on either engine. `L2NODE_TEST_ENGINE=postgres` switches the suites that open
 * their database through these helpers (world state, mempool) from in-memory SQLite to
 * Postgres; each database is then a fresh schema on the server named by
 * `L2NODE_TEST_DATABASE_URL` (or test/tmp/postgres-url, written by scripts/postgres-start.sh),
 * dropped when the test file ends.
 * @module
 */
import { after } from 'node:test';
import { readFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { databaseKnexConfig, openDatabase } from '../../../src/impl/store/database.ts';
import type { DatabaseOptions } from '../../../src/impl/store/database.ts';

/** The two storage engines. */
export type Engine = 'sqlite' | 'postgres';

/** The engine the shared suites run on (env L2NODE_TEST_ENGINE, default sqlite). */
export const TEST_ENGINE: Engine = process.env.L2NODE_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

const URL_FILE = fileURLToPath(new URL('../../tmp/postgres-url', import.meta.url));

/** What to run when no Postgres is configured. */
export const HOW_TO_START_POSTGRES =
  'Postgres tests need a server: run `bash scripts/postgres-start.sh` (as root; installs postgresql from Debian if missing, ~1 s when installed) ' +
  'which writes test/tmp/postgres-url, or set L2NODE_TEST_DATABASE_URL=postgres://user:password@host:port/database';

/** The test server's URL; throws, saying how to start one, when there is none. */
export function testDatabaseUrl(): string {
  const env = process.env.L2NODE_TEST_DATABASE_URL;
  if (env) return env;
  try {
    const url = readFileSync(URL_FILE, 'utf8').trim();
    if (url) return url;
  } catch {
    // fall through to the message
  }
  throw new Error(HOW_TO_START_POSTGRES);
}

const schemas = new Set<string>();
const opened: Knex[] = [];
after(async () => {
  for (const db of opened.splice(0)) await db.destroy().catch(() => undefined);
  if (schemas.size === 0) return;
  const admin = knexFactory({ client: 'pg', connection: testDatabaseUrl(), pool: { min: 0, max: 1 } });
  for (const s of schemas) await admin.raw('drop schema if exists ?? cascade', [s]).catch(() => undefined);
  await admin.destroy();
});

/** A schema name unique to this run (or derived from `key`, so the same key reopens the same schema). */
export function testSchema(key?: string): string {
  const suffix =
    key === undefined ? randomBytes(6).toString('hex') : createHash('sha256').update(key).digest('hex').slice(0, 12);
  const name = `t_${process.pid}_${suffix}`;
  schemas.add(name);
  return name;
}

/** Opens a fresh, migrated database on `engine` (closed, and on Postgres dropped, after the file). */
export async function openTestDatabase(
  engine: Engine = TEST_ENGINE,
  extra: Partial<DatabaseOptions> = {},
): Promise<Knex> {
  const opts: DatabaseOptions =
    engine === 'postgres'
      ? { dataDirectory: '', databaseUrl: testDatabaseUrl(), databaseSchema: testSchema(), ...extra }
      : { dataDirectory: ':memory:', ...extra };
  const db = await openDatabase(opts);
  opened.push(db);
  return db;
}

/**
 * A plain knex (no migrations) for code that migrates itself: better-sqlite3 on `filename`, or a
 * Postgres schema derived from `filename`, so reopening the same name reopens the same data.
 */
export function openTestKnex(filename: string, engine: Engine = TEST_ENGINE): Knex {
  if (engine === 'sqlite')
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
    });
  const schema = testSchema(filename === ':memory:' ? undefined : filename);
  const db = knexFactory({
    ...databaseKnexConfig({ dataDirectory: '', databaseUrl: testDatabaseUrl(), databaseSchema: schema }),
    // The schema is made on first connect: the callers are synchronous.
    pool: {
      min: 0,
      max: 4,
      afterCreate(
        conn: { query(sql: string, cb: (err: Error | null) => void): void },
        done: (err: Error | null, conn: unknown) => void,
      ) {
        conn.query(`create schema if not exists "${schema}"`, (err) => done(err, conn));
      },
    },
  });
  return db;
}

/** A fresh database (not a schema) on the Postgres server at `base`, named after `prefix`; returns its URL and a drop function. */
export async function freshPostgresDatabase(
  base: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
  await admin.raw('create database ??', [name]);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.raw('drop database if exists ?? with (force)', [name]).catch(() => undefined);
      await admin.destroy();
    },
  };
}
