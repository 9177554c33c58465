/**
 * Every schema migration, in its list, and the one way to run a list: the one owner of migrations.
 * Add a new `NNN-name.ts` module next to this file and append it to its list; the schema version is
 * the number of migrations over the store's lists (`migrationLists`). The admin list is run by the
 * admin-side stores (node-config/admin-schema.ts) when they open.
 * Migrations must run unchanged on SQLite and Postgres: use knex's schema builder (bigInteger
 * for heights and indices past 2^31, binary for bytes, text/string for hex), no raw dialect SQL.
 * @module
 */
import type { Knex } from 'knex';
import * as m001 from './001-world-state.ts';
import * as m010 from './010-chain-blocks.ts';
import * as m011 from './011-chain-logs.ts';
import * as m012 from './012-l1-dev-chain.ts';
import * as m013 from './013-txpool.ts';
import * as m014 from './014-chain-fee-state.ts';
import * as m015 from './015-validators.ts';
import * as m016 from './016-slashing.ts';
import * as m017 from './017-node-config.ts';
import * as m018 from './018-chain-contracts.ts';
import * as m019 from './019-log-tag-index.ts';
import * as m020 from './020-ws-low-key-index.ts';
import * as m021 from './021-txpool-mined.ts';
import * as m022 from './022-txpool-one-status.ts';
import * as m023 from './023-txpool-bodies.ts';

/** One migration: a unique sortable name plus up/down. */
export interface MigrationModule {
  readonly name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Migrations recorded in one knex bookkeeping table. */
export interface MigrationList {
  readonly tableName: string;
  readonly migrations: readonly MigrationModule[];
}

/** One list entry: the name as recorded in the bookkeeping table, and the module's up/down. */
function step(name: string, module: Pick<MigrationModule, 'up' | 'down'>): MigrationModule {
  return { name, up: module.up, down: module.down };
}

/** The chain, world-state and L1 tables. */
export const CHAIN_MIGRATIONS: MigrationList = {
  tableName: 'knex_migrations',
  migrations: [
    step('001-world-state', m001),
    step('010-chain-blocks', m010),
    step('011-chain-logs', m011),
    step('012-l1-dev-chain', m012),
    step('014-chain-fee-state', m014),
    step('018-chain-contracts', m018),
    step('019-log-tag-index', m019),
    step('020-ws-low-key-index', m020),
  ],
};

/** The mempool's tables; the pool also runs this list when it opens (txpool/pool-store.ts), whichever runs second finds it done. */
export const TXPOOL_MIGRATIONS: MigrationList = {
  tableName: 'knex_migrations_txpool',
  migrations: [
    step('013-txpool.ts', m013),
    step('021-txpool-mined.ts', m021),
    step('022-txpool-one-status.ts', m022),
    step('023-txpool-bodies.ts', m023),
  ],
};

/** The validator, slashing and node-config tables (run by node-config/admin-schema.ts; idempotent). */
export const ADMIN_MIGRATIONS: MigrationList = {
  tableName: 'knex_migrations_admin',
  migrations: [step('015-validators', m015), step('016-slashing', m016), step('017-node-config', m017)],
};

/** The lists the store runs when it opens a database, in this order. */
export const migrationLists: readonly MigrationList[] = [CHAIN_MIGRATIONS, TXPOOL_MIGRATIONS];

/** A knex migration source over a statically imported migration list (works under type stripping). */
class ModuleMigrationSource implements Knex.MigrationSource<string> {
  readonly #list: readonly MigrationModule[];
  constructor(list: readonly MigrationModule[]) {
    this.#list = list;
  }
  async getMigrations(): Promise<string[]> {
    return this.#list.map((m) => m.name);
  }
  getMigrationName(name: string): string {
    return name;
  }
  async getMigration(name: string): Promise<Knex.Migration> {
    const m = this.#list.find((x) => x.name === name);
    if (!m) throw new Error(`unknown migration ${name}`);
    return { up: m.up, down: m.down };
  }
}

/** Runs the list's migrations not yet recorded in its bookkeeping table. */
export async function runMigrationList(db: Knex, list: MigrationList): Promise<void> {
  const config = { migrationSource: new ModuleMigrationSource(list.migrations), tableName: list.tableName };
  // knex's latest() takes its migration lock (an UPDATE) even when nothing is pending: asked first, a
  // database already at this schema is not written, so a read-only process (--role rpc) may open parts on it.
  const [, pending] = (await db.migrate.list(config)) as [unknown[], unknown[]];
  if (pending.length > 0) await db.migrate.latest(config);
}

/** All migrations in the order they run. */
export const migrations: readonly MigrationModule[] = migrationLists.flatMap((l) => l.migrations);

/** The schema version this code writes. */
export const LATEST_SCHEMA_VERSION = migrations.length;
