/**
 * WAL checkpoints off the event loop (issue #21). SQLite in WAL mode copies the WAL back into the
 * database file inside the commit that takes the WAL past `wal_autocheckpoint` pages (1 000 by
 * default), with an fsync of each file: measured 12–54 ms inside a commit on the busy node, one
 * synchronous call on the event loop, against 1–3 ms for the same commits without it
 * (docs/PERFORMANCE-NOTES.md). The node's connection therefore checkpoints only past a high bound
 * (`NODE_WAL_AUTOCHECKPOINT_PAGES`, a safety net should this worker stop), and a worker thread
 * with its own connection to the same file runs PASSIVE checkpoints every `CHECKPOINT_INTERVAL_MS`
 * (wal-checkpoint-worker.ts).
 *
 * Nothing committed can be lost to this: a checkpoint only copies frames that are already in the
 * WAL, and a process killed during one finds the WAL intact on restart and recovers from it.
 * `journal_size_limit` truncates the WAL file when the writer starts it over, so a burst does not
 * leave it large. Readers and the snapshot writer (SQLite's backup API) work as before: a PASSIVE
 * checkpoint never waits for them and never makes them wait.
 * @module
 */
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints (at 20 txs/s of ~135 KB each the WAL grows ~700 pages a second). */
export const CHECKPOINT_INTERVAL_MS = 250;

/** The node connection's own automatic checkpoint, only reached when the worker falls far behind or stops. */
export const NODE_WAL_AUTOCHECKPOINT_PAGES = 10_000;

/** SQLite's default, which the node's connection goes back to if the worker dies. */
const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

/** The WAL file is truncated to this many bytes when the writer starts it over. */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** The worker's thread name, as /proc/<pid>/task/<tid>/comm shows it (bench/rpc/busy-node.ts groups CPU by it). */
export const WAL_CHECKPOINT_THREAD = 'l2-wal-ckpt';

/** The parts of a better-sqlite3 connection used here. */
interface Connection {
  pragma(s: string): unknown;
}

/** A running checkpoint worker for one database file. */
export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  #checkpoints = 0;
  #lastError: string | undefined;

  /**
   * Moves `conn`'s checkpoints to a worker on `filename` (a WAL-mode file `conn` has open). If the
   * worker dies, `conn` checkpoints on its own again at SQLite's default bound.
   */
  constructor(conn: Connection, filename: string, intervalMs = CHECKPOINT_INTERVAL_MS) {
    conn.pragma(`wal_autocheckpoint = ${NODE_WAL_AUTOCHECKPOINT_PAGES}`);
    conn.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    // The installed package runs compiled .js (scripts/pack.ts), the repository runs .ts.
    const script = import.meta.url.endsWith('.js') ? './wal-checkpoint-worker.js' : './wal-checkpoint-worker.ts';
    this.#worker = new Worker(new URL(script, import.meta.url), {
      name: WAL_CHECKPOINT_THREAD,
      workerData: { filename, intervalMs },
    });
    // A checkpointer never keeps the process alive.
    this.#worker.unref();
    this.#worker.on('message', (m: { checkpointed?: number; error?: string }) => {
      if (m.checkpointed !== undefined) this.#checkpoints++;
      if (m.error !== undefined) this.#lastError = m.error;
    });
    this.#worker.on('error', (err) => {
      this.#lastError = err.message;
    });
    this.#exited = new Promise<void>((resolve) => {
      this.#worker.once('exit', () => resolve());
    });
    void this.#exited.then(() => {
      try {
        conn.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
      } catch {
        // the connection is already closed
      }
    });
  }

  /** Checkpoints that copied frames so far. */
  get checkpoints(): number {
    return this.#checkpoints;
  }

  /** The last checkpoint error, if any (the worker keeps trying). */
  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** Closes the worker's connection and ends the thread; resolves once it has exited. */
  async stop(): Promise<void> {
    this.#worker.postMessage('stop');
    await this.#exited;
  }
}
