/**
 * The mempool's repository: pending txs, their nullifiers, the mined and dropped-tx records, over
 * knex. Every change the pool makes for one event (an add with its evictions, a block's removals)
 * is one database transaction, committed before the caller is answered, so an accepted tx survives
 * a crash and a half-applied change never does.
 *
 * A tx's wire JSON (~135 KB for a private tx) is written once, when it is admitted, to
 * `txpool_bodies`; the pending (`txpool_txs`) and mined (`txpool_mined`) records are small rows
 * naming it by hash. Mining a block deletes pending records and inserts mined ones and moves no
 * body, so the block's transaction (and its COMMIT, one synchronous call on SQLite) stays small
 * (issue #21). A body goes in the same transaction as the last record that names it.
 * @module
 */
import type { Knex } from 'knex';
import { toFieldHex } from '../crypto/field.ts';
import { runMigrationList, TXPOOL_MIGRATIONS } from '../store/migrations/index.ts';
import { EventLoopBudget } from '../world-state/event-loop-budget.ts';
import type { PoolEntry } from './priority.ts';

/** A stored pending tx: its index entry and the wire JSON text it was sent as. */
export interface StoredTx {
  readonly entry: PoolEntry;
  readonly wireJson: string;
}

/** One atomic change: txs to add, pending txs to remove (dropped ones with a reason). */
export interface PoolChange {
  readonly add?: readonly StoredTx[];
  /** Txs of unwound blocks: their mined record goes (they are pending again or dropped). */
  readonly unmined?: readonly bigint[];
  readonly mined?: readonly bigint[];
  /** Block the `mined` txs are in: their mined record (`txpool_mined`) keeps their body for a rollback. */
  readonly minedBlock?: number;
  readonly dropped?: readonly { readonly txHash: bigint; readonly reason: string }[];
}

/** How many mined-tx records are kept at most (lowest blocks pruned first), besides the finalized pruning. */
export const MINED_RECORD_LIMIT = 10_000;

/** How many dropped-tx records are kept (oldest pruned first). */
export const DROPPED_RECORD_LIMIT = 10_000;

const hex = toFieldHex;

/** Creates the pool's tables if needed (its migration, tracked in its own knex table). */
export async function migrateTxPoolSchema(db: Knex): Promise<void> {
  await runMigrationList(db, TXPOOL_MIGRATIONS);
}

/** Reads and writes the pool tables. */
export class PoolStore {
  readonly #db: Knex;
  readonly #now: () => number;

  constructor(db: Knex, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  /**
   * Loads every pending tx's index entry, in insertion order. A row stored before the anchor
   * column existed gets its anchor from `anchorOf(wire JSON)`, written back (once).
   */
  async loadEntries(anchorOf?: (wireJson: string) => bigint): Promise<PoolEntry[]> {
    if (anchorOf !== undefined) {
      for (const r of await withBodies(this.#db('txpool_txs'), 'txpool_txs')
        .whereNull('txpool_txs.anchor_block_hash')
        .select('txpool_txs.tx_hash', 'txpool_bodies.wire_json')) {
        await this.#db('txpool_txs')
          .where({ tx_hash: r.tx_hash })
          .update({ anchor_block_hash: hex(anchorOf(r.wire_json)) });
      }
    }
    const rows = await this.#db('txpool_txs')
      .orderBy('seq')
      .select(
        'tx_hash',
        'seq',
        'priority_fee',
        'fee_payer',
        'fee_limit',
        'claim_amount',
        'expiration_timestamp',
        'max_priority_fee_da',
        'max_priority_fee_l2',
        'anchor_block_hash',
      );
    const nulls = await this.#db('txpool_nullifiers').select('nullifier', 'tx_hash');
    const byTx = new Map<string, bigint[]>();
    for (const n of nulls) byTx.set(n.tx_hash, [...(byTx.get(n.tx_hash) ?? []), BigInt(n.nullifier)]);
    return rows.map((r) => ({
      txHash: BigInt(r.tx_hash),
      seq: Number(r.seq),
      priorityFee: BigInt(r.priority_fee),
      feePayer: BigInt(r.fee_payer),
      feeLimit: BigInt(r.fee_limit),
      claimAmount: BigInt(r.claim_amount),
      nullifiers: byTx.get(r.tx_hash) ?? [],
      expirationTimestamp: BigInt(r.expiration_timestamp),
      maxPriorityFeesPerGas: { feePerDaGas: BigInt(r.max_priority_fee_da), feePerL2Gas: BigInt(r.max_priority_fee_l2) },
      anchorBlockHash: BigInt(r.anchor_block_hash ?? 0),
    }));
  }

  /** The wire JSON text of a pending tx, or undefined. */
  async findWireJson(txHash: bigint): Promise<string | undefined> {
    const row = await withBodies(this.#db('txpool_txs'), 'txpool_txs')
      .where('txpool_txs.tx_hash', hex(txHash))
      .first('txpool_bodies.wire_json');
    return row?.wire_json;
  }

  /** The wire JSON texts of the given pending txs, by hash. */
  async findWireJsons(txHashes: readonly bigint[]): Promise<Map<bigint, string>> {
    const out = new Map<bigint, string>();
    // SQLite binds at most 999 variables per statement.
    for (let i = 0; i < txHashes.length; i += 500) {
      const rows = await withBodies(this.#db('txpool_txs'), 'txpool_txs')
        .whereIn('txpool_txs.tx_hash', txHashes.slice(i, i + 500).map(hex))
        .select('txpool_txs.tx_hash', 'txpool_bodies.wire_json');
      for (const r of rows) out.set(BigInt(r.tx_hash), r.wire_json);
    }
    return out;
  }

  /** Why a tx was dropped, or undefined when it never was (or the record was pruned). */
  async findDropReason(txHash: bigint): Promise<string | undefined> {
    const row = await this.#db('txpool_dropped')
      .where({ tx_hash: hex(txHash) })
      .first('reason');
    return row?.reason;
  }

  /** Applies one change atomically. */
  async apply(change: PoolChange): Promise<void> {
    await this.#db.transaction((trx) => this.applyIn(trx, change));
  }

  /** Applies one change inside the caller's transaction (a block's commit or an unwind). */
  async applyIn(trx: Knex.Transaction, change: PoolChange): Promise<void> {
    const now = this.#now();
    // Inside a SQLite transaction the queries resolve without the event loop turning: turn once a slice is used (issue #21).
    const budget = new EventLoopBudget();
    // Hashes whose records this change removes: their bodies go unless another record still names them.
    const released: string[] = [];
    const mined = (change.mined ?? []).map(hex);
    if (change.minedBlock !== undefined && mined.length > 0) {
      for (let i = 0; i < mined.length; i += 400) {
        await trx('txpool_mined')
          .insert(mined.slice(i, i + 400).map((tx_hash) => ({ tx_hash, block_number: change.minedBlock })))
          .onConflict('tx_hash')
          .merge();
        await budget.turn();
      }
      released.push(...(await pruneMinedOverLimit(trx)));
    }
    const removed = [...mined, ...(change.dropped ?? []).map((d) => hex(d.txHash))];
    for (let i = 0; i < removed.length; i += 500) {
      const chunk = removed.slice(i, i + 500);
      await trx('txpool_nullifiers').whereIn('tx_hash', chunk).delete();
      await trx('txpool_txs').whereIn('tx_hash', chunk).delete();
      await budget.turn();
    }
    released.push(...removed);
    for (const d of change.dropped ?? []) {
      await trx('txpool_dropped')
        .insert({ tx_hash: hex(d.txHash), reason: d.reason, dropped_at_ms: now })
        .onConflict('tx_hash')
        .merge();
    }
    for (const { entry: e, wireJson } of change.add ?? []) {
      await trx('txpool_dropped')
        .where({ tx_hash: hex(e.txHash) })
        .delete();
      // An unwound tx re-admitted still has its body (its mined record named it): it is not written again.
      await trx('txpool_bodies')
        .insert({ tx_hash: hex(e.txHash), wire_json: wireJson })
        .onConflict('tx_hash')
        .ignore();
      await trx('txpool_txs').insert({
        tx_hash: hex(e.txHash),
        seq: e.seq,
        priority_fee: hex(e.priorityFee),
        fee_payer: hex(e.feePayer),
        fee_limit: e.feeLimit.toString(),
        claim_amount: e.claimAmount.toString(),
        expiration_timestamp: e.expirationTimestamp.toString(),
        max_priority_fee_da: e.maxPriorityFeesPerGas.feePerDaGas.toString(),
        max_priority_fee_l2: e.maxPriorityFeesPerGas.feePerL2Gas.toString(),
        anchor_block_hash: hex(e.anchorBlockHash),
        received_at_ms: now,
        wire_bytes: Buffer.byteLength(wireJson),
      });
      for (let i = 0; i < e.nullifiers.length; i += 400) {
        await trx('txpool_nullifiers').insert(
          e.nullifiers.slice(i, i + 400).map((n) => ({ nullifier: hex(n), tx_hash: hex(e.txHash) })),
        );
      }
    }
    const unmined = (change.unmined ?? []).map(hex);
    for (let i = 0; i < unmined.length; i += 500)
      await trx('txpool_mined')
        .whereIn('tx_hash', unmined.slice(i, i + 500))
        .delete();
    released.push(...unmined);
    if ((change.dropped ?? []).length > 0) await pruneDropped(trx);
    await deleteUnreferencedBodies(trx, released, budget);
  }

  /** The wire JSON texts of mined txs among `txHashes` (read in the caller's transaction). */
  async findMinedWireJsons(trx: Knex.Transaction, txHashes: readonly bigint[]): Promise<Map<bigint, string>> {
    const out = new Map<bigint, string>();
    for (let i = 0; i < txHashes.length; i += 500) {
      const rows = await withBodies(trx('txpool_mined'), 'txpool_mined')
        .whereIn('txpool_mined.tx_hash', txHashes.slice(i, i + 500).map(hex))
        .select('txpool_mined.tx_hash', 'txpool_bodies.wire_json');
      for (const r of rows) out.set(BigInt(r.tx_hash), r.wire_json);
    }
    return out;
  }

  /** Forgets the mined-tx records at or below `blockNumber` (the finalized block). */
  async pruneMined(blockNumber: number): Promise<void> {
    await this.#db.transaction(async (trx) => {
      await deleteUnreferencedBodies(trx, await deleteMinedUpTo(trx, blockNumber), new EventLoopBudget());
    });
  }

  /** Sum of the pending txs' wire JSON sizes in bytes (the pool's byte gauge; bodies are not read). */
  async pendingBytes(): Promise<number> {
    const row = (await this.#db('txpool_txs').sum({ bytes: 'wire_bytes' }).first()) as
      | { bytes: number | string | null }
      | undefined;
    return Number(row?.bytes ?? 0);
  }
}

/** Joins each record of `table` (txpool_txs or txpool_mined) to its body. */
function withBodies(query: Knex.QueryBuilder, table: string): Knex.QueryBuilder {
  return query.join('txpool_bodies', 'txpool_bodies.tx_hash', `${table}.tx_hash`);
}

/** Deletes the mined records at or below `blockNumber`; returns their hashes. */
async function deleteMinedUpTo(trx: Knex.Transaction, blockNumber: number): Promise<string[]> {
  const hashes = (await trx('txpool_mined').where('block_number', '<=', blockNumber).select('tx_hash')).map(
    (r) => r.tx_hash as string,
  );
  if (hashes.length > 0) await trx('txpool_mined').where('block_number', '<=', blockNumber).delete();
  return hashes;
}

/** Keeps the newest MINED_RECORD_LIMIT mined records (whole blocks); returns the pruned hashes. */
async function pruneMinedOverLimit(trx: Knex.Transaction): Promise<string[]> {
  const row = await trx('txpool_mined')
    .orderBy('block_number', 'desc')
    .offset(MINED_RECORD_LIMIT)
    .first('block_number');
  return row === undefined ? [] : deleteMinedUpTo(trx, row.block_number);
}

/** Deletes the bodies among `hashes` that no pending or mined record names any more. */
async function deleteUnreferencedBodies(
  trx: Knex.Transaction,
  hashes: readonly string[],
  budget: EventLoopBudget,
): Promise<void> {
  const unique = [...new Set(hashes)];
  for (let i = 0; i < unique.length; i += 500) {
    await trx('txpool_bodies')
      .whereIn('tx_hash', unique.slice(i, i + 500))
      .whereNotExists((q) =>
        q.select('tx_hash').from('txpool_txs').where('txpool_txs.tx_hash', trx.ref('txpool_bodies.tx_hash')),
      )
      .whereNotExists((q) =>
        q.select('tx_hash').from('txpool_mined').where('txpool_mined.tx_hash', trx.ref('txpool_bodies.tx_hash')),
      )
      .delete();
    await budget.turn();
  }
}

async function pruneDropped(trx: Knex.Transaction): Promise<void> {
  const row = await trx('txpool_dropped').orderBy('id', 'desc').offset(DROPPED_RECORD_LIMIT).first('id');
  if (row !== undefined) await trx('txpool_dropped').where('id', '<=', row.id).delete();
}
