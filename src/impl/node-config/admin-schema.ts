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

/** A store over admin-side tables: `open` creates the tables first, then hands out the store. */
export abstract class AdminTableStore {
  protected readonly db: Knex;
  /** Prefer `open`: a store built directly finds its tables only once something else created them. */
  constructor(db: Knex) {
    this.db = db;
  }

  /** Ensures the admin tables exist and returns a store of this class over `db`. */
  static async open<S extends AdminTableStore>(this: new (db: Knex) => S, db: Knex): Promise<S> {
    await migrateAdminSchema(db);
    return new this(db);
  }
}
