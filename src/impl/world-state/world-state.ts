/**
 * The world state: five Merkle trees on Poseidon2, stored per block in the database (the truth),
 * with history for every retained block, atomic block application and unwinding. Reads of the
 * newest nodes go through an in-memory cache that is only filled from committed data.
 * @module
 */
import { EventLoopBudget } from './event-loop-budget.ts';
import type { Knex } from 'knex';
import type { BlockHeader, PublicDataWrite, Snapshot, StateReference } from '../chain/types.ts';
import type { Hasher } from '../crypto/poseidon2.ts';
import { defaultHasher } from '../crypto/poseidon2.ts';
import { toFieldHex } from '../crypto/field.ts';
import { TreeRepository } from '../store/tree-repository.ts';
import type { BlockWriteSet } from '../store/tree-repository.ts';
import { getMetadata, setMetadata } from '../store/database.ts';
import {
  ALL_TREE_IDS,
  INDEXED_TREE_PREFILL,
  L1_TO_L2_MESSAGES_PER_CHECKPOINT,
  TREE_HEIGHT,
  TreeId,
} from './constants.ts';
import { toWireBlockHeader } from '../encoding/wire/headers.ts';
import { emptyBlockHeader, hashBlockHeader } from './block-header.ts';
import { MAX_NOTE_HASHES_PER_TX, MAX_NULLIFIERS_PER_TX } from '../tx/constants.ts';
import { IndexedTreeOverlay, indexedLeafHash, prefillLeaves } from './indexed-overlay.ts';
import { emptyRoot, recomputeNodes } from './merkle.ts';
import { NodeCache } from './node-cache.ts';
import { WorldStateQueries } from './world-state-queries.ts';
import type { AppliedBlock, BlockStateContext, WorldStateBlock } from './types.ts';

/** Options for WorldState.open. */
export interface WorldStateOptions {
  readonly db: Knex;
  readonly hasher?: Hasher;
  /** Genesis public data (e.g. fee-juice balances), appended after the 128 prefill leaves in slot order. */
  readonly prefilledPublicData?: readonly PublicDataWrite[];
}

/** Caller work that runs inside the world state's transaction (given what was applied or the unwind target). */
export type WithinTransaction<T> = (trx: Knex.Transaction, result: T) => Promise<void>;

/** A block was rejected by the world state (bad order, bad padding, state mismatch, duplicates). */
export class BlockRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockRejectedError';
  }
}

/** The world-state engine; create with WorldState.open(). */
export class WorldState extends WorldStateQueries {
  private readonly db: Knex;
  private readonly hasher: Hasher;
  private readonly cache = new NodeCache();
  private lock: Promise<unknown> = Promise.resolve();

  /** Node hashes held in memory for block application (metrics: l2node_cache_entries). */
  get nodeCacheEntries(): number {
    return this.cache.size;
  }

  private constructor(db: Knex, hasher: Hasher) {
    super(new TreeRepository(db), hasher);
    this.db = db;
    this.hasher = hasher;
  }

  /** Opens the world state on a migrated database, writing genesis (block 0) on first use. */
  static async open(opts: WorldStateOptions): Promise<WorldState> {
    const ws = new WorldState(opts.db, opts.hasher ?? defaultHasher);
    const prefilled = [...(opts.prefilledPublicData ?? [])].sort((a, b) =>
      a.leafSlot < b.leafSlot ? -1 : a.leafSlot > b.leafSlot ? 1 : 0,
    );
    const genesis = await ws.buildGenesis(prefilled);
    const latest = await ws.repo.getLatestBlock();
    if (!latest) {
      await ws.db.transaction(async (trx) => {
        await ws.repo.writeBlock(trx, genesis);
        await setMetadata(trx, 'ws_genesis_block_hash', toFieldHex(genesis.blockHash));
      });
    } else {
      const stored = await getMetadata(ws.db, 'ws_genesis_block_hash');
      if (stored !== toFieldHex(genesis.blockHash)) {
        throw new Error(
          `database genesis ${stored} does not match the configured genesis ${toFieldHex(genesis.blockHash)}`,
        );
      }
    }
    return ws;
  }

  /** Runs fn after every earlier mutation finished (one writer at a time). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }

  private async buildGenesis(prefilled: readonly PublicDataWrite[]): Promise<BlockWriteSet> {
    const w = emptyWriteSet(0);
    const snapshots = new Map<number, Snapshot>();
    for (const treeId of [TreeId.NULLIFIER_TREE, TreeId.PUBLIC_DATA_TREE]) {
      const overlay = new IndexedTreeOverlay(treeId, undefined);
      prefillLeaves(INDEXED_TREE_PREFILL).forEach((leaf, i) => {
        overlay.setLeaf(i, leaf);
      });
      let size = INDEXED_TREE_PREFILL;
      if (treeId === TreeId.PUBLIC_DATA_TREE) {
        for (const p of prefilled) if (await overlay.upsert(p.leafSlot, p.value, size)) size++;
      }
      snapshots.set(treeId, await this.commitIndexed(w, treeId, overlay, size, async () => new Map()));
    }
    for (const treeId of [TreeId.NOTE_HASH_TREE, TreeId.L1_TO_L2_MESSAGE_TREE]) {
      const root = emptyRoot(TREE_HEIGHT[treeId]);
      w.treeStates.push({ treeId, root, size: 0 });
      snapshots.set(treeId, { root, nextAvailableLeafIndex: 0 });
    }
    const header = emptyBlockHeader(stateFrom(snapshots));
    w.blockHash = hashBlockHeader(header);
    w.headerJson = JSON.stringify(toWireBlockHeader(header));
    await this.commitAppend(w, TreeId.ARCHIVE, [w.blockHash], 0, async () => new Map());
    return w;
  }

  /**
   * Applies one block atomically; the previous state stays intact if anything fails. `within`
   * runs inside the same database transaction after the tree rows are written, so a caller's own
   * tables (the chain's block, receipts, logs) commit or roll back together with the trees.
   */
  applyBlock(block: WorldStateBlock, within?: WithinTransaction<AppliedBlock>): Promise<AppliedBlock> {
    return this.exclusive(async () => {
      const latest = await this.repo.getLatestBlock();
      const expected = (latest?.blockNumber ?? -1) + 1;
      if (block.blockNumber !== expected)
        throw new BlockRejectedError(`expected block ${expected}, got ${block.blockNumber}`);
      const prev = latest!.blockNumber;
      const sizes = new Map<number, number>();
      for (const t of ALL_TREE_IDS) sizes.set(t, (await this.repo.getTreeState(t, prev))!.size);
      const w = emptyWriteSet(block.blockNumber);
      const snapshots = new Map<number, Snapshot>();
      // The hashing below lets the event loop turn every few ms (nothing is written before the
      // transaction at the end, so reads in between see the committed state, as on Postgres).
      const budget = new EventLoopBudget();
      const reader = (treeId: number) => (level: number, indices: number[]) =>
        this.readLatestNodes(treeId, sizes.get(treeId)!, level, indices);

      const noteHashes = block.txEffects.flatMap((tx) => padTo(tx.noteHashes, MAX_NOTE_HASHES_PER_TX, 'note hashes'));
      snapshots.set(
        TreeId.NOTE_HASH_TREE,
        await this.commitAppend(w, TreeId.NOTE_HASH_TREE, noteHashes, sizes.get(1)!, reader(1), budget),
      );

      const nullifiers = new IndexedTreeOverlay(TreeId.NULLIFIER_TREE, this.repo);
      await nullifiers.prefetch(block.txEffects.flatMap((tx) => tx.nullifiers.filter((n) => n !== 0n)));
      let nSize = sizes.get(0)!;
      for (const tx of block.txEffects) {
        for (const n of padTo(tx.nullifiers, MAX_NULLIFIERS_PER_TX, 'nullifiers')) {
          if (n !== 0n) await nullifiers.upsert(n, 0n, nSize);
          nSize++;
        }
        await budget.turn();
      }
      snapshots.set(
        TreeId.NULLIFIER_TREE,
        await this.commitIndexed(w, TreeId.NULLIFIER_TREE, nullifiers, nSize, reader(0), budget),
      );

      const publicData = new IndexedTreeOverlay(TreeId.PUBLIC_DATA_TREE, this.repo);
      await publicData.prefetch(block.txEffects.flatMap((tx) => tx.publicDataWrites.map((wr) => wr.leafSlot)));
      let pSize = sizes.get(2)!;
      for (const tx of block.txEffects) {
        for (const wr of tx.publicDataWrites) {
          if (wr.leafSlot === 0n && wr.value === 0n) throw new BlockRejectedError('empty public data write');
          if (await publicData.upsert(wr.leafSlot, wr.value, pSize)) pSize++;
        }
        await budget.turn();
      }
      snapshots.set(
        TreeId.PUBLIC_DATA_TREE,
        await this.commitIndexed(w, TreeId.PUBLIC_DATA_TREE, publicData, pSize, reader(2), budget),
      );

      const msgs =
        block.l1ToL2Messages === undefined
          ? []
          : padTo(block.l1ToL2Messages, L1_TO_L2_MESSAGES_PER_CHECKPOINT, 'L1→L2 messages');
      snapshots.set(
        TreeId.L1_TO_L2_MESSAGE_TREE,
        await this.commitAppend(w, TreeId.L1_TO_L2_MESSAGE_TREE, msgs, sizes.get(3)!, reader(3), budget),
      );

      const lastArchive = await this.snapshotAt(TreeId.ARCHIVE, prev);
      const ctx: BlockStateContext = { blockNumber: block.blockNumber, lastArchive, state: stateFrom(snapshots) };
      const header = typeof block.header === 'function' ? block.header(ctx) : block.header;
      if (typeof block.header !== 'function') checkHeader(header, ctx);
      w.blockHash = hashBlockHeader(header);
      w.headerJson = JSON.stringify(toWireBlockHeader(header));
      const archive = await this.commitAppend(w, TreeId.ARCHIVE, [w.blockHash], sizes.get(4)!, reader(4), budget);

      const applied: AppliedBlock = { blockNumber: block.blockNumber, blockHash: w.blockHash, header, archive };
      await this.db.transaction(async (trx) => {
        const now = await trx('ws_blocks').max({ n: 'block_number' }).first();
        if (Number(now?.n) !== prev) throw new Error('world state changed during block application');
        await this.repo.writeBlock(trx, w, budget);
        if (within) await within(trx, applied);
      });
      for (const n of w.nodes) this.cache.set(n.treeId, n.level, n.index, n.hash);
      return applied;
    });
  }

  /**
   * Drops every block after blockNumber (genesis cannot be dropped). `within` runs in the same
   * transaction, so a caller's tables unwind together with the trees.
   */
  unwindTo(blockNumber: number, within?: WithinTransaction<number>): Promise<void> {
    return this.exclusive(async () => {
      if (!Number.isInteger(blockNumber) || blockNumber < 0) throw new RangeError(`bad block number ${blockNumber}`);
      this.cache.clear();
      await this.db.transaction(async (trx) => {
        await this.repo.deleteAfter(trx, blockNumber);
        if (within) await within(trx, blockNumber);
      });
      this.cache.clear();
    });
  }

  /** The latest value of every key in an indexed tree (nullifiers: value 0), for a caller's read cache. */
  latestIndexedEntries(treeId: TreeId): Promise<Map<bigint, bigint>> {
    return this.repo.latestIndexedEntries(treeId);
  }

  /**
   * Newest node hashes for a recompute: cache first, then the database (absent = empty subtree).
   * Nodes wholly right of the committed leaves (index · 2^level ≥ size) were never written: no read.
   */
  private async readLatestNodes(
    treeId: number,
    size: number,
    level: number,
    indices: number[],
  ): Promise<Map<number, bigint>> {
    const out = new Map<number, bigint>();
    const missing: number[] = [];
    for (const i of indices) {
      if (i * 2 ** level >= size) continue;
      const h = this.cache.get(treeId, level, i);
      if (h === undefined) missing.push(i);
      else out.set(i, h);
    }
    if (missing.length) {
      const found = await this.repo.getNodes(treeId, level, missing);
      for (const i of missing) {
        const h = found.get(i);
        if (h !== undefined) {
          out.set(i, h);
          this.cache.set(treeId, level, i, h);
        }
      }
    }
    return out;
  }

  private async commitAppend(
    w: BlockWriteSet,
    treeId: TreeId,
    leaves: readonly bigint[],
    size: number,
    read: (level: number, indices: number[]) => Promise<Map<number, bigint>>,
    budget?: EventLoopBudget,
  ): Promise<Snapshot> {
    const changed = new Map<number, bigint>();
    leaves.forEach((v, k) => {
      if (v !== 0n) changed.set(size + k, v);
    });
    for (const [index, value] of changed) w.leafValues.push({ treeId, index, value });
    const newSize = size + leaves.length;
    const root = await this.updateNodes(w, treeId, changed, read, budget);
    w.treeStates.push({ treeId, root, size: newSize });
    return { root, nextAvailableLeafIndex: newSize };
  }

  private async commitIndexed(
    w: BlockWriteSet,
    treeId: TreeId,
    overlay: IndexedTreeOverlay,
    size: number,
    read: (level: number, indices: number[]) => Promise<Map<number, bigint>>,
    budget?: EventLoopBudget,
  ): Promise<Snapshot> {
    const changed = new Map<number, bigint>();
    for (const [index, leaf] of overlay.modified) {
      changed.set(index, indexedLeafHash(treeId, leaf, this.hasher));
      w.indexedLeaves.push({ treeId, index, leaf });
      await budget?.turn();
    }
    for (const k of overlay.newKeys) w.indexedKeys.push({ treeId, key: k.key, index: k.index });
    const root = await this.updateNodes(w, treeId, changed, read, budget);
    w.treeStates.push({ treeId, root, size });
    return { root, nextAvailableLeafIndex: size };
  }

  private async updateNodes(
    w: BlockWriteSet,
    treeId: TreeId,
    changed: Map<number, bigint>,
    read: (level: number, indices: number[]) => Promise<Map<number, bigint>>,
    budget?: EventLoopBudget,
  ): Promise<bigint> {
    if (changed.size === 0) return (await this.snapshotAt(treeId, w.blockNumber - 1)).root;
    const { root, nodes } = await recomputeNodes(TREE_HEIGHT[treeId], changed, read, this.hasher, budget);
    for (const n of nodes) w.nodes.push({ treeId, ...n });
    return root;
  }
}

function emptyWriteSet(blockNumber: number): BlockWriteSet {
  return {
    blockNumber,
    blockHash: 0n,
    headerJson: '',
    nodes: [],
    treeStates: [],
    indexedLeaves: [],
    indexedKeys: [],
    leafValues: [],
  };
}

function padTo(values: readonly bigint[], n: number, what: string): bigint[] {
  if (values.length > n) throw new BlockRejectedError(`too many ${what}: ${values.length} > ${n}`);
  return [...values, ...new Array<bigint>(n - values.length).fill(0n)];
}

function stateFrom(s: Map<number, Snapshot>): StateReference {
  return {
    l1ToL2MessageTree: s.get(TreeId.L1_TO_L2_MESSAGE_TREE)!,
    noteHashTree: s.get(TreeId.NOTE_HASH_TREE)!,
    nullifierTree: s.get(TreeId.NULLIFIER_TREE)!,
    publicDataTree: s.get(TreeId.PUBLIC_DATA_TREE)!,
  };
}

function checkHeader(h: BlockHeader, ctx: BlockStateContext): void {
  const same = (a: Snapshot, b: Snapshot) => a.root === b.root && a.nextAvailableLeafIndex === b.nextAvailableLeafIndex;
  const bad: string[] = [];
  if (h.globalVariables.blockNumber !== ctx.blockNumber) bad.push('blockNumber');
  if (!same(h.lastArchive, ctx.lastArchive)) bad.push('lastArchive');
  for (const k of ['l1ToL2MessageTree', 'noteHashTree', 'nullifierTree', 'publicDataTree'] as const) {
    if (!same(h.state[k], ctx.state[k])) bad.push(k);
  }
  if (bad.length)
    throw new BlockRejectedError(`block ${ctx.blockNumber} header does not match the world state: ${bad.join(', ')}`);
}
