/**
 * Domain errors of world-state queries: a block above the synced tip, a block whose state is no
 * longer held, a leaf index past a tree's size. src/impl/rpc/wire-errors.ts maps them to the wire
 * (BLOCK_NOT_YET_SYNCED, BLOCK_NOT_RETAINED, LEAF_INDEX_OUT_OF_RANGE).
 * @module
 */

/** A block above the world state's tip, or (`requested` a hash) a block it does not hold. */
export class BlockNotYetSynced extends Error {
  readonly requested: number | string;
  readonly latest: number;
  constructor(requested: number | string, latest: number) {
    super(`Block ${requested} not yet synced (world state is at block ${latest})`);
    this.name = 'BlockNotYetSynced';
    this.requested = requested;
    this.latest = latest;
  }
}

/** A block below the oldest one whose state the world state still holds. */
export class BlockNotRetained extends Error {
  readonly requested: number;
  readonly oldestAvailable: number;
  constructor(requested: number, oldestAvailable: number) {
    super(`State of block ${requested} is no longer retained (oldest available: ${oldestAvailable})`);
    this.name = 'BlockNotRetained';
    this.requested = requested;
    this.oldestAvailable = oldestAvailable;
  }
}

/** A leaf index at or beyond the tree's size at that block. */
export class LeafIndexOutOfRange extends Error {
  readonly leafIndex: bigint;
  readonly treeSize: bigint;
  constructor(leafIndex: bigint, treeSize: bigint) {
    super(`Leaf index ${leafIndex} out of range (tree size ${treeSize})`);
    this.name = 'LeafIndexOutOfRange';
    this.leafIndex = leafIndex;
    this.treeSize = treeSize;
  }
}
