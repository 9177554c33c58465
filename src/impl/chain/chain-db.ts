/**
 * Opens the chain's knex database and runs the chain and L1 migrations through a migration
 * source over the modules themselves (so they run under type stripping). When the store layer's
 * runner owns the database, pass its knex to the engine instead; the names match.
 * @module
 */
import knexFactory, { type Knex } from 'knex';
import * as m010 from '../store/migrations/010-chain-blocks.ts';
import * as m011 from '../store/migrations/011-chain-logs.ts';
import * as m012 from '../store/migrations/012-l1-dev-chain.ts';

const MIGRATIONS: Record<string, { up(k: Knex): Promise<void>; down(k: Knex): Promise<void> }> = {
  '010-chain-blocks.ts': m010,
  '011-chain-logs.ts': m011,
  '012-l1-dev-chain.ts': m012,
};

/** The chain's migrations as a knex migration source. */
export const chainMigrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(MIGRATIONS).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => MIGRATIONS[name]!,
};

/** Opens better-sqlite3 at `filename` (':memory:' for none) and migrates it to the latest schema. */
export async function openChainDb(filename: string): Promise<Knex> {
  const db = knexFactory({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true });
  await db.migrate.latest({ migrationSource: chainMigrationSource });
  return db;
}
