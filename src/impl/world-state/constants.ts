/**
 * The world state's tree layout (reference §5.1): tree ids and heights, prefill sizes and the
 * per-checkpoint message padding. Per-tx maxima and domain separators are protocol constants,
 * owned by tx/constants.ts.
 * @module
 */

/** MerkleTreeId of the five v4 trees. */
export const TreeId = {
  NULLIFIER_TREE: 0,
  NOTE_HASH_TREE: 1,
  PUBLIC_DATA_TREE: 2,
  L1_TO_L2_MESSAGE_TREE: 3,
  ARCHIVE: 4,
} as const;

/** One of the five tree ids. */
export type TreeId = (typeof TreeId)[keyof typeof TreeId];

/** All tree ids in id order. */
export const ALL_TREE_IDS: readonly TreeId[] = [0, 1, 2, 3, 4];

/** Height of each tree, by id. */
export const TREE_HEIGHT: Readonly<Record<TreeId, number>> = { 0: 42, 1: 42, 2: 40, 3: 36, 4: 30 };

/** True for the two indexed (linked-list) trees. */
export function isIndexedTree(treeId: TreeId): boolean {
  return treeId === TreeId.NULLIFIER_TREE || treeId === TreeId.PUBLIC_DATA_TREE;
}

/** Leaves prefilled in each indexed tree at genesis (2 × MAX_*_PER_TX). */
export const INDEXED_TREE_PREFILL = 128;
/** NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP: messages are zero-padded to this per checkpoint. */
export const L1_TO_L2_MESSAGES_PER_CHECKPOINT = 1024;
