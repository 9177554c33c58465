/**
 * The chain repository: writes a block with its tx index, log indexes and L1→L2 message
 * placement inside the caller's transaction (the world state's, so trees and chain tables commit
 * together), unwinds them, and answers block, checkpoint and tx lookups.
 * @module
 */
import type { Knex } from 'knex';
import { decodeJson, encodeJson } from '../encoding/bigint-json.ts';
import { hex32 } from '../encoding/hex.ts';
import type { EventLoopBudget } from '../world-state/event-loop-budget.ts';
import { ContractIndex } from './contract-index.ts';
import type { Checkpoint, L2Block, TxEffect } from './types.ts';

/** Everything written together with a block. */
export interface BlockWrite {
  readonly block: L2Block;
  /** L1→L2 messages inserted by this block, with their leaf indexes. */
  readonly l1ToL2Messages: readonly { readonly message: bigint; readonly leafIndex: number }[];
  /** Fee state after this block (drives the next block's min fees). */
  readonly excessMana: bigint;
  /** Lets the event loop turn between the block's tables (issue #21); none: one stretch. */
  readonly budget?: EventLoopBudget;
}

/** Tables holding per-block rows, each with its block-number column. */
const BLOCK_ROWS: readonly (readonly [string, string])[] = [
  ['chain_blocks', 'number'],
  ['chain_tx_effects', 'block_number'],
  ['chain_private_logs', 'block_number'],
  ['chain_public_logs', 'block_number'],
  ['chain_contract_class_logs', 'block_number'],
  ['chain_l1_to_l2_messages', 'block_number'],
  // The contract index (contract-index.ts): what an unwound block published goes with it.
  ['chain_contract_classes', 'block_number'],
  ['chain_contract_instances', 'block_number'],
];

/** A log as the log indexes see it: its tag is the first field; private logs carry no contract. */
type IndexedLog = { readonly fields: readonly bigint[]; readonly contractAddress?: bigint };

/** The log index tables, each with the logs of a tx effect it indexes. */
const LOG_TABLES: readonly (readonly [string, (e: TxEffect) => readonly IndexedLog[]])[] = [
  ['chain_private_logs', (e) => e.privateLogs],
  ['chain_public_logs', (e) => e.publicLogs],
  ['chain_contract_class_logs', (e) => e.contractClassLogs],
];

/** Decoded blocks kept for reads (blocks of 8 txs decode to ~50 KB of objects each). */
const BLOCK_CACHE_SIZE = 256;
/**
 * …and at most this much of their stored JSON text (a block of 8 txs is ~20 KB of it, so 256 such
 * blocks fit): blocks of many txs would otherwise hold the count's worth of big blocks in the heap.
 */
export const BLOCK_CACHE_JSON_BYTES = 8 * 1024 * 1024;
/** Block numbers kept by hash or archive root. */
const NUMBER_BY_CACHE_SIZE = 256;
/** Decoded checkpoints kept. */
const CHECKPOINT_CACHE_SIZE = 64;

/** Reads and writes chain data through knex. */
export class ChainStore {
  readonly db: Knex;
  /** Published contract classes and instances, written with each block and unwound with it. */
  readonly contracts: ContractIndex;
  /** Decoded blocks by number, with the length of the JSON each was decoded from (the byte bound's measure). */
  #blockCache = new Map<number, { block: L2Block; jsonBytes: number }>();
  #blockCacheBytes = 0;
  readonly #blockCacheJsonBytes: number;
  /** Block numbers by `hash:` or `archive_root:` and the value, as found (findBlockNumberBy). */
  #numberBy = new Map<string, number>();
  /** Decoded checkpoints by number (findCheckpoint, latestCheckpoint); stored ones change only by an unwind. */
  #checkpointCache = new Map<number, Checkpoint>();
  #historyVersion = 0;

  constructor(db: Knex, options: { readonly blockCacheJsonBytes?: number } = {}) {
    this.db = db;
    this.#blockCacheJsonBytes = options.blockCacheJsonBytes ?? BLOCK_CACHE_JSON_BYTES;
    this.contracts = new ContractIndex(db);
  }

  /** Writes a block and its indexes; call inside the block's transaction. */
  async saveBlock(trx: Knex.Transaction, w: BlockWrite): Promise<void> {
    const b = w.block;
    const number = b.header.globalVariables.blockNumber;
    await trx('chain_blocks').insert({
      number,
      hash: hex32(b.hash),
      archive_root: hex32(b.archive.root),
      checkpoint_number: b.checkpointNumber,
      index_within_checkpoint: b.indexWithinCheckpoint,
      slot: b.header.globalVariables.slotNumber,
      data: encodeJson(b),
      excess_mana: w.excessMana.toString(),
    });
    await w.budget?.turn();
    await insertChunked(
      trx,
      'chain_tx_effects',
      b.body.txEffects.map((e, i) => ({ tx_hash: hex32(e.txHash), block_number: number, tx_index: i })),
    );
    for (const [table, logsOf] of LOG_TABLES) {
      await insertChunked(trx, table, logRows(b, logsOf));
      await w.budget?.turn();
    }
    await insertChunked(
      trx,
      'chain_l1_to_l2_messages',
      w.l1ToL2Messages.map((m) => ({ message: hex32(m.message), leaf_index: m.leafIndex, block_number: number })),
    );
    await w.budget?.turn();
    await this.contracts.indexBlock(trx, number, b.body.txEffects);
    this.#forgetBlock(b.header.globalVariables.blockNumber);
  }

  /**
   * Deletes blocks after `blockNumber` with their indexes and message placement, and the
   * checkpoints holding any of them; call inside the unwind's transaction. Returns the deleted blocks.
   */
  async deleteAfter(trx: Knex.Transaction, blockNumber: number): Promise<L2Block[]> {
    const rows = await trx('chain_blocks').where('number', '>', blockNumber).orderBy('number').select('data');
    for (const [table, column] of BLOCK_ROWS) await trx(table).where(column, '>', blockNumber).delete();
    await trx('chain_checkpoints').whereRaw('start_block + block_count - 1 > ?', [blockNumber]).delete();
    this.forgetUnwoundBlocks();
    this.contracts.clearCache();
    // Reads between now and the commit may re-cache removed blocks and contracts: forget again once settled.
    const settled = () => {
      this.forgetUnwoundBlocks();
      this.contracts.clearCache();
    };
    trx.executionPromise.then(settled, settled);
    return rows.map((r: { data: string }) => decodeJson<L2Block>(r.data));
  }

  /**
   * Moves on whenever blocks are unwound (as the unwind starts and again once it settles, or when a
   * `--role rpc` reader sees that its writer unwound): a cached answer about a block, read while
   * this had one value, is stale once it has another (rpc/public/answer-cache.ts).
   */
  get historyVersion(): number {
    return this.#historyVersion;
  }

  /** Drops what this process cached about blocks, which may no longer be in the chain. */
  forgetUnwoundBlocks(): void {
    this.#blockCache.clear();
    this.#blockCacheBytes = 0;
    this.#numberBy.clear();
    this.#checkpointCache.clear();
    this.#historyVersion++;
  }

  /** The hash of block `number` as stored now (not cached: a reader checks its tip with it). */
  async storedBlockHash(number: number): Promise<bigint | undefined> {
    const row = await this.db('chain_blocks').where({ number }).first('hash');
    return row === undefined ? undefined : BigInt(row.hash);
  }

  /** Fee state after block `number` (0 for genesis or an unknown block). */
  async excessManaAfter(number: number): Promise<bigint> {
    const row = await this.db('chain_blocks').where({ number }).first('excess_mana');
    return BigInt(row?.excess_mana ?? 0);
  }

  /** Records a checkpoint (the slot's blocks are already stored). */
  async saveCheckpoint(c: Checkpoint, epoch: number): Promise<void> {
    await this.db('chain_checkpoints').insert({
      number: c.number,
      hash: hex32(c.hash),
      slot: c.header.slotNumber,
      epoch,
      start_block: c.startBlock,
      block_count: c.blockCount,
      data: encodeJson(c),
    });
  }

  /** The latest stored block number (0 when only genesis exists). */
  async latestBlockNumber(): Promise<number> {
    const row = await this.db('chain_blocks').max('number as n').first();
    return Number(row?.n ?? 0);
  }

  /** Block `number`, if stored. */
  async findBlock(number: number): Promise<L2Block | undefined> {
    const cached = this.#blockCache.get(number);
    if (cached !== undefined) return cached.block;
    const row = await this.db('chain_blocks').where({ number }).first('data');
    if (row === undefined) return undefined;
    const block = decodeJson<L2Block>(row.data);
    const jsonBytes = (row.data as string).length;
    if (jsonBytes > this.#blockCacheJsonBytes / 4) return block;
    // Oldest entries out, not the whole cache: a read touching more blocks than it holds (logs by
    // 100 tags spread over the chain) would otherwise decode every block again on each call.
    this.#forgetBlock(number);
    this.#blockCache.set(number, { block, jsonBytes });
    this.#blockCacheBytes += jsonBytes;
    for (const [n, entry] of this.#blockCache) {
      if (this.#blockCache.size <= BLOCK_CACHE_SIZE && this.#blockCacheBytes <= this.#blockCacheJsonBytes) break;
      this.#blockCache.delete(n);
      this.#blockCacheBytes -= entry.jsonBytes;
    }
    return block;
  }

  #forgetBlock(number: number): void {
    const entry = this.#blockCache.get(number);
    if (entry === undefined) return;
    this.#blockCache.delete(number);
    this.#blockCacheBytes -= entry.jsonBytes;
  }

  /** Decoded blocks held and the length of the JSON they were decoded from (metrics, tests). */
  get blockCacheSize(): { entries: number; jsonBytes: number } {
    return { entries: this.#blockCache.size, jsonBytes: this.#blockCacheBytes };
  }

  /** Blocks `from` .. `from + limit - 1` that exist. */
  async blocksFrom(from: number, limit: number): Promise<L2Block[]> {
    return this.#decodedRange<L2Block>('chain_blocks', from, limit);
  }

  /**
   * The number of the block with `column` = value (hash or archive root). Found numbers are kept
   * until blocks are unwound (`forgetUnwoundBlocks`): every tx's anchor is looked up when it is
   * admitted and again when a block takes it, and most anchor on the same few latest blocks.
   */
  async findBlockNumberBy(column: 'hash' | 'archive_root', value: bigint): Promise<number | undefined> {
    const key = `${column}:${value}`;
    const known = this.#numberBy.get(key);
    if (known !== undefined) return known;
    const version = this.#historyVersion;
    const row = await this.db('chain_blocks').where(column, hex32(value)).first('number');
    if (row === undefined) return undefined;
    const n = Number(row.number);
    // Not when an unwind started meanwhile: the row may be one it removes.
    if (version === this.#historyVersion) {
      if (this.#numberBy.size >= NUMBER_BY_CACHE_SIZE) this.#numberBy.delete(this.#numberBy.keys().next().value!);
      this.#numberBy.set(key, n);
    }
    return n;
  }

  /** Where a mined tx sits. */
  async findTxLocation(txHash: bigint): Promise<{ blockNumber: number; txIndex: number } | undefined> {
    const row = await this.db('chain_tx_effects')
      .where({ tx_hash: hex32(txHash) })
      .first();
    return row === undefined ? undefined : { blockNumber: Number(row.block_number), txIndex: Number(row.tx_index) };
  }

  /** The block in which an L1→L2 message was inserted. */
  async findL1ToL2MessageBlock(message: bigint): Promise<number | undefined> {
    const row = await this.db('chain_l1_to_l2_messages')
      .where({ message: hex32(message) })
      .orderBy('leaf_index')
      .first('block_number');
    return row === undefined ? undefined : Number(row.block_number);
  }

  /** Checkpoint `number`, if stored. */
  async findCheckpoint(number: number): Promise<Checkpoint | undefined> {
    const cached = this.#checkpointCache.get(number);
    if (cached !== undefined) return cached;
    const version = this.#historyVersion;
    const row = await this.db('chain_checkpoints').where({ number }).first('data');
    if (row === undefined) return undefined;
    const checkpoint = decodeJson<Checkpoint>(row.data);
    // Not when an unwind started meanwhile: the row may be one it removes.
    if (version === this.#historyVersion) {
      if (this.#checkpointCache.size >= CHECKPOINT_CACHE_SIZE)
        this.#checkpointCache.delete(this.#checkpointCache.keys().next().value!);
      this.#checkpointCache.set(number, checkpoint);
    }
    return checkpoint;
  }

  /** Checkpoints `from` .. `from + limit - 1` that exist. */
  async checkpointsFrom(from: number, limit: number): Promise<Checkpoint[]> {
    return this.#decodedRange<Checkpoint>('chain_checkpoints', from, limit);
  }

  /** Checkpoints of `epoch`, in order. */
  async checkpointsOfEpoch(epoch: number): Promise<Checkpoint[]> {
    const rows = await this.db('chain_checkpoints').where({ epoch }).orderBy('number').select('data');
    return rows.map((r: { data: string }) => decodeJson<Checkpoint>(r.data));
  }

  /** The latest checkpoint number (0 when none), read through `db` (a transaction during an unwind). */
  async latestCheckpointNumber(db: Knex | Knex.Transaction = this.db): Promise<number> {
    const row = await db('chain_checkpoints').max('number as n').first();
    return Number(row?.n ?? 0);
  }

  /** The latest checkpoint, if any. */
  async latestCheckpoint(): Promise<Checkpoint | undefined> {
    // The number, then the decoded checkpoint through the cache: the sequencer's tick asks every 500 ms.
    const row = await this.db('chain_checkpoints').max('number as n').first();
    return row?.n === null || row?.n === undefined ? undefined : this.findCheckpoint(Number(row.n));
  }

  /** Reads a metadata value. */
  async getMeta(key: string): Promise<string | undefined> {
    return (await this.db('chain_meta').where({ key }).first('value'))?.value;
  }

  /** Writes a metadata value. */
  async setMeta(key: string, value: string): Promise<void> {
    await this.db('chain_meta').insert({ key, value }).onConflict('key').merge();
  }

  /** The decoded `data` of the rows of `table` numbered `from` .. `from + limit - 1`, in order. */
  async #decodedRange<T>(table: 'chain_blocks' | 'chain_checkpoints', from: number, limit: number): Promise<T[]> {
    const rows = await this.db(table)
      .where('number', '>=', from)
      .andWhere('number', '<', from + limit)
      .orderBy('number')
      .select('data');
    return rows.map((r: { data: string }) => decodeJson<T>(r.data));
  }
}

/** Inserts rows in chunks that stay under SQLite's bound-parameter limit. */
async function insertChunked(
  trx: Knex.Transaction,
  table: string,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) await trx(table).insert(rows.slice(i, i + 100));
}

/** The index rows of one kind of log in `block`, in chain order (tx, then log). */
function logRows(block: L2Block, logsOf: (e: TxEffect) => readonly IndexedLog[]): Record<string, unknown>[] {
  const number = block.header.globalVariables.blockNumber;
  return block.body.txEffects.flatMap((e, i) =>
    logsOf(e).map((l, j) => ({
      block_number: number,
      tx_index: i,
      log_index: j,
      tag: hex32(l.fields[0] ?? 0n),
      contract: hex32(l.contractAddress ?? 0n),
    })),
  );
}
