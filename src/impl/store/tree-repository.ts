/**
 * Tree repository: the only module that speaks SQL for the world state. Async throughout so that
 * Postgres can serve it as well as SQLite. Rows are versioned by block number; a read "at block B"
 * takes the newest row with block_number ≤ B (LATEST reads the newest of all).
 * @module
 */
import type { Knex } from 'knex';
import { fieldFromBytes, fieldToBytes } from '../crypto/field.ts';
import { insertRows, selectEach, selectRows } from './sql.ts';

/** Block bound meaning "the newest committed row". */
export const LATEST = Number.MAX_SAFE_INTEGER;

/** A stored indexed-tree leaf preimage. */
export interface IndexedLeafRow {
  readonly key: bigint;
  readonly value: bigint;
  readonly nextKey: bigint;
  readonly nextIndex: number;
}

/** Everything one block writes, inserted in one transaction. */
export interface BlockWriteSet {
  readonly blockNumber: number;
  blockHash: bigint;
  headerJson: string;
  readonly nodes: { treeId: number; level: number; index: number; hash: bigint }[];
  readonly treeStates: { treeId: number; root: bigint; size: number }[];
  readonly indexedLeaves: { treeId: number; index: number; leaf: IndexedLeafRow }[];
  readonly indexedKeys: { treeId: number; key: bigint; index: number }[];
  readonly leafValues: { treeId: number; index: number; value: bigint }[];
}

const blob = (x: bigint): Buffer => Buffer.from(fieldToBytes(x));
const fromBlob = (b: Uint8Array): bigint => fieldFromBytes(b);
const CHUNK = 400;

/** Where a leaf sits and the block that inserted it. */
type LeafPlace = { index: number; blockNumber: number };

/** Runs `lookUp` over `values` in chunks of CHUNK (as blobs) and gathers what it finds. */
async function lookUpInChunks(
  values: readonly bigint[],
  lookUp: (chunk: Uint8Array[]) => Promise<(readonly [bigint, LeafPlace])[]>,
): Promise<Map<bigint, LeafPlace>> {
  const out = new Map<bigint, LeafPlace>();
  for (let i = 0; i < values.length; i += CHUNK) {
    for (const [value, place] of await lookUp(values.slice(i, i + CHUNK).map(blob))) out.set(value, place);
  }
  return out;
}

// Single-row reads "as of block B" (the newest row ≤ B), run through selectEach: on SQLite one
// prepared statement per call, on Postgres a UNION ALL per chunk. Each is one primary-key seek.
const NODE_AT =
  'select hash from ws_nodes where tree_id = ? and level = ? and node_index = ? and block_number <= ? order by block_number desc limit 1';
const LOW_KEY_AT =
  'select leaf_key, leaf_index from ws_indexed_keys where tree_id = ? and leaf_key <= ? and block_number <= ? order by leaf_key desc limit 1';
/** One row of `n` scalar sub-selects, one node each: a whole sibling path in one statement. */
const pathSql = (n: number): string =>
  (pathSqlCache[n] ??= `select ${Array.from({ length: n }, (_, i) => `(${NODE_AT}) as h${i}`).join(', ')}`);
const pathSqlCache: string[] = [];
const LEAF_AT =
  'select leaf_key, leaf_value, next_key, next_index from ws_indexed_leaves where tree_id = ? and leaf_index = ? and block_number <= ? order by block_number desc limit 1';

/** SQL access to the world-state tables. */
export class TreeRepository {
  readonly db: Knex;
  constructor(db: Knex) {
    this.db = db;
  }

  /** Newest hash of each requested node at a block (absent → not in the map). */
  async getNodes(
    treeId: number,
    level: number,
    indices: readonly number[],
    block = LATEST,
  ): Promise<Map<number, bigint>> {
    const rows = await selectEach(
      this.db,
      NODE_AT,
      indices.map((i) => [treeId, level, i, block]),
    );
    const out = new Map<number, bigint>();
    rows.forEach((r, k) => {
      if (r) out.set(indices[k]!, fromBlob(r.hash as Uint8Array));
    });
    return out;
  }

  /** One node per (level, index) position at a block, in one round trip (undefined = never written). */
  async getPath(
    treeId: number,
    positions: readonly { level: number; index: number }[],
    block: number,
  ): Promise<(bigint | undefined)[]> {
    if (positions.length === 0) return [];
    const [row] = await selectRows(
      this.db,
      pathSql(positions.length),
      positions.flatMap((p) => [treeId, p.level, p.index, block]),
    );
    return positions.map((_, i) => (row![`h${i}`] ? fromBlob(row![`h${i}`] as Uint8Array) : undefined));
  }

  /** Root and size of a tree after a block. */
  async getTreeState(treeId: number, block: number): Promise<{ root: bigint; size: number } | undefined> {
    const [r] = await selectRows(
      this.db,
      'select root, size from ws_tree_state where tree_id = ? and block_number = ?',
      [treeId, block],
    );
    return r ? { root: fromBlob(r.root as Uint8Array), size: Number(r.size) } : undefined;
  }

  /** The newest applied block (undefined before genesis). */
  async getLatestBlock(): Promise<{ blockNumber: number; blockHash: bigint } | undefined> {
    const [r] = await selectRows(
      this.db,
      'select block_number, block_hash from ws_blocks order by block_number desc limit 1',
      [],
    );
    return r ? { blockNumber: Number(r.block_number), blockHash: fromBlob(r.block_hash as Uint8Array) } : undefined;
  }

  /** Hash and header JSON of an applied block. */
  async getBlock(blockNumber: number): Promise<{ blockHash: bigint; headerJson: string } | undefined> {
    const [r] = await selectRows(this.db, 'select block_hash, header_json from ws_blocks where block_number = ?', [
      blockNumber,
    ]);
    return r ? { blockHash: fromBlob(r.block_hash as Uint8Array), headerJson: String(r.header_json) } : undefined;
  }

  /** Hashes of several blocks. */
  async getBlockHashes(blockNumbers: readonly number[]): Promise<Map<number, bigint>> {
    const out = new Map<number, bigint>();
    if (blockNumbers.length === 0) return out;
    const rows = await this.db('ws_blocks')
      .select('block_number', 'block_hash')
      .whereIn('block_number', [...new Set(blockNumbers)]);
    for (const r of rows) out.set(Number(r.block_number), fromBlob(r.block_hash));
    return out;
  }

  /** The indexed-tree key with the largest value ≤ key present at the block (the "low leaf"). */
  async findLowKey(treeId: number, key: bigint, block = LATEST): Promise<{ key: bigint; index: number } | undefined> {
    return (await this.findLowKeys(treeId, [key], block))[0];
  }

  /** findLowKey for several keys at once (one round trip per chunk on Postgres). */
  async findLowKeys(
    treeId: number,
    keys: readonly bigint[],
    block = LATEST,
  ): Promise<({ key: bigint; index: number } | undefined)[]> {
    const rows = await selectEach(
      this.db,
      LOW_KEY_AT,
      keys.map((k) => [treeId, blob(k), block]),
    );
    return rows.map((r) => (r ? { key: fromBlob(r.leaf_key as Uint8Array), index: Number(r.leaf_index) } : undefined));
  }

  /** Exact key lookups in an indexed tree at a block: key → {index, block inserted}. */
  async findKeys(treeId: number, keys: readonly bigint[], block: number): Promise<Map<bigint, LeafPlace>> {
    return lookUpInChunks(keys, async (chunk) => {
      const rows = await this.db('ws_indexed_keys')
        .select('leaf_key', 'leaf_index', 'block_number')
        .where({ tree_id: treeId })
        .whereIn('leaf_key', chunk)
        .andWhere('block_number', '<=', block);
      return rows.map((r) => [
        fromBlob(r.leaf_key),
        { index: Number(r.leaf_index), blockNumber: Number(r.block_number) },
      ]);
    });
  }

  /** Preimage of an indexed-tree leaf at a block. */
  async getIndexedLeaf(treeId: number, index: number, block = LATEST): Promise<IndexedLeafRow | undefined> {
    return (await this.getIndexedLeaves(treeId, [index], block))[0];
  }

  /** getIndexedLeaf for several indices at once. */
  async getIndexedLeaves(
    treeId: number,
    indices: readonly number[],
    block = LATEST,
  ): Promise<(IndexedLeafRow | undefined)[]> {
    const rows = await selectEach(
      this.db,
      LEAF_AT,
      indices.map((i) => [treeId, i, block]),
    );
    return rows.map(
      (r) =>
        r && {
          key: fromBlob(r.leaf_key as Uint8Array),
          value: fromBlob(r.leaf_value as Uint8Array),
          nextKey: fromBlob(r.next_key as Uint8Array),
          nextIndex: Number(r.next_index),
        },
    );
  }

  /** First index of each value in an append-only tree at a block: value → {index, block inserted}. */
  async findLeafValues(treeId: number, values: readonly bigint[], block: number): Promise<Map<bigint, LeafPlace>> {
    return lookUpInChunks(values, async (chunk) => {
      const rows = await this.db('ws_leaf_values')
        .select('leaf_value')
        .min({ leaf_index: 'leaf_index' })
        .where({ tree_id: treeId })
        .whereIn('leaf_value', chunk)
        .andWhere('block_number', '<=', block)
        .groupBy('leaf_value');
      const found = (rows as { leaf_value: Uint8Array; leaf_index: number | string }[]).map((r) => ({
        value: fromBlob(r.leaf_value),
        index: Number(r.leaf_index),
      }));
      if (found.length === 0) return [];
      const blocks = await this.db('ws_leaf_values')
        .select('leaf_index', 'block_number')
        .where({ tree_id: treeId })
        .whereIn(
          'leaf_index',
          found.map((f) => f.index),
        );
      const byIndex = new Map(blocks.map((b) => [Number(b.leaf_index), Number(b.block_number)]));
      return found.map((f) => [f.value, { index: f.index, blockNumber: byIndex.get(f.index)! }]);
    });
  }

  /** Every key of an indexed tree at the newest block with its leaf's newest value. */
  async latestIndexedEntries(treeId: number): Promise<Map<bigint, bigint>> {
    const rows = await this.db('ws_indexed_keys as k')
      .join('ws_indexed_leaves as l', function () {
        this.on('l.tree_id', '=', 'k.tree_id').andOn('l.leaf_index', '=', 'k.leaf_index');
      })
      .select('k.leaf_key', 'l.leaf_value')
      .where('k.tree_id', treeId)
      .andWhere(
        'l.block_number',
        '=',
        this.db('ws_indexed_leaves as m')
          .max('m.block_number')
          .whereRaw('?? = ??', ['m.tree_id', 'k.tree_id'])
          .andWhereRaw('?? = ??', ['m.leaf_index', 'k.leaf_index']),
      );
    return new Map(
      rows.map((r: { leaf_key: Uint8Array; leaf_value: Uint8Array }) => [fromBlob(r.leaf_key), fromBlob(r.leaf_value)]),
    );
  }

  /** Inserts one block's rows; call inside a transaction. */
  async writeBlock(trx: Knex.Transaction, w: BlockWriteSet, budget?: { turn(): Promise<void> }): Promise<void> {
    const b = w.blockNumber;
    await insertRows(
      trx,
      'ws_nodes',
      ['tree_id', 'level', 'node_index', 'block_number', 'hash'],
      w.nodes.map((n) => [n.treeId, n.level, n.index, b, blob(n.hash)]),
      budget,
    );
    await insertRows(
      trx,
      'ws_tree_state',
      ['tree_id', 'block_number', 'root', 'size'],
      w.treeStates.map((s) => [s.treeId, b, blob(s.root), s.size]),
    );
    await insertRows(
      trx,
      'ws_indexed_leaves',
      ['tree_id', 'leaf_index', 'block_number', 'leaf_key', 'leaf_value', 'next_key', 'next_index'],
      w.indexedLeaves.map((l) => [
        l.treeId,
        l.index,
        b,
        blob(l.leaf.key),
        blob(l.leaf.value),
        blob(l.leaf.nextKey),
        l.leaf.nextIndex,
      ]),
      budget,
    );
    await insertRows(
      trx,
      'ws_indexed_keys',
      ['tree_id', 'leaf_key', 'leaf_index', 'block_number'],
      w.indexedKeys.map((k) => [k.treeId, blob(k.key), k.index, b]),
      budget,
    );
    await insertRows(
      trx,
      'ws_leaf_values',
      ['tree_id', 'leaf_index', 'leaf_value', 'block_number'],
      w.leafValues.map((v) => [v.treeId, v.index, blob(v.value), b]),
      budget,
    );
    await insertRows(
      trx,
      'ws_blocks',
      ['block_number', 'block_hash', 'header_json'],
      [[b, blob(w.blockHash), w.headerJson]],
    );
  }

  /** Deletes every row written by blocks after blockNumber; call inside a transaction. */
  async deleteAfter(trx: Knex.Transaction, blockNumber: number): Promise<void> {
    for (const t of [
      'ws_nodes',
      'ws_tree_state',
      'ws_indexed_leaves',
      'ws_indexed_keys',
      'ws_leaf_values',
      'ws_blocks',
    ]) {
      await trx(t).where('block_number', '>', blockNumber).delete();
    }
  }
}
