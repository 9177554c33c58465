import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, setMetadata, getMetadata, SchemaVersionError, SQLITE_FILE_NAME } from '../../../src/impl/store/database.ts';
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
