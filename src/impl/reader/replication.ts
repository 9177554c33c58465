/**
 * A `--role rpc` reader on a Postgres hot-standby replica (streaming replication) — a supported
 * deployment (docs/OPERATIONS.md, "Readers on replicas"):
 *
 * - **Lag.** `readReplication` asks the server whether it is a standby and how far its replay is
 *   behind: 0 when everything received is replayed, else the age of the last replayed commit.
 *   GET /status shows it; `--max-replication-lag-ms` makes the reader not ready above it.
 * - **Read-your-writes.** `ForwardedTxs` remembers the txs this reader forwarded to the writer
 *   until its database shows them (pending, mined or dropped), so a tx sent through a reader is
 *   reported pending by it, never unknown (`dropped`), while the replica has not replayed it yet.
 * - **Outages and conflicts.** `guardReaderCall` retries a query the standby cancelled for a
 *   conflict with recovery (SQLSTATE 40001) and turns a lost database into NODE_NOT_READY (-32002)
 *   rather than an internal error.
 * @module
 */
import type { Knex } from 'knex';
import { NodeNotReadyError } from '../rpc/errors.ts';
import { toRpcError } from '../rpc/wire-errors.ts';
import { isConnectionLost } from '../store/database-health.ts';

/** Where the reader's database stands in replication. */
export interface ReplicationStatus {
  /** True on a hot standby (pg_is_in_recovery()). */
  readonly standby: boolean;
  /** How far replay is behind the primary (0 when caught up, and on a primary). */
  readonly lagMs: number;
}

/** Reads the replication state of a Postgres database (a primary reports standby false, lag 0). */
export async function readReplication(db: Knex): Promise<ReplicationStatus> {
  const res = await db.raw(
    'select pg_is_in_recovery() as standby, case when not pg_is_in_recovery() or pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0 ' +
      'else coalesce(extract(epoch from (clock_timestamp() - pg_last_xact_replay_timestamp())) * 1000, 0) end as lag_ms',
  );
  const row = (res.rows ?? res)[0] as { standby: boolean; lag_ms: string | number };
  return { standby: row.standby === true, lagMs: Math.max(0, Math.round(Number(row.lag_ms))) };
}

/** How many forwarded txs a reader remembers at most (oldest forgotten first). */
export const FORWARDED_TX_LIMIT = 10_000;

/** The txs this reader forwarded that its database has not shown yet, with their wire JSON. */
export class ForwardedTxs {
  readonly #txs = new Map<bigint, unknown>();

  /** Remembers a tx the writer accepted. */
  add(txHash: bigint, wire: unknown): void {
    this.#txs.delete(txHash);
    this.#txs.set(txHash, wire);
    if (this.#txs.size > FORWARDED_TX_LIMIT) this.#txs.delete(this.#txs.keys().next().value!);
  }

  /** The wire JSON of a forwarded tx not seen in the database yet, or undefined. */
  get(txHash: bigint): unknown {
    return this.#txs.get(txHash);
  }

  /** The database shows the tx (pending, mined or dropped): from now on it answers for it. */
  seen(txHash: bigint): void {
    this.#txs.delete(txHash);
  }

  get size(): number {
    return this.#txs.size;
  }
}

/** True when a hot standby cancelled the statement for a conflict with WAL replay (worth running again). */
export function isRecoveryConflict(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    e.code === '40001' &&
    typeof e.message === 'string' &&
    /conflict with recovery/i.test(e.message)
  );
}

/** How often a reader call cancelled by a recovery conflict is run again. */
export const RECOVERY_CONFLICT_RETRIES = 3;

/**
 * Runs one reader call: a recovery-conflict cancellation is retried (the next snapshot is newer),
 * and a lost database — or one the health tracker knows to be down — is NODE_NOT_READY.
 */
export async function guardReaderCall<T>(call: () => Promise<T>, databaseDown: () => boolean): Promise<T> {
  // Known down: answer at once instead of waiting for a pooled connection that cannot come.
  if (databaseDown()) throw new NodeNotReadyError('the database is not reachable');
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (isRecoveryConflict(err) && attempt < RECOVERY_CONFLICT_RETRIES) continue;
      if (isConnectionLost(err) || isPoolTimeout(err) || (databaseDown() && toRpcError(err) === undefined)) {
        throw new NodeNotReadyError('the database is not reachable');
      }
      throw err;
    }
  }
}

/** knex gave up waiting for a pooled connection (every connection attempt failing during an outage). */
function isPoolTimeout(err: unknown): boolean {
  return err instanceof Error && /Timeout acquiring a connection/i.test(err.message);
}
