/**
 * An in-memory indexed Merkle tree (nullifier and public data trees): leaves form a linked list
 * sorted by key; a leaf hashes as poseidon2([key, (value,) nextKey, nextIndex]); empty leaves are 0.
 * @module
 */
import { defaultHasher, type Hasher } from '../crypto/poseidon2.ts';
import { SparseMerkleTree } from './sparse-merkle-tree.ts';

/** A leaf preimage; `value` is undefined for the nullifier tree. */
export interface IndexedLeaf {
  key: bigint;
  value: bigint | undefined;
  nextKey: bigint;
  nextIndex: number;
}

/** An indexed tree with sequential insert/update semantics. */
export class IndexedTree {
  readonly tree: SparseMerkleTree;
  readonly #withValue: boolean;
  readonly #hasher: Hasher;
  #leaves = new Map<number, IndexedLeaf>();
  #indexOfKey = new Map<bigint, number>();
  #sortedKeys: bigint[] = [];

  /** Builds the tree with `prefill` leaves keyed 0..prefill-1 (reference §5.2). */
  constructor(height: number, withValue: boolean, prefill: number, hasher: Hasher = defaultHasher) {
    this.tree = new SparseMerkleTree(height, hasher);
    this.#withValue = withValue;
    this.#hasher = hasher;
    const entries: [number, bigint][] = [];
    for (let i = 0; i < prefill; i++) {
      const last = i === prefill - 1;
      const leaf: IndexedLeaf = { key: BigInt(i), value: withValue ? 0n : undefined, nextKey: last ? 0n : BigInt(i + 1), nextIndex: last ? 0 : i + 1 };
      this.#store(i, leaf);
      this.#sortedKeys.push(leaf.key);
      entries.push([i, this.#hash(leaf)]);
    }
    this.tree.setLeaves(entries);
  }

  /** The index of the leaf with exactly `key`, if any. */
  indexOf(key: bigint): number | undefined {
    return this.#indexOfKey.get(key);
  }

  /** The leaf preimage at `index`. */
  leafAt(index: number): IndexedLeaf | undefined {
    return this.#leaves.get(index);
  }

  /** Inserts `key` at leaf `index` (≥ size), linking it after its low leaf. Throws on a duplicate. */
  insertAt(index: number, key: bigint, value?: bigint): void {
    if (this.#indexOfKey.has(key)) throw new Error(`key already in tree: 0x${key.toString(16)}`);
    const lowIdx = this.#indexOfKey.get(this.#lowKey(key))!;
    const low = this.#leaves.get(lowIdx)!;
    const leaf: IndexedLeaf = { key, value: this.#withValue ? (value ?? 0n) : undefined, nextKey: low.nextKey, nextIndex: low.nextIndex };
    const newLow: IndexedLeaf = { ...low, nextKey: key, nextIndex: index };
    this.#store(lowIdx, newLow);
    this.#store(index, leaf);
    this.#sortedKeys.splice(this.#sortedPosition(key), 0, key);
    this.tree.setLeaves([[lowIdx, this.#hash(newLow)], [index, this.#hash(leaf)]]);
  }

  /** Updates the value of an existing key, or appends it at the end (public data semantics). */
  upsert(key: bigint, value: bigint): void {
    const idx = this.#indexOfKey.get(key);
    if (idx === undefined) {
      this.insertAt(this.tree.size, key, value);
      return;
    }
    const leaf = { ...this.#leaves.get(idx)!, value };
    this.#store(idx, leaf);
    this.tree.setLeaves([[idx, this.#hash(leaf)]]);
  }

  /** Grows the used size to `size` with empty leaves (the zero padding of a batch insert). */
  padTo(size: number): void {
    if (this.tree.size < size) this.tree.setLeaves([[size - 1, 0n]]);
  }

  #store(index: number, leaf: IndexedLeaf): void {
    this.#leaves.set(index, leaf);
    this.#indexOfKey.set(leaf.key, index);
  }

  #sortedPosition(key: bigint): number {
    let lo = 0, hi = this.#sortedKeys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#sortedKeys[mid]! < key) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /** The largest key below `key` (key 0 is always present). */
  #lowKey(key: bigint): bigint {
    return this.#sortedKeys[this.#sortedPosition(key) - 1]!;
  }

  #hash(l: IndexedLeaf): bigint {
    return this.#withValue
      ? this.#hasher.hash([l.key, l.value!, l.nextKey, BigInt(l.nextIndex)])
      : this.#hasher.hash([l.key, l.nextKey, BigInt(l.nextIndex)]);
  }
}
