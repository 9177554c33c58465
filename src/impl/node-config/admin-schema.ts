/**
 * Runs the admin-side migrations (ADMIN_MIGRATIONS in store/migrations/index.ts: 015 validators,
 * 016 slashing, 017 node config) once per database handle, the way the mempool runs its own list
 * (txpool/pool-store.ts): whichever opener reaches a database first creates the tables.
 * @module
 */
import type { Knex } from 'knex';
import { ADMIN_MIGRATIONS, runMigrationList } from '../store/migrations/index.ts';

const migrated = new WeakSet<Knex>();

/** Creates the validator, slashing and node-config tables when missing. */
export async function migrateAdminSchema(db: Knex): Promise<void> {
  if (migrated.has(db)) return;
  await runMigrationList(db, ADMIN_MIGRATIONS);
  migrated.add(db);
}
