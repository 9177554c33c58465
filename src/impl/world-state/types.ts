/**
 * Inputs and results of the world-state engine (engine values: bigint fields, number indices).
 * @module
 */
import type { BlockHeader, PublicDataWrite, Snapshot, StateReference, TxEffect } from '../chain/types.ts';
import type { IndexedLeafRow } from '../store/tree-repository.ts';

/** The parts of one tx effect that touch the trees. */
export type TxTreeEffects = Pick<TxEffect, 'noteHashes' | 'nullifiers' | 'publicDataWrites'>;

/** The post-state offered to a header builder. */
export interface BlockStateContext {
  readonly blockNumber: number;
  /** Archive snapshot before this block (the header's lastArchive). */
  readonly lastArchive: Snapshot;
  readonly state: StateReference;
}

/** A block to apply. */
export interface WorldStateBlock {
  readonly blockNumber: number;
  readonly txEffects: readonly TxTreeEffects[];
  /** Set only on the first block of a checkpoint (may be empty); padded to 1024. */
  readonly l1ToL2Messages?: readonly bigint[];
  /**
   * The header whose hash is appended to the archive. An object is checked against the computed
   * state (a mismatch rejects the block); a function builds it from the computed state.
   */
  readonly header: BlockHeader | ((ctx: BlockStateContext) => BlockHeader);
}

/** What applying a block produced. */
export interface AppliedBlock {
  readonly blockNumber: number;
  readonly blockHash: bigint;
  readonly header: BlockHeader;
  /** Archive snapshot after the block (L2Block.archive). */
  readonly archive: Snapshot;
}

/** Where a leaf was found (node_findLeavesIndexes element). */
export interface LeafLocation {
  readonly leafIndex: bigint;
  readonly blockNumber: number;
  readonly blockHash: bigint;
}

/** An indexed-tree leaf with its index and sibling path at some block. */
export interface IndexedLeafWitness {
  readonly index: bigint;
  readonly leaf: IndexedLeafRow;
  readonly siblingPath: readonly bigint[];
}

/** A low-leaf witness: alreadyPresent says whether the low leaf's key equals the queried key. */
export interface LowLeafWitness extends IndexedLeafWitness {
  readonly alreadyPresent: boolean;
}

/** Leaf index plus sibling path (MembershipWitness / L1→L2 witness). */
export interface MembershipWitness {
  readonly leafIndex: bigint;
  readonly siblingPath: readonly bigint[];
}

/** node_getWorldStateSyncStatus. */
export interface WorldStateSyncStatus {
  readonly latestBlockNumber: number;
  readonly latestBlockHash: bigint;
  readonly finalizedBlockNumber: number;
  readonly oldestHistoricBlockNumber: number;
  readonly treesAreSynched: boolean;
}

/** A block reference: a number or the newest applied block. */
export type BlockRef = number | 'latest';
