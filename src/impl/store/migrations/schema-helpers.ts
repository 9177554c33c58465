/**
 * Shorthands the migrations share: NOT NULL columns from an SQL-like list, and dropping a list
 * of tables. They call knex's schema builder exactly as the long form did, in the same
 * order, so the schema they produce is the same (test/unit/store/schema.test.ts compares it).
 * @module
 */
import type { Knex } from 'knex';

const KINDS = ['integer', 'bigInteger', 'binary', 'text', 'string'] as const;

/**
 * Adds NOT NULL columns in the order listed: `'name kind, name kind, …'` as in SQL, with the
 * knex builder's kind (integer, bigInteger, binary, text, string or string(N) for a varchar of N).
 */
export function requiredColumns(t: Knex.CreateTableBuilder, columns: string): void {
  for (const column of columns.split(',')) {
    const [, name, kind, length] = /^\s*(\w+) (\w+)(?:\((\d+)\))?\s*$/.exec(column) ?? [];
    const k = KINDS.find((x) => x === kind);
    if (name === undefined || k === undefined || (length !== undefined && k !== 'string'))
      throw new Error(`migration: bad column "${column.trim()}"`);
    (length === undefined ? t[k](name) : t.string(name, Number(length))).notNullable();
  }
}

/** Drops the tables that exist, in order (dependents first). */
export async function dropTables(knex: Knex, tables: readonly string[]): Promise<void> {
  for (const table of tables) await knex.schema.dropTableIfExists(table);
}
