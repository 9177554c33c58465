import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openDatabase,
  setMetadata,
  getMetadata,
  SchemaVersionError,
  SQLITE_FILE_NAME,
  cachePreparedStatements,
} from '../../../src/impl/store/database.ts';
import { LATEST_SCHEMA_VERSION } from '../../../src/impl/store/migrations/index.ts';

test('openDatabase creates <dataDirectory>/l2node.sqlite in WAL mode and records the schema version', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-db-'));
  try {
    const db = await openDatabase({ dataDirectory: dir });
    assert.ok(existsSync(join(dir, SQLITE_FILE_NAME)));
    const mode = await db.raw('PRAGMA journal_mode');
    assert.equal(String(mode[0].journal_mode).toLowerCase(), 'wal');
    assert.equal(await getMetadata(db, 'schema_version'), String(LATEST_SCHEMA_VERSION));
    await db.destroy();
    const again = await openDatabase({ dataDirectory: dir });
    assert.equal(await getMetadata(again, 'schema_version'), String(LATEST_SCHEMA_VERSION));
    await again.destroy();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a database written by a newer schema version is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-db-'));
  try {
    const db = await openDatabase({ dataDirectory: dir });
    await setMetadata(db, 'schema_version', String(LATEST_SCHEMA_VERSION + 1));
    await db.destroy();
    await assert.rejects(openDatabase({ dataDirectory: dir }), SchemaVersionError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cachePreparedStatements prepares a SQL text once and evicts the least recently used past its bound', () => {
  const prepared: string[] = [];
  const conn = {
    prepare: (sql: string): unknown => {
      prepared.push(sql);
      return { sql };
    },
  };
  cachePreparedStatements(conn, 2);
  const a = conn.prepare('a');
  assert.equal(conn.prepare('a'), a);
  conn.prepare('b');
  conn.prepare('a'); // a is now the most recent, so c evicts b
  conn.prepare('c');
  assert.equal(conn.prepare('a'), a);
  conn.prepare('b');
  assert.deepEqual(prepared, ['a', 'b', 'c', 'b']);
});

test('knex queries on SQLite reuse one statement per SQL text and still see new rows and schema changes', async () => {
  const db = await openDatabase({ dataDirectory: ':memory:' });
  try {
    await db.schema.createTable('cache_t', (t) => {
      t.integer('n').primary();
      t.text('v');
    });
    const conn = (await db.client.acquireConnection()) as { prepare(sql: string): unknown };
    await db.client.releaseConnection(conn);
    const sql = db('cache_t').where('n', 1).first().toSQL().sql;
    assert.equal(conn.prepare(sql), conn.prepare(sql));
    assert.equal(await db('cache_t').where('n', 1).first(), undefined);
    await db('cache_t').insert({ n: 1, v: 'x' });
    assert.deepEqual(await db('cache_t').where('n', 1).first(), { n: 1, v: 'x' });
    await db.schema.alterTable('cache_t', (t) => {
      t.text('w');
    });
    assert.deepEqual(await db('cache_t').where('n', 1).first(), { n: 1, v: 'x', w: null });
    await assert.rejects(db('cache_t').insert({ n: 1, v: 'dup' }));
    await db.transaction(async (trx) => {
      await trx('cache_t').insert({ n: 2, v: 'y' });
    });
    assert.equal((await db('cache_t').count({ c: '*' }))[0]!.c, 2);
  } finally {
    await db.destroy();
  }
});
