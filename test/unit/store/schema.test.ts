/**
 * The schema the migrations build, on SQLite and on Postgres, against the copy recorded in
 * test/unit/store/schema/: tables, columns, indexes, constraints and the names of the recorded
 * migrations. A database built by an earlier release must still open, so a change to an existing
 * migration's output fails here; a new migration changes the record on purpose (copy the actual
 * dump this test writes to test/tmp/ over the record and review the diff).
 * @module
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { migrateAdminSchema } from '../../../src/impl/node-config/admin-schema.ts';
import { ADMIN_MIGRATIONS, migrationLists } from '../../../src/impl/store/migrations/index.ts';
import { type Engine, openTestDatabase } from './engines.ts';

const RECORD_DIR = fileURLToPath(new URL('./schema/', import.meta.url));
const ACTUAL_DIR = fileURLToPath(new URL('../../tmp/', import.meta.url));
const BOOKKEEPING = [...migrationLists, ADMIN_MIGRATIONS].map((l) => l.tableName);

async function migrationNames(db: Knex): Promise<string[]> {
  const out: string[] = [];
  for (const table of BOOKKEEPING)
    for (const r of await db(table).orderBy('id').select('name')) out.push(`migration ${table} ${r.name}`);
  return out;
}

async function sqliteSchema(db: Knex): Promise<string[]> {
  const rows: { type: string; name: string; sql: string | null }[] = await db.raw(
    "select type, name, sql from sqlite_master where name not like 'knex_%' and name not like 'sqlite_%' order by type, name",
  );
  return rows.map((r) => `${r.type} ${r.name}: ${r.sql}`);
}

async function postgresSchema(db: Knex): Promise<string[]> {
  const schema = (await db.raw('select current_schema() as s')).rows[0].s as string;
  const query = async (sql: string) =>
    ((await db.raw(sql, [schema])).rows as Record<string, unknown>[]).map((r) =>
      JSON.stringify(r).replaceAll(schema, '<schema>'),
    );
  return [
    ...(await query(
      `select table_name, column_name, data_type, character_maximum_length, is_nullable, column_default
       from information_schema.columns where table_schema = ? and table_name not like 'knex_%'
       order by table_name, ordinal_position`,
    )),
    ...(await query(
      `select tablename, indexname, indexdef from pg_indexes
       where schemaname = ? and tablename not like 'knex_%' order by tablename, indexname`,
    )),
    ...(await query(
      `select conrelid::regclass::text as table_name, conname, pg_get_constraintdef(oid) as definition
       from pg_constraint where connamespace = ?::regnamespace and conrelid::regclass::text not like '%knex_%'
       order by 1, 2`,
    )),
  ];
}

async function checkSchema(engine: Engine): Promise<void> {
  const db = await openTestDatabase(engine);
  await migrateAdminSchema(db);
  const lines = [
    ...(await migrationNames(db)),
    ...(engine === 'sqlite' ? await sqliteSchema(db) : await postgresSchema(db)),
  ];
  const actual = `${lines.join('\n')}\n`;
  const recorded = readFileSync(`${RECORD_DIR}${engine}.txt`, 'utf8');
  if (actual !== recorded) {
    mkdirSync(ACTUAL_DIR, { recursive: true });
    writeFileSync(`${ACTUAL_DIR}schema-${engine}.actual.txt`, actual);
  }
  assert.equal(actual, recorded, `schema differs from test/unit/store/schema/${engine}.txt (actual in test/tmp/)`);
}

describe('the migrations build the recorded schema', () => {
  it('on SQLite', () => checkSchema('sqlite'));
  it('on Postgres', () => checkSchema('postgres'));
});
