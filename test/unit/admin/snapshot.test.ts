/** Snapshot files: a consistent copy with its checksum; restore only into an empty directory and only when the checksum matches. */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { openDatabase, SQLITE_FILE_NAME } from '../../../src/impl/store/database.ts';
import { SnapshotRestoreError } from '../../../src/impl/snapshots/snapshot-files.ts';
import { restoreSnapshot } from '../../../src/impl/snapshots/snapshot-restore.ts';
import { SnapshotBusy, SnapshotUploader, writeSnapshot } from '../../../src/impl/snapshots/snapshot-writer.ts';
import { tempDir } from '../validators/helpers.ts';
import { seededDatabase } from './seeded-database.ts';

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('writeSnapshot / restoreSnapshot', () => {
  it('writes l2node.sqlite and snapshot.json with its checksum; restore gives identical bytes and rows', async () => {
    const { db, file } = await seededDatabase();
    try {
      const out = join(tempDir(), 'snap');
      const meta = await writeSnapshot(file, out, { latestBlock: 3 });
      assert.deepEqual(readdirSync(out).sort(), ['l2node.sqlite', 'snapshot.json']);
      assert.equal(meta.sha256, sha(join(out, 'l2node.sqlite')));
      assert.deepEqual(JSON.parse(readFileSync(join(out, 'snapshot.json'), 'utf8')), meta);
      const target = join(tempDir(), 'restored');
      const restored = await restoreSnapshot(pathToFileURL(out).href, target);
      assert.equal(restored.sha256, meta.sha256);
      assert.equal(sha(join(target, SQLITE_FILE_NAME)), meta.sha256);
      const copy = await openDatabase({ dataDirectory: target });
      try {
        assert.deepEqual(await copy('things').orderBy('id').select(), await db('things').orderBy('id').select());
      } finally {
        await copy.destroy();
      }
    } finally {
      await db.destroy();
    }
  });

  it('refuses a non-empty data directory, a tampered file and a missing snapshot.json', async () => {
    const { db, file } = await seededDatabase();
    try {
      const out = join(tempDir(), 'snap');
      await writeSnapshot(file, out);
      const busy = tempDir();
      writeFileSync(join(busy, 'x'), 'x');
      await assert.rejects(
        restoreSnapshot(out, busy),
        (e: unknown) => e instanceof SnapshotRestoreError && /not empty/.test(e.message),
      );
      appendFileSync(join(out, 'l2node.sqlite'), 'tamper');
      const target = join(tempDir(), 'fresh');
      await assert.rejects(
        restoreSnapshot(out, target),
        (e: unknown) => e instanceof SnapshotRestoreError && /checksum mismatch/.test(e.message),
      );
      assert.equal(existsSync(join(target, SQLITE_FILE_NAME)), false);
      await assert.rejects(restoreSnapshot(tempDir(), target), /snapshot\.json is missing/);
    } finally {
      await db.destroy();
    }
  });
});

describe('SnapshotUploader', () => {
  it('runs one upload at a time in the background and reports the outcome', async () => {
    const { db, file } = await seededDatabase();
    try {
      let go!: () => void;
      const outcomes: boolean[] = [];
      const up = new SnapshotUploader({
        databaseFile: file,
        beforeCopy: () => new Promise<void>((r) => (go = r)),
        onDone: (o) => outcomes.push(o.ok),
      });
      const out = join(tempDir(), 's');
      up.start(out);
      assert.ok(up.busy);
      assert.throws(() => up.start(join(tempDir(), 'other')), SnapshotBusy);
      // The node keeps writing while the upload waits and copies.
      await db('things').insert({ id: 1000, v: 'late' });
      go();
      const meta = await up.idle();
      assert.ok(meta !== undefined);
      assert.equal(up.busy, false);
      assert.deepEqual(outcomes, [true]);
      assert.equal(sha(join(out, 'l2node.sqlite')), meta.sha256);
      assert.throws(() => new SnapshotUploader({ databaseFile: undefined }).start(out), /not a local SQLite file/);
      assert.throws(
        () =>
          new SnapshotUploader({ databaseFile: file, notReadyReason: () => 'initial sync not complete' }).start(out),
        /initial sync not complete/,
      );
    } finally {
      await db.destroy();
    }
  });
});
