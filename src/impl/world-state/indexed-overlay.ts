/**
 * Pending changes to one indexed tree (nullifier or public data) while a block is being built:
 * sequential insertion with low-leaf re-linking, reading committed leaves from the repository and
 * newer ones from the overlay. For distinct keys the result equals the real node's batch insert
 * (the final linked list depends only on which key sits at which index).
 * @module
 */
import type { Hasher } from '../crypto/poseidon2.ts';
import type { IndexedLeafRow, TreeRepository } from '../store/tree-repository.ts';
import { TreeId } from './constants.ts';

/** Thrown when a nullifier that already exists is inserted again. */
export class DuplicateNullifierError extends Error {
  readonly nullifier: bigint;
  constructor(nullifier: bigint) {
    super(`nullifier 0x${nullifier.toString(16)} already exists`);
    this.name = 'DuplicateNullifierError';
    this.nullifier = nullifier;
  }
}

/** Hash of an indexed leaf: nullifier [key, nextKey, nextIndex]; public data [slot, value, nextSlot, nextIndex]. */
export function indexedLeafHash(treeId: number, leaf: IndexedLeafRow, hasher: Hasher): bigint {
  return treeId === TreeId.NULLIFIER_TREE
    ? hasher.hash([leaf.key, leaf.nextKey, BigInt(leaf.nextIndex)])
    : hasher.hash([leaf.key, leaf.value, leaf.nextKey, BigInt(leaf.nextIndex)]);
}

/** The 128 genesis prefill leaves: key i → i+1, the last linking to 0/0. */
export function prefillLeaves(count: number): IndexedLeafRow[] {
  return Array.from({ length: count }, (_, i) => {
    const last = i === count - 1;
    return { key: BigInt(i), value: 0n, nextKey: last ? 0n : BigInt(i + 1), nextIndex: last ? 0 : i + 1 };
  });
}

/** Sequential-insert overlay over one committed indexed tree. */
export class IndexedTreeOverlay {
  readonly treeId: number;
  readonly repo: TreeRepository | undefined;
  /** Leaves written in this block, by index. */
  readonly modified = new Map<number, IndexedLeafRow>();
  /** Keys inserted in this block, ascending. */
  readonly newKeys: { key: bigint; index: number }[] = [];
  /** Committed low leaves and leaves read ahead by prefetch (the committed tree does not change during a block). */
  private readonly committedLow = new Map<bigint, { key: bigint; index: number } | undefined>();
  private readonly committedLeaves = new Map<number, IndexedLeafRow>();

  constructor(treeId: number, repo: TreeRepository | undefined) {
    this.treeId = treeId;
    this.repo = repo;
  }

  /**
   * Reads the committed low leaf of every key (and that leaf) in a few batched queries, so that
   * the sequential upserts that follow need no database round trip of their own.
   */
  async prefetch(keys: readonly bigint[]): Promise<void> {
    if (!this.repo || keys.length === 0) return;
    const distinct = [...new Set(keys)];
    const lows = await this.repo.findLowKeys(this.treeId, distinct);
    distinct.forEach((k, i) => {
      this.committedLow.set(k, lows[i]);
    });
    const indices = [...new Set(lows.flatMap((l) => (l ? [l.index] : [])))];
    const leaves = await this.repo.getIndexedLeaves(this.treeId, indices);
    indices.forEach((index, i) => {
      if (leaves[i]) this.committedLeaves.set(index, leaves[i]);
    });
  }

  private async leaf(index: number): Promise<IndexedLeafRow> {
    const m = this.modified.get(index) ?? this.committedLeaves.get(index);
    if (m) return m;
    const r = await this.repo?.getIndexedLeaf(this.treeId, index);
    if (!r) throw new Error(`indexed tree ${this.treeId}: missing leaf ${index}`);
    return r;
  }

  /** Position of the largest new key ≤ key, or -1. */
  private newKeyFloor(key: bigint): number {
    let lo = 0,
      hi = this.newKeys.length - 1,
      found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.newKeys[mid]!.key <= key) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** The low leaf of key (largest key ≤ key) across committed and pending keys. */
  async low(key: bigint): Promise<{ key: bigint; index: number }> {
    const committed = this.committedLow.has(key)
      ? this.committedLow.get(key)
      : await this.repo?.findLowKey(this.treeId, key);
    const f = this.newKeyFloor(key);
    const pending = f >= 0 ? this.newKeys[f] : undefined;
    const best = !committed ? pending : !pending ? committed : pending.key > committed.key ? pending : committed;
    if (!best) throw new Error(`indexed tree ${this.treeId}: no low leaf for 0x${key.toString(16)}`);
    return best;
  }

  /** Adds a leaf verbatim (genesis prefill). */
  setLeaf(index: number, leaf: IndexedLeafRow): void {
    this.modified.set(index, leaf);
    const f = this.newKeyFloor(leaf.key);
    this.newKeys.splice(f + 1, 0, { key: leaf.key, index });
  }

  /**
   * Inserts key at newIndex, or — when the key exists — updates its value in place (public data)
   * or throws DuplicateNullifierError (nullifiers). Returns true when a new leaf was appended.
   */
  async upsert(key: bigint, value: bigint, newIndex: number): Promise<boolean> {
    const low = await this.low(key);
    const lowLeaf = await this.leaf(low.index);
    if (low.key === key) {
      if (this.treeId === TreeId.NULLIFIER_TREE) throw new DuplicateNullifierError(key);
      this.modified.set(low.index, { ...lowLeaf, value });
      return false;
    }
    this.modified.set(newIndex, { key, value, nextKey: lowLeaf.nextKey, nextIndex: lowLeaf.nextIndex });
    this.modified.set(low.index, { ...lowLeaf, nextKey: key, nextIndex: newIndex });
    this.newKeys.splice(this.newKeyFloor(key) + 1, 0, { key, index: newIndex });
    return true;
  }
}
