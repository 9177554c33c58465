/**
 * In-memory cache of the newest committed node hashes, used when recomputing paths for the next
 * block (the upper levels are read on every block). It only ever holds committed values; it is
 * cleared on unwind.
 *
 * Bounded by entries, the least recently written out first: every block rewrites its trees' upper
 * levels and frontier, so those stay, while the paths of leaves no block touches again age out
 * (a later block that needs one reads it from the database). Its earlier bound, two million
 * entries cleared at once, was ~250 MB of heap at the ~128 bytes an entry costs (a 254-bit BigInt,
 * a heap-number key, the map's table), so a node's live heap grew with every block for hours: the
 * 5-minute soak's heap snapshots found it the largest grower, +1.7 MB between 2 and 5 minutes
 * (docs/PERFORMANCE-NOTES.md, "The soak's live heap").
 * @module
 */

/**
 * Entries kept (at most; the oldest eighth goes when it is passed): ~16 MB at ~128 bytes each; the
 * soak's blocks (a few txs each) write ~230 entries, a block of 8 txs × 64 nullifiers tens of thousands.
 */
export const NODE_CACHE_MAX_ENTRIES = 131_072;
/** Heap bytes an entry costs, measured in a heap snapshot: 1.7 MB for 13 238 entries (for the size estimate). */
export const NODE_CACHE_ENTRY_BYTES = 128;

const TREE_STRIDE = 2 ** 49; // (tree, level) · 2^43 + index: levels ≤ 63, trees < 16, all < 2^53
const LEVEL_STRIDE = 2 ** 43; // node indices are < 2^42

/** Newest node hash by (tree, level, index). */
export class NodeCache {
  /** Map keeps insertion order: the first entries are the least recently written. */
  private readonly nodes = new Map<number, bigint>();
  private readonly maxEntries: number;

  constructor(maxEntries = NODE_CACHE_MAX_ENTRIES) {
    this.maxEntries = maxEntries;
  }

  /** The cached hash, or undefined. */
  get(treeId: number, level: number, index: number): bigint | undefined {
    return this.nodes.get(treeId * TREE_STRIDE + level * LEVEL_STRIDE + index);
  }

  /** Records a committed hash (as the most recently written). */
  set(treeId: number, level: number, index: number, hash: bigint): void {
    const key = treeId * TREE_STRIDE + level * LEVEL_STRIDE + index;
    this.nodes.delete(key);
    this.nodes.set(key, hash);
    if (this.nodes.size > this.maxEntries) this.evictOldest();
  }

  /**
   * Drops the oldest eighth in one pass: finding the first live entry of a map that has had its
   * front deleted walks the deleted slots, so one entry at a time would cost O(entries) each.
   */
  private evictOldest(): void {
    const keep = this.maxEntries - Math.ceil(this.maxEntries / 8);
    for (const key of this.nodes.keys()) {
      if (this.nodes.size <= keep) break;
      this.nodes.delete(key);
    }
  }

  /** Forgets everything. */
  clear(): void {
    this.nodes.clear();
  }

  /** Entries held. */
  get size(): number {
    return this.nodes.size;
  }
}
