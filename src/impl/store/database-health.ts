/**
 * Connection health of the node database: `connected`, or `reconnecting` after a lost Postgres
 * connection, with the last error. A lost connection is probed again with exponential backoff
 * until the server answers; `retryOnConnectionLoss` re-runs a whole unit of work (typically a
 * transaction, which the server rolled back when the connection died) the same way.
 * SQLite is in-process and always reports `connected`.
 * @module
 */
import type { Knex } from 'knex';

/** The two states GET /status reports. */
export const DatabaseState = { CONNECTED: 'connected', RECONNECTING: 'reconnecting' } as const;
/** `connected` | `reconnecting`. */
export type DatabaseState = (typeof DatabaseState)[keyof typeof DatabaseState];

/** Backoff of the reconnect probe and of retried work. */
export interface ReconnectOptions {
  /** First wait after a failure. */
  readonly initialDelayMs?: number;
  /** Longest wait between two attempts. */
  readonly maxDelayMs?: number;
}

/** What GET /status shows for the database. */
export interface DatabaseHealthReport {
  readonly engine: 'sqlite' | 'postgres';
  readonly state: DatabaseState;
  /** Failed reconnect probes since the connection was lost (0 while connected). */
  readonly reconnectAttempts: number;
  readonly lastError?: { readonly message: string; readonly code?: string; readonly at: string };
}

const DEFAULT_INITIAL_DELAY_MS = 100;
const DEFAULT_MAX_DELAY_MS = 5_000;

// Postgres SQLSTATEs that mean "this connection is gone, another one may work": class 08
// (connection exception) plus admin/crash shutdown and "starting up / shutting down".
const LOST_SQLSTATES = new Set(['57P01', '57P02', '57P03']);
const LOST_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTCONN',
]);
// node-postgres reports a socket closed under it with plain messages and no code.
const LOST_MESSAGE = /Connection terminated|not queryable|Connection ended unexpectedly|terminating connection/i;

/** True when `err` says the database connection was lost or refused (worth retrying). */
export function isConnectionLost(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (LOST_SQLSTATES.has(code) || LOST_ERRNOS.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  // Node reports a refused dual-stack connect as an AggregateError of per-address errors.
  if (Array.isArray(e.errors) && e.errors.some(isConnectionLost)) return true;
  return typeof e.message === 'string' && LOST_MESSAGE.test(e.message);
}

/** Tracks one database's connection and probes it back to life after a loss. */
export class DatabaseHealth {
  readonly engine: 'sqlite' | 'postgres';
  #state: DatabaseState = DatabaseState.CONNECTED;
  #attempts = 0;
  #lastError: DatabaseHealthReport['lastError'];
  #probe: (() => Promise<unknown>) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  #waiters: (() => void)[] = [];

  constructor(engine: 'sqlite' | 'postgres', opts: ReconnectOptions = {}) {
    this.engine = engine;
    this.#initialDelayMs = opts.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
    this.#maxDelayMs = opts.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  }

  /** The current state. */
  get state(): DatabaseState {
    return this.#state;
  }

  /** The report for GET /status. */
  report(): DatabaseHealthReport {
    return {
      engine: this.engine,
      state: this.#state,
      reconnectAttempts: this.#attempts,
      ...(this.#lastError ? { lastError: this.#lastError } : {}),
    };
  }

  /** Records a lost connection and starts probing (no-op for other errors). */
  noteError(err: unknown): void {
    if (this.#closed || !isConnectionLost(err)) return;
    const e = err as { message?: string; code?: string };
    this.#lastError = {
      message: String(e.message ?? err),
      ...(typeof e.code === 'string' ? { code: e.code } : {}),
      at: new Date().toISOString(),
    };
    if (this.#state === DatabaseState.RECONNECTING) return;
    this.#state = DatabaseState.RECONNECTING;
    this.#schedule(this.#initialDelayMs);
  }

  /** Resolves once the state is `connected` (at once when it already is). */
  whenConnected(): Promise<void> {
    if (this.#state === DatabaseState.CONNECTED) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** The wait before attempt `n` (1-based): initial · 2^(n-1), capped. */
  delayMs(n: number): number {
    return Math.min(this.#maxDelayMs, this.#initialDelayMs * 2 ** Math.max(0, n - 1));
  }

  /** Sets the query the reconnect probe runs (`select 1`). */
  setProbe(probe: () => Promise<unknown>): void {
    this.#probe = probe;
  }

  /** Stops probing (the database was closed); waiters are released. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#markConnected();
  }

  #schedule(delay: number): void {
    clearTimeout(this.#timer);
    // unref: a node shutting down must not wait for a probe of a dead server.
    this.#timer = setTimeout(() => void this.#runProbe(), delay).unref();
  }

  async #runProbe(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#probe?.();
      this.#markConnected();
    } catch (err) {
      if (this.#closed) return;
      this.#attempts++;
      const e = err as { message?: string; code?: string };
      this.#lastError = {
        message: String(e.message ?? err),
        ...(typeof e.code === 'string' ? { code: e.code } : {}),
        at: new Date().toISOString(),
      };
      this.#schedule(this.delayMs(this.#attempts + 1));
    }
  }

  #markConnected(): void {
    this.#state = DatabaseState.CONNECTED;
    this.#attempts = 0;
    for (const w of this.#waiters.splice(0)) w();
  }
}

const healthByDb = new WeakMap<Knex, DatabaseHealth>();

/** Attaches `health` to `db`: pool and query errors feed it, and it probes with `select 1`. */
export function watchConnection(db: Knex, health: DatabaseHealth): void {
  healthByDb.set(db, health);
  health.setProbe(async () => {
    // knex drops its pool on destroy(): the database was closed, so stop probing.
    if (!(db.client as { pool?: unknown }).pool) return health.close();
    await db.raw('select 1');
  });
  db.on('query-error', (err: unknown) => health.noteError(err));
  // knex hides its tarn pool; its createFail event is the only report of a refused connect
  // (the acquiring query fails before knex's query-error fires).
  const pool = (db.client as { pool?: { on(ev: string, fn: (...a: unknown[]) => void): void } }).pool;
  pool?.on('createFail', (_id: unknown, err: unknown) => health.noteError(err));
}

/** The health of a database opened by openDatabase (a fresh `connected` one for any other knex). */
export function databaseHealth(db: Knex): DatabaseHealth {
  let h = healthByDb.get(db);
  if (!h) healthByDb.set(db, (h = new DatabaseHealth(db.client.config?.client === 'pg' ? 'postgres' : 'sqlite')));
  return h;
}

/**
 * Runs `work`, and when it fails because the connection was lost, waits with backoff and runs
 * it again, for at most `deadlineMs`. Only for idempotent work: a transaction is, because the
 * server rolls it back when its connection dies.
 */
export async function retryOnConnectionLoss<T>(db: Knex, work: () => Promise<T>, deadlineMs = 30_000): Promise<T> {
  const health = databaseHealth(db);
  const start = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!isConnectionLost(err) || Date.now() - start >= deadlineMs) throw err;
      health.noteError(err);
      await new Promise((r) => setTimeout(r, health.delayMs(attempt)));
    }
  }
}
