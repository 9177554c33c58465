/**
 * WAL checkpoints on a worker thread (src/impl/store/wal-checkpointer.ts): the node's connection
 * only checkpoints past a high bound, the worker copies the WAL into the database file, the WAL
 * starts over once it has, closing removes it, and a process killed while it writes and the worker
 * checkpoints loses no committed transaction.
 * @module
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { openDatabase, SQLITE_FILE_NAME } from '../../../src/impl/store/database.ts';
import { NODE_WAL_AUTOCHECKPOINT_PAGES, WalCheckpointer } from '../../../src/impl/store/wal-checkpointer.ts';

const dir = mkdtempSync(join(tmpdir(), 'l2node-wal-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; !done(); i++) {
    if (i > 6000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const MB = 'y'.repeat(1 << 20);

describe('WAL checkpoints on a worker thread', () => {
  it('the worker copies the WAL into the file, the WAL starts over, and closing removes it', async () => {
    const file = join(dir, 'worker.sqlite');
    const conn = new Database(file);
    conn.pragma('journal_mode = WAL');
    conn.exec('create table t (k integer primary key, v text not null)');
    const cp = new WalCheckpointer(conn, file, 10);
    try {
      assert.equal(conn.pragma('wal_autocheckpoint', { simple: true }), NODE_WAL_AUTOCHECKPOINT_PAGES);
      // 8 MB in one commit: ~2 000 pages, under the node connection's bound, so only the worker checkpoints.
      const insert = conn.prepare('insert into t (v) values (?)');
      conn.transaction(() => {
        for (let i = 0; i < 8; i++) insert.run(MB);
      })();
      await until('the worker to copy 8 MB into the database file', () => cp.checkpoints >= 1);
      assert.ok(statSync(file).size >= 8 << 20, `database file ${statSync(file).size} bytes`);
      // Each commit after a complete checkpoint starts the WAL over: ten more 1 MB commits reuse the
      // file's first frames instead of growing it to 18 MB.
      const walSize = statSync(`${file}-wal`).size;
      for (let i = 0; i < 10; i++) {
        const seen = cp.checkpoints;
        insert.run(MB);
        await until('a checkpoint', () => cp.checkpoints > seen);
      }
      assert.ok(statSync(`${file}-wal`).size <= walSize, `WAL ${statSync(`${file}-wal`).size} bytes, was ${walSize}`);
      assert.equal(cp.lastError, undefined);
    } finally {
      await cp.stop();
    }
    // Without the worker the connection checkpoints on its own again.
    assert.equal(conn.pragma('wal_autocheckpoint', { simple: true }), 1000);
    conn.close();
    assert.equal(existsSync(`${file}-wal`), false);
    assert.equal((new Database(file).prepare('select count(*) as n from t').get() as { n: number }).n, 18);
  });

  it('openDatabase checkpoints a SQLite file off the event loop and stops the worker when destroyed', async () => {
    const data = join(dir, 'node');
    const db = await openDatabase({ dataDirectory: data });
    const [row] = (await db.raw('pragma wal_autocheckpoint')) as { wal_autocheckpoint: number }[];
    assert.equal(row?.wal_autocheckpoint, NODE_WAL_AUTOCHECKPOINT_PAGES);
    await db.destroy();
    assert.equal(existsSync(join(data, `${SQLITE_FILE_NAME}-wal`)), false);
    const memory = await openDatabase({ dataDirectory: ':memory:' });
    const [m] = (await memory.raw('pragma wal_autocheckpoint')) as { wal_autocheckpoint: number }[];
    assert.equal(m?.wal_autocheckpoint, 1000, 'a memory database has no WAL and no worker');
    await memory.destroy();
  });

  it('a process killed with SIGKILL while it commits and the worker checkpoints loses no committed transaction', async () => {
    const data = join(dir, 'crash');
    const child = spawn(process.execPath, [fileURLToPath(new URL('./wal-crash-child.ts', import.meta.url)), data], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let committed = 0;
    let text = '';
    const exited = new Promise((r) => child.on('exit', r));
    child.stdout.on('data', (d: Buffer) => {
      text += d.toString();
      const lines = text.split('\n');
      text = lines.pop()!;
      if (lines.length > 0) committed = Number(lines.at(-1));
      // ~40 MB written: several worker checkpoints and WAL restarts behind it.
      if (committed >= 200) child.kill('SIGKILL');
    });
    await exited;
    assert.ok(committed >= 200, `child stopped after ${committed} commits`);
    const db = await openDatabase({ dataDirectory: data });
    try {
      const r = await db('crash_rows').count('* as n').max('n as top').first();
      assert.ok(Number(r?.n) >= committed, `${r?.n} rows on disk, ${committed} acknowledged`);
      assert.equal(Number(r?.n), Number(r?.top), 'no gap: every row up to the last one is there');
    } finally {
      await db.destroy();
    }
  });
});
