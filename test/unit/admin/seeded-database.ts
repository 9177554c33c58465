/** A node database in a temp directory with ~500 rows of data, the source of the snapshot tests. @module */
import { join } from 'node:path';
import { openDatabase, SQLITE_FILE_NAME } from '../../../src/impl/store/database.ts';
import { tempDir } from '../validators/helpers.ts';

/** Opens a fresh SQLite node database in a temp directory and fills a table, so a snapshot has real pages to copy. */
export async function seededDatabase() {
  const dir = tempDir();
  const db = await openDatabase({ dataDirectory: dir });
  await db.schema.createTable('things', (t) => {
    t.integer('id').primary();
    t.text('v');
  });
  await db('things').insert([...Array(500).keys()].map((id) => ({ id, v: `value-${id}`.repeat(20) })));
  return { dir, db, file: join(dir, SQLITE_FILE_NAME) };
}
