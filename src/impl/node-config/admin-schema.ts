/**
 * Runs the admin-side migrations (015 validators, 016 slashing, 017 node config) on a database,
 * in their own knex bookkeeping table, the way the mempool does (src/impl/txpool/pool-store.ts):
 * whichever opener reaches a database first creates the tables, and the migrations themselves
 * are idempotent, so running them again through the store's list is harmless.
 * @module
 */
import type { Knex } from 'knex';
import * as m015 from '../store/migrations/015-validators.ts';
import * as m016 from '../store/migrations/016-slashing.ts';
import * as m017 from '../store/migrations/017-node-config.ts';

/** The bookkeeping table of these migrations. */
export const ADMIN_MIGRATION_TABLE = 'knex_migrations_admin';

/** The admin-side migrations in order (names as recorded). */
export const adminMigrations = [
  { name: '015-validators', up: m015.up, down: m015.down },
  { name: '016-slashing', up: m016.up, down: m016.down },
  { name: '017-node-config', up: m017.up, down: m017.down },
] as const;

const migrated = new WeakSet<Knex>();

/** Creates the validator, slashing and node-config tables when missing. */
export async function migrateAdminSchema(db: Knex): Promise<void> {
  if (migrated.has(db)) return;
  await db.migrate.latest({
    tableName: ADMIN_MIGRATION_TABLE,
    migrationSource: {
      getMigrations: async () => adminMigrations.map((m) => m.name),
      getMigrationName: (name: string) => name,
      getMigration: async (name: string) => adminMigrations.find((m) => m.name === name)!,
    },
  });
  migrated.add(db);
}
