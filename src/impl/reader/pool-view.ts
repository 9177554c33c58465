/**
 * The mempool as a read-only process (`--role rpc`) sees it: every answer is read from the
 * database the writer keeps the pool in (txpool_txs, txpool_nullifiers, txpool_dropped), never
 * from an in-memory copy, so counts and pending txs are the writer's committed ones at the time
 * of the call. Priority order is the writer's own (the same `PoolIndex`), built per call from one
 * consistent snapshot. `add` never admits here: it is the forwarder to the writer.
 *
 * The writer takes a block's txs out of the pool in the block's own transaction (the pool owns tx
 * status, txpool/tx-status.ts), so a pool row never names a mined tx in any snapshot; pending
 * answers still leave out txs chain_tx_effects holds, as a guard that costs one indexed lookup.
 * @module
 */
import type { Knex } from 'knex';
import { toFieldHex } from '../crypto/field.ts';
import { readSnapshot } from '../store/database.ts';
import type { GasFees } from '../tx/index.ts';
import { PoolIndex } from '../txpool/pool-index.ts';
import { PoolStore } from '../txpool/pool-store.ts';
import type { ForwardedTxs } from './replication.ts';
import type { PoolEntry } from '../txpool/priority.ts';
import type { PoolTxStatus } from '../txpool/tx-status.ts';

/**
 * Pool reads straight from the database. Not a `TxSource`: a reader builds no blocks (its engine,
 * engine.ts `createReadEngine`, has no sequencer) and asks the view for tx status only.
 */
export class DatabasePoolView {
  readonly #db: Knex;
  readonly #store: PoolStore;

  /** Txs this reader forwarded that its database has not shown yet (read-your-writes on a replica). */
  readonly #forwarded: ForwardedTxs | undefined;

  constructor(db: Knex, forwarded?: ForwardedTxs) {
    this.#db = db;
    this.#store = new PoolStore(db);
    this.#forwarded = forwarded;
  }

  /** True: the view answers as long as the database does. */
  get running(): boolean {
    return true;
  }

  /** Live config pushes the writer's capacity here too: the writer enforces it, a reader has nothing to do. */
  setMaxPendingTxCount(): void {}

  /** Number of pending txs, counted in the database. */
  async pendingCount(): Promise<number> {
    const row = await notMined(this.#db('txpool_txs')).count('* as n').first();
    return Number(row?.n ?? 0);
  }

  /** True while the writer's pool holds the tx and no block has it yet. */
  async isPending(txHash: bigint): Promise<boolean> {
    return (
      (await notMined(this.#db('txpool_txs').where({ tx_hash: toFieldHex(txHash) })).first('tx_hash')) !== undefined
    );
  }

  /**
   * Pending, dropped (with the writer's reason) or unknown. A tx this reader forwarded that its
   * database does not show yet (a replica behind the primary) is pending: the writer took it.
   */
  async getTxStatus(txHash: bigint): Promise<PoolTxStatus> {
    if (await this.isPending(txHash)) return this.#seen(txHash, { status: 'pending' });
    const reason = await this.#store.findDropReason(txHash);
    if (reason !== undefined) return this.#seen(txHash, { status: 'dropped', reason });
    if (this.#forwarded?.get(txHash) === undefined) return undefined;
    if (
      (await this.#db('chain_tx_effects')
        .where({ tx_hash: toFieldHex(txHash) })
        .first('tx_hash')) !== undefined
    )
      return this.#seen(txHash, undefined);
    return { status: 'pending' };
  }

  #seen(txHash: bigint, status: PoolTxStatus): PoolTxStatus {
    this.#forwarded?.seen(txHash);
    return status;
  }

  /** The wire JSON of a pending tx (or of one this reader forwarded that its database does not show yet), or undefined. */
  async getTxByHash(txHash: bigint): Promise<unknown> {
    const json = await this.#store.findWireJson(txHash);
    if (json !== undefined) return JSON.parse(json);
    return (await this.getTxStatus(txHash))?.status === 'pending' ? this.#forwarded?.get(txHash) : undefined;
  }

  /** The pending txs among `txHashes`, in request order. */
  async getTxsByHash(txHashes: readonly bigint[]): Promise<unknown[]> {
    const found = await this.#store.findWireJsons(txHashes);
    return txHashes.flatMap((h) => (found.has(h) ? [JSON.parse(found.get(h)!)] : []));
  }

  /** Up to `limit` pending txs in the writer's priority order, after `after` when given. */
  async getPendingTxs(limit: number, after?: bigint): Promise<unknown[]> {
    return readSnapshot(this.#db, async (trx) => {
      const store = new PoolStore(trx as unknown as Knex);
      const ordered = ordering(await pendingEntries(trx, store));
      let start = 0;
      if (after !== undefined) {
        start = ordered.findIndex((e) => e.txHash === after) + 1;
        if (start === 0) return [];
      }
      const hashes = ordered.slice(start, start + limit).map((e) => e.txHash);
      const found = await store.findWireJsons(hashes);
      return hashes.flatMap((h) => (found.has(h) ? [JSON.parse(found.get(h)!)] : []));
    });
  }

  /** `maxPriorityFeesPerGas` of the highest-priority pending tx; zero fees when empty. */
  async getMaxPriorityFees(): Promise<GasFees> {
    const top = ordering(
      await readSnapshot(this.#db, (trx) => pendingEntries(trx, new PoolStore(trx as unknown as Knex))),
    )[0];
    return top?.maxPriorityFeesPerGas ?? { feePerDaGas: 0n, feePerL2Gas: 0n };
  }
}

/** Restricts a txpool_txs query to txs no committed block holds. */
function notMined(query: Knex.QueryBuilder): Knex.QueryBuilder {
  return query.whereNotExists(function () {
    void this.select('tx_hash').from('chain_tx_effects').whereRaw('chain_tx_effects.tx_hash = txpool_txs.tx_hash');
  });
}

/** The pool's entries, less those a committed block already holds (read in the caller's snapshot). */
async function pendingEntries(trx: Knex.Transaction, store: PoolStore): Promise<PoolEntry[]> {
  const entries = await store.loadEntries();
  const mined = new Set<string>();
  const hashes = entries.map((e) => toFieldHex(e.txHash));
  // SQLite binds at most 999 variables per statement.
  for (let i = 0; i < hashes.length; i += 500) {
    for (const r of await trx('chain_tx_effects')
      .whereIn('tx_hash', hashes.slice(i, i + 500))
      .select('tx_hash'))
      mined.add(r.tx_hash as string);
  }
  return entries.filter((e) => !mined.has(toFieldHex(e.txHash)));
}

function ordering(entries: readonly PoolEntry[]): readonly PoolEntry[] {
  const index = new PoolIndex();
  for (const e of entries) index.add(e);
  return index.inPriorityOrder();
}
