/**
 * In-memory cache of the newest committed node hashes, used when recomputing paths for the next
 * block (the upper levels are read on every block). It only ever holds committed values; it is
 * cleared on unwind.
 *
 * Bounded by entries in two generations: writes (and reads that hit the older generation) go to
 * the young one; when it holds half the bound it becomes the old one and the previous old one is
 * dropped whole. Every block rewrites its trees' upper levels and frontier, so those stay, while
 * the paths of leaves no block touches again age out (a later block that needs one reads it from
 * the database). Dropping a generation is O(1) on the event loop: an LRU Map that deletes and
 * re-inserts on every write rehashes its whole table as deleted slots pile up, and evicting from
 * its front deletes thousands of entries at once, both inside block application (a 20–30 ms stall
 * in bench/rpc/busy-node.ts; docs/PERFORMANCE-NOTES.md, "The node cache's stall"). Its bound before
 * that, two million entries cleared at once, was ~250 MB of heap at the ~128 bytes an entry costs
 * (a 254-bit BigInt, a heap-number key, the map's table), so a node's live heap grew with every
 * block for hours (docs/PERFORMANCE-NOTES.md, "The soak's live heap").
 * @module
 */

/**
 * Entries kept at most (both generations): ~16 MB at ~128 bytes each; the soak's blocks (a few txs
 * each) write ~230 entries, a block of 8 txs × 64 nullifiers tens of thousands.
 */
export const NODE_CACHE_MAX_ENTRIES = 131_072;
/** Heap bytes an entry costs, measured in a heap snapshot: 1.7 MB for 13 238 entries (for the size estimate). */
export const NODE_CACHE_ENTRY_BYTES = 128;

const TREE_STRIDE = 2 ** 49; // (tree, level) · 2^43 + index: levels ≤ 63, trees < 16, all < 2^53
const LEVEL_STRIDE = 2 ** 43; // node indices are < 2^42

/** Newest node hash by (tree, level, index). */
export class NodeCache {
  /** Written (or read from `old`) since the last turn; looked up first, so it holds the newest. */
  private young = new Map<number, bigint>();
  /** The generation before; dropped whole at the next turn. */
  private old = new Map<number, bigint>();
  private readonly generationEntries: number;

  constructor(maxEntries = NODE_CACHE_MAX_ENTRIES) {
    this.generationEntries = Math.max(1, Math.floor(maxEntries / 2));
  }

  /** The cached hash, or undefined; a hit in the old generation moves it to the young one. */
  get(treeId: number, level: number, index: number): bigint | undefined {
    const key = treeId * TREE_STRIDE + level * LEVEL_STRIDE + index;
    const young = this.young.get(key);
    if (young !== undefined) return young;
    const old = this.old.get(key);
    if (old !== undefined) this.put(key, old);
    return old;
  }

  /** Records a committed hash. */
  set(treeId: number, level: number, index: number, hash: bigint): void {
    this.put(treeId * TREE_STRIDE + level * LEVEL_STRIDE + index, hash);
  }

  private put(key: number, hash: bigint): void {
    this.young.set(key, hash);
    if (this.young.size >= this.generationEntries) {
      this.old = this.young;
      this.young = new Map();
    }
  }

  /** Forgets everything. */
  clear(): void {
    this.young = new Map();
    this.old = new Map();
  }

  /** Entries held (a key in both generations counts twice: both copies take memory). */
  get size(): number {
    return this.young.size + this.old.size;
  }
}
