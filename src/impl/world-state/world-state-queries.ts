/**
 * Read side of the world state: every query takes a block (number or 'latest') and answers from
 * the state as of that block — leaf lookups, sibling paths and the membership / low-leaf
 * witnesses behind node_* tree methods, public storage reads and the sync status.
 * @module
 */
import type { BlockHeader, Snapshot } from '../chain/types.ts';
import { fromWireBlockHeader } from '../encoding/wire/headers.ts';
import type { Hasher } from '../crypto/poseidon2.ts';
import type { TreeRepository } from '../store/tree-repository.ts';
import { isIndexedTree, TREE_HEIGHT, TreeId } from './constants.ts';
import { BlockNotRetained, BlockNotYetSynced, LeafIndexOutOfRange } from './errors.ts';
import { ZERO_HASHES } from './merkle.ts';
import { computePublicDataTreeLeafSlot } from './slots.ts';
import type {
  BlockRef,
  IndexedLeafWitness,
  LeafLocation,
  LowLeafWitness,
  MembershipWitness,
  WorldStateSyncStatus,
} from './types.ts';

/** Query methods over the stored trees. */
export class WorldStateQueries {
  protected readonly repo: TreeRepository;
  protected readonly queryHasher: Hasher;
  /** Set by the chain part once L1 finality is known. */
  finalizedBlockNumber = 0;
  /**
   * The oldest block whose state is held: every block's tree rows are kept, so genesis (0). The one
   * rule behind `oldestHistoricBlockNumber` of the sync status and BLOCK_NOT_RETAINED below it.
   */
  readonly oldestHistoricBlockNumber: number = 0;

  constructor(repo: TreeRepository, hasher: Hasher) {
    this.repo = repo;
    this.queryHasher = hasher;
  }

  /** The newest applied block number. */
  async getLatestBlockNumber(): Promise<number> {
    return (await this.repo.getLatestBlock())?.blockNumber ?? 0;
  }

  /** Resolves 'latest' and refuses blocks above the tip or below the oldest one held. */
  async resolveBlock(block: BlockRef): Promise<number> {
    const latest = await this.getLatestBlockNumber();
    if (block === 'latest') return latest;
    if (!Number.isInteger(block) || block < 0) throw new RangeError(`bad block number ${block}`);
    if (block > latest) throw new BlockNotYetSynced(block, latest);
    if (block < this.oldestHistoricBlockNumber) throw new BlockNotRetained(block, this.oldestHistoricBlockNumber);
    return block;
  }

  /** Hash of an applied block (undefined when absent). */
  async getBlockHash(blockNumber: number): Promise<bigint | undefined> {
    return (await this.repo.getBlock(blockNumber))?.blockHash;
  }

  /** Header of an applied block (undefined when absent). */
  async getBlockHeader(blockNumber: number): Promise<BlockHeader | undefined> {
    const b = await this.repo.getBlock(blockNumber);
    return b ? fromWireBlockHeader(JSON.parse(b.headerJson)) : undefined;
  }

  /** Root and next free index of a tree after a block. */
  async getTreeSnapshot(treeId: TreeId, block: BlockRef): Promise<Snapshot> {
    return this.snapshotAt(treeId, await this.resolveBlock(block));
  }

  protected async snapshotAt(treeId: TreeId, blockNumber: number): Promise<Snapshot> {
    const s = await this.repo.getTreeState(treeId, blockNumber);
    if (!s) throw new Error(`no state for tree ${treeId} at block ${blockNumber}`);
    return { root: s.root, nextAvailableLeafIndex: s.size };
  }

  /** node_getWorldStateSyncStatus. */
  async getSyncStatus(): Promise<WorldStateSyncStatus> {
    const latest = await this.repo.getLatestBlock();
    return {
      latestBlockNumber: latest?.blockNumber ?? 0,
      latestBlockHash: latest?.blockHash ?? 0n,
      finalizedBlockNumber: Math.min(this.finalizedBlockNumber, latest?.blockNumber ?? 0),
      oldestHistoricBlockNumber: this.oldestHistoricBlockNumber,
      treesAreSynched: latest !== undefined,
    };
  }

  /** Where each value was inserted (null when absent at that block). */
  async findLeafIndices(treeId: TreeId, values: readonly bigint[], block: BlockRef): Promise<(LeafLocation | null)[]> {
    const b = await this.resolveBlock(block);
    const found = isIndexedTree(treeId)
      ? await this.repo.findKeys(treeId, values, b)
      : await this.repo.findLeafValues(treeId, values, b);
    const hashes = await this.repo.getBlockHashes([...found.values()].map((f) => f.blockNumber));
    return values.map((v) => {
      const f = found.get(v);
      return f
        ? { leafIndex: BigInt(f.index), blockNumber: f.blockNumber, blockHash: hashes.get(f.blockNumber)! }
        : null;
    });
  }

  /** Sibling path (leaf level first) of a leaf at a block; index must be below the tree size. */
  async getSiblingPath(treeId: TreeId, leafIndex: bigint, block: BlockRef): Promise<bigint[]> {
    const b = await this.resolveBlock(block);
    const size = (await this.snapshotAt(treeId, b)).nextAvailableLeafIndex;
    if (leafIndex < 0n || leafIndex >= BigInt(size)) throw new LeafIndexOutOfRange(leafIndex, BigInt(size));
    return this.pathAt(treeId, Number(leafIndex), b, size);
  }

  /**
   * The sibling path of leaf `index` at a block. With the tree's size at that block, siblings wholly
   * right of its leaves (first leaf index · 2^level ≥ size) are known empty and not read: a tree of
   * n leaves reads ~log2(n) nodes instead of its full height (40 for the nullifier tree).
   */
  protected async pathAt(
    treeId: TreeId,
    index: number,
    block: number,
    size = Number.MAX_SAFE_INTEGER,
  ): Promise<bigint[]> {
    const height = TREE_HEIGHT[treeId];
    const siblings = Array.from({ length: height }, (_, l) => Math.floor(index / 2 ** l) ^ 1);
    const positions = [];
    for (let l = 0; l < height; l++)
      if (siblings[l]! * 2 ** l < size) positions.push({ level: l, index: siblings[l]! });
    const got = await this.repo.getPath(treeId, positions, block);
    const path = siblings.map((_, l) => ZERO_HASHES[l]!);
    positions.forEach((p, k) => {
      if (got[k] !== undefined) path[p.level] = got[k];
    });
    return path;
  }

  private async sizeAt(treeId: TreeId, block: number): Promise<number> {
    return (await this.snapshotAt(treeId, block)).nextAvailableLeafIndex;
  }

  private async indexedWitness(treeId: TreeId, index: number, block: number): Promise<IndexedLeafWitness> {
    const leaf = await this.repo.getIndexedLeaf(treeId, index, block);
    if (!leaf) throw new Error(`tree ${treeId}: no leaf ${index} at block ${block}`);
    return {
      index: BigInt(index),
      leaf,
      siblingPath: await this.pathAt(treeId, index, block, await this.sizeAt(treeId, block)),
    };
  }

  private async lowLeafWitness(treeId: TreeId, key: bigint, block: BlockRef): Promise<LowLeafWitness> {
    const b = await this.resolveBlock(block);
    const low = await this.repo.findLowKey(treeId, key, b);
    if (!low) throw new Error(`tree ${treeId}: no low leaf for key at block ${b}`);
    return { ...(await this.indexedWitness(treeId, low.index, b)), alreadyPresent: low.key === key };
  }

  /** Membership witness of a nullifier, or null when it is not in the tree at that block. */
  async getNullifierMembershipWitness(block: BlockRef, nullifier: bigint): Promise<IndexedLeafWitness | null> {
    const w = await this.lowLeafWitness(TreeId.NULLIFIER_TREE, nullifier, block);
    return w.alreadyPresent ? { index: w.index, leaf: w.leaf, siblingPath: w.siblingPath } : null;
  }

  /** Low-nullifier witness (largest nullifier ≤ the value) for non-inclusion proofs. */
  async getLowNullifierMembershipWitness(block: BlockRef, nullifier: bigint): Promise<LowLeafWitness> {
    return this.lowLeafWitness(TreeId.NULLIFIER_TREE, nullifier, block);
  }

  /** Public data witness by leaf slot: the slot's own leaf when present, else its low leaf. */
  async getPublicDataWitness(block: BlockRef, leafSlot: bigint): Promise<LowLeafWitness> {
    return this.lowLeafWitness(TreeId.PUBLIC_DATA_TREE, leafSlot, block);
  }

  /** Public storage value of (contract, slot) at a block; 0 when never written. */
  async getPublicStorageAt(block: BlockRef, contract: bigint, storageSlot: bigint): Promise<bigint> {
    const leafSlot = computePublicDataTreeLeafSlot(contract, storageSlot);
    const b = await this.resolveBlock(block);
    const low = await this.repo.findLowKey(TreeId.PUBLIC_DATA_TREE, leafSlot, b);
    if (!low || low.key !== leafSlot) return 0n;
    return (await this.repo.getIndexedLeaf(TreeId.PUBLIC_DATA_TREE, low.index, b))!.value;
  }

  private async appendOnlyWitness(treeId: TreeId, value: bigint, block: BlockRef): Promise<MembershipWitness | null> {
    const b = await this.resolveBlock(block);
    const f = (await this.repo.findLeafValues(treeId, [value], b)).get(value);
    if (!f) return null;
    return {
      leafIndex: BigInt(f.index),
      siblingPath: await this.pathAt(treeId, f.index, b, await this.sizeAt(treeId, b)),
    };
  }

  /** Note hash membership witness (first occurrence). */
  getNoteHashMembershipWitness(block: BlockRef, noteHash: bigint): Promise<MembershipWitness | null> {
    return this.appendOnlyWitness(TreeId.NOTE_HASH_TREE, noteHash, block);
  }

  /** Archive membership witness of a block hash. */
  getBlockHashMembershipWitness(block: BlockRef, blockHash: bigint): Promise<MembershipWitness | null> {
    return this.appendOnlyWitness(TreeId.ARCHIVE, blockHash, block);
  }

  /** L1→L2 message witness ([index, sibling path]). */
  getL1ToL2MessageMembershipWitness(block: BlockRef, message: bigint): Promise<MembershipWitness | null> {
    return this.appendOnlyWitness(TreeId.L1_TO_L2_MESSAGE_TREE, message, block);
  }
}
