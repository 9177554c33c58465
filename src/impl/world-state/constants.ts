/**
 * World-state constants (reference §5.1): tree ids and heights, prefill sizes, per-tx padding and
 * the domain separators the world state hashes with.
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
/** MAX_NOTE_HASHES_PER_TX: note hashes are zero-padded to this per tx. */
export const MAX_NOTE_HASHES_PER_TX = 64;
/** MAX_NULLIFIERS_PER_TX: nullifiers are zero-padded to this per tx. */
export const MAX_NULLIFIERS_PER_TX = 64;
/** MAX_TOTAL_PUBLIC_DATA_UPDATE_REQUESTS_PER_TX. */
export const MAX_PUBLIC_DATA_WRITES_PER_TX = 64;
/** NUMBER_OF_L1_L2_MESSAGES_PER_ROLLUP: messages are zero-padded to this per checkpoint. */
export const L1_TO_L2_MESSAGES_PER_CHECKPOINT = 1024;

/** DomainSeparator.BLOCK_HEADER_HASH. */
export const BLOCK_HEADER_HASH_SEPARATOR = 4195546849;
/** DomainSeparator.PUBLIC_LEAF_SLOT. */
export const PUBLIC_LEAF_SLOT_SEPARATOR = 1247650290;
/** DomainSeparator.PUBLIC_STORAGE_MAP_SLOT. */
export const PUBLIC_STORAGE_MAP_SLOT_SEPARATOR = 4015149901;
