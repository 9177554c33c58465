/**
 * In-memory cache of the newest committed node hashes, used when recomputing paths for the next
 * block (the upper levels are read on every block). It only ever holds committed values; it is
 * cleared on unwind and when it grows past its bound.
 * @module
 */

const MAX_ENTRIES = 2_000_000;
const LEVEL_STRIDE = 2 ** 43; // node indices are < 2^42, so level * 2^43 + index is unique and < 2^53

/** Newest node hash by (tree, level, index). */
export class NodeCache {
  private readonly trees = new Map<number, Map<number, bigint>>();
  private size = 0;

  /** The cached hash, or undefined. */
  get(treeId: number, level: number, index: number): bigint | undefined {
    return this.trees.get(treeId)?.get(level * LEVEL_STRIDE + index);
  }

  /** Records a committed hash. */
  set(treeId: number, level: number, index: number, hash: bigint): void {
    if (this.size >= MAX_ENTRIES) this.clear();
    let t = this.trees.get(treeId);
    if (!t) this.trees.set(treeId, (t = new Map()));
    const key = level * LEVEL_STRIDE + index;
    if (!t.has(key)) this.size++;
    t.set(key, hash);
  }

  /** Forgets everything. */
  clear(): void {
    this.trees.clear();
    this.size = 0;
  }
}
