/**
 * Domain errors of world-state queries: a block above the synced tip, a block whose state is no
 * longer held, a leaf index past a tree's size. src/impl/rpc/wire-errors.ts maps them to the wire
 * (BLOCK_NOT_YET_SYNCED, BLOCK_NOT_RETAINED, LEAF_INDEX_OUT_OF_RANGE).
 * @module
 */

/** A query the world state refuses, with the values it compared (the wire error's data). */
abstract class QueryRefused<Compared extends object> extends Error {
  readonly compared: Readonly<Compared>;
  constructor(message: string, compared: Compared) {
    super(message);
    this.name = new.target.name;
    this.compared = compared;
  }
}

/** A block above the world state's tip, or (`requested` a hash) a block it does not hold. */
export class BlockNotYetSynced extends QueryRefused<{ requested: number | string; latest: number }> {
  constructor(requested: number | string, latest: number) {
    super(`Block ${requested} not yet synced (world state is at block ${latest})`, { requested, latest });
  }
}

/** A block below the oldest one whose state the world state still holds. */
export class BlockNotRetained extends QueryRefused<{ requested: number; oldestAvailable: number }> {
  constructor(requested: number, oldestAvailable: number) {
    super(`State of block ${requested} is no longer retained (oldest available: ${oldestAvailable})`, {
      requested,
      oldestAvailable,
    });
  }
}

/** A leaf index at or beyond the tree's size at that block. */
export class LeafIndexOutOfRange extends QueryRefused<{ leafIndex: bigint; treeSize: bigint }> {
  constructor(leafIndex: bigint, treeSize: bigint) {
    super(`Leaf index ${leafIndex} out of range (tree size ${treeSize})`, { leafIndex, treeSize });
  }
}
