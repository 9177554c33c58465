/**
 * Worker-thread side of the WAL checkpointer (wal-checkpointer.ts): its own better-sqlite3
 * connection to the node's database file, running a PASSIVE checkpoint every `intervalMs`. PASSIVE
 * copies what it can and waits for no reader or writer, so the node's connection keeps committing
 * meanwhile; the fsyncs a checkpoint does (WAL before, database file after, with
 * `synchronous = NORMAL`) happen on this thread. Once a checkpoint has copied every frame, the
 * node's next write transaction starts the WAL over from its beginning, which bounds the file.
 * Messages: `{ checkpointed: frames }` after a checkpoint run after a commit, `{ error }` when
 * one fails (the worker keeps going), `{ closed: true }` once `'stop'` has closed the connection.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { filename, intervalMs } = workerData as { filename: string; intervalMs: number };
const db = new Database(filename, { fileMustExist: true });
// This connection never writes; it must not checkpoint on its own terms either.
db.pragma('wal_autocheckpoint = 0');

// `data_version` changes when another connection commits: a checkpoint is run only after a commit,
// or again while the last one could not copy every frame (a reader still used them).
let seenVersion = -1;
let incomplete = false;
const timer = setInterval(() => {
  try {
    const version = db.pragma('data_version', { simple: true }) as number;
    if (version === seenVersion && !incomplete) return;
    seenVersion = version;
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    incomplete = row !== undefined && row.checkpointed < row.log;
    if (row !== undefined && row.checkpointed > 0) parentPort!.postMessage({ checkpointed: row.checkpointed });
  } catch (err) {
    parentPort!.postMessage({ error: (err as Error).message });
  }
}, intervalMs);

parentPort!.on('message', (m: unknown) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort!.postMessage({ closed: true });
  parentPort!.close();
});
