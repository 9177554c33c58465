/**
 * The ordered list of schema migrations. Add a new `NNN-name.ts` module next to this file and
 * append it here; the schema version is the number of migrations.
 * @module
 */
import type { Knex } from 'knex';
import * as m001 from './001-world-state.ts';

/** One migration: a unique sortable name plus up/down. */
export interface MigrationModule {
  readonly name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** All migrations in the order they run. */
export const migrations: readonly MigrationModule[] = [
  { name: '001-world-state', up: m001.up, down: m001.down },
];

/** The schema version this code writes. */
export const LATEST_SCHEMA_VERSION = migrations.length;
