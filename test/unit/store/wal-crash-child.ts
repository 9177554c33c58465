/**
 * Child process for the WAL checkpointer's crash test: opens the node database in the given
 * directory (checkpoints on the worker thread) and commits ~200 KB transactions in a loop, printing
 * each committed count, until it is killed.
 * @module
 */
import { openDatabase } from '../../../src/impl/store/database.ts';

const db = await openDatabase({ dataDirectory: process.argv[2]! });
await db.schema.createTable('crash_rows', (t) => {
  t.integer('n').primary();
  t.text('body').notNullable();
});
const body = 'x'.repeat(200_000);
for (let n = 1; ; n++) {
  await db('crash_rows').insert({ n, body });
  process.stdout.write(`${n}\n`);
}
