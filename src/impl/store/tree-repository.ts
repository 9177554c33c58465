/**
 * Tree repository: the only module that speaks SQL for the world state. Async throughout so that
 * Postgres can serve it as well as SQLite. Rows are versioned by block number; a read "at block B"
 * takes the newest row with block_number ≤ B (LATEST reads the newest of all).
 * @module
 */
import type { Knex } from 'knex';
import { fieldFromBytes, fieldToBytes } from '../crypto/field.ts';

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

/** SQL access to the world-state tables. */
export class TreeRepository {
  readonly db: Knex;
  constructor(db: Knex) {
    this.db = db;
  }

  /** Newest hash of each requested node (absent → not in the map). */
  async getNodes(treeId: number, level: number, indices: readonly number[], block = LATEST): Promise<Map<number, bigint>> {
    const out = new Map<number, bigint>();
    for (let i = 0; i < indices.length; i += CHUNK) {
      const chunk = indices.slice(i, i + CHUNK);
      const rows = await this.db('ws_nodes as n')
        .select('n.node_index', 'n.hash')
        .where({ 'n.tree_id': treeId, 'n.level': level })
        .whereIn('n.node_index', chunk)
        .andWhere(
          'n.block_number',
          '=',
          this.db('ws_nodes as m')
            .max('m.block_number')
            .where('m.tree_id', treeId)
            .andWhere('m.level', level)
            .andWhereRaw('?? = ??', ['m.node_index', 'n.node_index'])
            .andWhere('m.block_number', '<=', block),
        );
      for (const r of rows) out.set(Number(r.node_index), fromBlob(r.hash));
    }
    return out;
  }

  /** One node per (level, index) position at a block, in one round trip (undefined = never written). */
  async getPath(treeId: number, positions: readonly { level: number; index: number }[], block: number): Promise<(bigint | undefined)[]> {
    if (positions.length === 0) return [];
    const subs = positions.map((p, i) =>
      this.db('ws_nodes')
        .select('hash')
        .where({ tree_id: treeId, level: p.level, node_index: p.index })
        .andWhere('block_number', '<=', block)
        .orderBy('block_number', 'desc')
        .limit(1)
        .as(`h${i}`),
    );
    const [row] = await this.db.select(subs);
    return positions.map((_, i) => (row[`h${i}`] ? fromBlob(row[`h${i}`]) : undefined));
  }

  /** Root and size of a tree after a block. */
  async getTreeState(treeId: number, block: number): Promise<{ root: bigint; size: number } | undefined> {
    const r = await this.db('ws_tree_state').where({ tree_id: treeId, block_number: block }).first();
    return r ? { root: fromBlob(r.root), size: Number(r.size) } : undefined;
  }

  /** The newest applied block (undefined before genesis). */
  async getLatestBlock(): Promise<{ blockNumber: number; blockHash: bigint } | undefined> {
    const r = await this.db('ws_blocks').select('block_number', 'block_hash').orderBy('block_number', 'desc').first();
    return r ? { blockNumber: Number(r.block_number), blockHash: fromBlob(r.block_hash) } : undefined;
  }

  /** Hash and header JSON of an applied block. */
  async getBlock(blockNumber: number): Promise<{ blockHash: bigint; headerJson: string } | undefined> {
    const r = await this.db('ws_blocks').where({ block_number: blockNumber }).first();
    return r ? { blockHash: fromBlob(r.block_hash), headerJson: String(r.header_json) } : undefined;
  }

  /** Hashes of several blocks. */
  async getBlockHashes(blockNumbers: readonly number[]): Promise<Map<number, bigint>> {
    const out = new Map<number, bigint>();
    if (blockNumbers.length === 0) return out;
    const rows = await this.db('ws_blocks').select('block_number', 'block_hash').whereIn('block_number', [...new Set(blockNumbers)]);
    for (const r of rows) out.set(Number(r.block_number), fromBlob(r.block_hash));
    return out;
  }

  /** The indexed-tree key with the largest value ≤ key present at the block (the "low leaf"). */
  async findLowKey(treeId: number, key: bigint, block = LATEST): Promise<{ key: bigint; index: number } | undefined> {
    const r = await this.db('ws_indexed_keys')
      .select('leaf_key', 'leaf_index')
      .where({ tree_id: treeId })
      .andWhere('leaf_key', '<=', blob(key))
      .andWhere('block_number', '<=', block)
      .orderBy('leaf_key', 'desc')
      .first();
    return r ? { key: fromBlob(r.leaf_key), index: Number(r.leaf_index) } : undefined;
  }

  /** Exact key lookups in an indexed tree at a block: key → {index, block inserted}. */
  async findKeys(treeId: number, keys: readonly bigint[], block: number): Promise<Map<bigint, { index: number; blockNumber: number }>> {
    const out = new Map<bigint, { index: number; blockNumber: number }>();
    for (let i = 0; i < keys.length; i += CHUNK) {
      const rows = await this.db('ws_indexed_keys')
        .select('leaf_key', 'leaf_index', 'block_number')
        .where({ tree_id: treeId })
        .whereIn('leaf_key', keys.slice(i, i + CHUNK).map(blob))
        .andWhere('block_number', '<=', block);
      for (const r of rows) out.set(fromBlob(r.leaf_key), { index: Number(r.leaf_index), blockNumber: Number(r.block_number) });
    }
    return out;
  }

  /** Preimage of an indexed-tree leaf at a block. */
  async getIndexedLeaf(treeId: number, index: number, block = LATEST): Promise<IndexedLeafRow | undefined> {
    const r = await this.db('ws_indexed_leaves')
      .where({ tree_id: treeId, leaf_index: index })
      .andWhere('block_number', '<=', block)
      .orderBy('block_number', 'desc')
      .first();
    if (!r) return undefined;
    return { key: fromBlob(r.leaf_key), value: fromBlob(r.leaf_value), nextKey: fromBlob(r.next_key), nextIndex: Number(r.next_index) };
  }

  /** First index of each value in an append-only tree at a block: value → {index, block inserted}. */
  async findLeafValues(treeId: number, values: readonly bigint[], block: number): Promise<Map<bigint, { index: number; blockNumber: number }>> {
    const out = new Map<bigint, { index: number; blockNumber: number }>();
    for (let i = 0; i < values.length; i += CHUNK) {
      const rows = await this.db('ws_leaf_values')
        .select('leaf_value')
        .min({ leaf_index: 'leaf_index' })
        .where({ tree_id: treeId })
        .whereIn('leaf_value', values.slice(i, i + CHUNK).map(blob))
        .andWhere('block_number', '<=', block)
        .groupBy('leaf_value');
      const found = (rows as { leaf_value: Uint8Array; leaf_index: number | string }[]).map((r) => ({ value: fromBlob(r.leaf_value), index: Number(r.leaf_index) }));
      if (found.length === 0) continue;
      const blocks = await this.db('ws_leaf_values')
        .select('leaf_index', 'block_number')
        .where({ tree_id: treeId })
        .whereIn('leaf_index', found.map((f) => f.index));
      const byIndex = new Map(blocks.map((b) => [Number(b.leaf_index), Number(b.block_number)]));
      for (const f of found) out.set(f.value, { index: f.index, blockNumber: byIndex.get(f.index)! });
    }
    return out;
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
        this.db('ws_indexed_leaves as m').max('m.block_number').whereRaw('?? = ??', ['m.tree_id', 'k.tree_id']).andWhereRaw('?? = ??', ['m.leaf_index', 'k.leaf_index']),
      );
    return new Map(rows.map((r: { leaf_key: Uint8Array; leaf_value: Uint8Array }) => [fromBlob(r.leaf_key), fromBlob(r.leaf_value)]));
  }

  /** Inserts one block's rows; call inside a transaction. */
  async writeBlock(trx: Knex.Transaction, w: BlockWriteSet): Promise<void> {
    const b = w.blockNumber;
    const ins = async (table: string, rows: Record<string, unknown>[]): Promise<void> => {
      for (let i = 0; i < rows.length; i += CHUNK) await trx(table).insert(rows.slice(i, i + CHUNK));
    };
    await ins('ws_nodes', w.nodes.map((n) => ({ tree_id: n.treeId, level: n.level, node_index: n.index, block_number: b, hash: blob(n.hash) })));
    await ins('ws_tree_state', w.treeStates.map((s) => ({ tree_id: s.treeId, block_number: b, root: blob(s.root), size: s.size })));
    await ins(
      'ws_indexed_leaves',
      w.indexedLeaves.map((l) => ({
        tree_id: l.treeId,
        leaf_index: l.index,
        block_number: b,
        leaf_key: blob(l.leaf.key),
        leaf_value: blob(l.leaf.value),
        next_key: blob(l.leaf.nextKey),
        next_index: l.leaf.nextIndex,
      })),
    );
    await ins('ws_indexed_keys', w.indexedKeys.map((k) => ({ tree_id: k.treeId, leaf_key: blob(k.key), leaf_index: k.index, block_number: b })));
    await ins('ws_leaf_values', w.leafValues.map((v) => ({ tree_id: v.treeId, leaf_index: v.index, leaf_value: blob(v.value), block_number: b })));
    await trx('ws_blocks').insert({ block_number: b, block_hash: blob(w.blockHash), header_json: w.headerJson });
  }

  /** Deletes every row written by blocks after blockNumber; call inside a transaction. */
  async deleteAfter(trx: Knex.Transaction, blockNumber: number): Promise<void> {
    for (const t of ['ws_nodes', 'ws_tree_state', 'ws_indexed_leaves', 'ws_indexed_keys', 'ws_leaf_values', 'ws_blocks']) {
      await trx(t).where('block_number', '>', blockNumber).delete();
    }
  }
}
