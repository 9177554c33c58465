/**
 * The seam between the chain and world state: what block building and queries need from the
 * trees. The padding rules of reference §5 (note hashes and nullifiers to 64 per tx, L1→L2
 * messages to 1024 in a checkpoint's first block) are the implementation's job.
 * @module
 */
import type { PublicDataWrite, Snapshot, StateReference } from './types.ts';

/** Per-tx side effects to insert for one block, in tx order. */
export interface BlockStateUpdate {
  readonly txs: readonly {
    readonly noteHashes: readonly bigint[];
    readonly nullifiers: readonly bigint[];
    readonly publicDataWrites: readonly PublicDataWrite[];
  }[];
  /** Present only in the first block of a checkpoint (possibly empty: still padded to 1024). */
  readonly l1ToL2Messages: readonly bigint[] | undefined;
}

/** World state as the chain uses it. Every method acts on the latest (committed) state. */
export interface ChainWorldState {
  /** Tree snapshots of the latest state. */
  stateReference(): StateReference;
  /** The archive tree snapshot (one leaf per block, leaf i = hash of block i). */
  archive(): Snapshot;
  /** The public data value at `leafSlot`, 0 when unset. */
  readPublicData(leafSlot: bigint): bigint;
  /** True when `nullifier` is already in the nullifier tree. */
  hasNullifier(nullifier: bigint): boolean;
  /** Inserts one block's effects; returns the state after. Must not be half-applied on error. */
  applyBlock(update: BlockStateUpdate): StateReference;
  /** Appends a block hash to the archive; returns the archive after. */
  appendArchive(blockHash: bigint): Snapshot;
}
