/**
 * Merkle tree reads of the public API (tag `trees`, SPEC §4.4): leaf indexes, sibling paths and
 * the membership / low-leaf / public-data witnesses, all as of a block, from the real world state.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import type { BlockParameter } from '../../../generated/public/types.ts';
import { TreeId } from '../../world-state/constants.ts';
import type { BlockRef } from '../../world-state/types.ts';
import {
  leafLocationToWire,
  membershipWitnessToWire,
  nullifierWitnessToWire,
  publicDataWitnessToWire,
  siblingPathToHexList,
} from '../../encoding/wire/witnesses.ts';
import { BlockNotYetSyncedError } from '../errors.ts';
import { resolveStateBlock } from './block-param.ts';
import type { ChainReader, WorldStateReader } from './block-param.ts';

/** The handler members this module serves. */
export type TreeHandlers = Pick<
  PublicHandlers,
  | 'findLeavesIndexes'
  | 'getNullifierSiblingPath'
  | 'getNoteHashSiblingPath'
  | 'getArchiveSiblingPath'
  | 'getPublicDataSiblingPath'
  | 'getNullifierMembershipWitness'
  | 'getLowNullifierMembershipWitness'
  | 'getPublicDataWitness'
  | 'getBlockHashMembershipWitness'
  | 'getNoteHashMembershipWitness'
>;

/** What the tree handlers read: the world state, and `engine.chain` to resolve block hashes. */
export interface TreeDeps {
  readonly worldState: WorldStateReader;
  readonly chain: Pick<ChainReader, 'findBlockBy'>;
}

/**
 * MerkleTreeId 5 (BLOCKS_TREE) and 6, which SPEC §2/§8 allow but which name no tree of their own
 * (openrpc.public.json, node_findLeavesIndexes): 5 reads the block hashes, which are the archive's
 * leaves (index = block number), so it answers as 4; 6 indexes nothing, so every value is `null`.
 */
const BLOCKS_TREE = 5;
const UNNAMED_TREE = 6;

/** Creates the tree handlers. */
export function createTreeHandlers({ worldState, chain }: TreeDeps): TreeHandlers {
  const at = (p: BlockParameter) => resolveStateBlock(worldState, chain, p);
  const siblingPath = async (treeId: TreeId, p: BlockParameter, leafIndex: string) =>
    siblingPathToHexList(await worldState.getSiblingPath(treeId, BigInt(leafIndex), await at(p)));
  return {
    /** Handler for `node_findLeavesIndexes`: one element per value, `null` when absent; 5 reads the archive, 6 holds nothing. */
    async findLeavesIndexes(blockNumber, treeId, leafValues) {
      const block = await at(blockNumber);
      const tree = treeId === BLOCKS_TREE || treeId === UNNAMED_TREE ? TreeId.ARCHIVE : (treeId as TreeId);
      // Tree 6 still checks the block (-32010 above the tip, -32011 pruned), by a lookup of no values.
      const found = await worldState.findLeafIndices(
        tree,
        treeId === UNNAMED_TREE ? [] : leafValues.map(BigInt),
        block,
      );
      return treeId === UNNAMED_TREE ? leafValues.map(() => null) : found.map(leafLocationToWire);
    },

    /** Handler for `node_getNullifierSiblingPath`: -32012 at or past the tree size. */
    async getNullifierSiblingPath(blockNumber, leafIndex) {
      return siblingPath(TreeId.NULLIFIER_TREE, blockNumber, leafIndex);
    },

    /** Handler for `node_getNoteHashSiblingPath`. */
    async getNoteHashSiblingPath(blockNumber, leafIndex) {
      return siblingPath(TreeId.NOTE_HASH_TREE, blockNumber, leafIndex);
    },

    /** Handler for `node_getArchiveSiblingPath`. */
    async getArchiveSiblingPath(blockNumber, leafIndex) {
      return siblingPath(TreeId.ARCHIVE, blockNumber, leafIndex);
    },

    /** Handler for `node_getPublicDataSiblingPath`. */
    async getPublicDataSiblingPath(blockNumber, leafIndex) {
      return siblingPath(TreeId.PUBLIC_DATA_TREE, blockNumber, leafIndex);
    },

    /** Handler for `node_getNullifierMembershipWitness`: `null` when the nullifier is not in the tree. */
    async getNullifierMembershipWitness(blockNumber, nullifier) {
      const w = await worldState.getNullifierMembershipWitness(await at(blockNumber), BigInt(nullifier));
      return w === null ? null : nullifierWitnessToWire(w);
    },

    /** Handler for `node_getLowNullifierMembershipWitness`: the low leaf, or the leaf itself when present. */
    async getLowNullifierMembershipWitness(blockNumber, nullifier) {
      return nullifierWitnessToWire(
        await worldState.getLowNullifierMembershipWitness(await at(blockNumber), BigInt(nullifier)),
      );
    },

    /** Handler for `node_getPublicDataWitness`: the low leaf of the slot (the slot's own leaf when written). */
    async getPublicDataWitness(blockNumber, leafSlot) {
      return publicDataWitnessToWire(await worldState.getPublicDataWitness(await at(blockNumber), BigInt(leafSlot)));
    },

    /** Handler for `node_getBlockHashMembershipWitness`: in the archive `block` builds on (as of `block - 1`). */
    async getBlockHashMembershipWitness(block, blockHash) {
      const parent = await archiveBefore(worldState, await at(block));
      if (parent === undefined) return null;
      const w = await worldState.getBlockHashMembershipWitness(parent, BigInt(blockHash));
      return w === null ? null : membershipWitnessToWire(w);
    },

    /** Handler for `node_getNoteHashMembershipWitness`: `null` when the note hash is not in the tree. */
    async getNoteHashMembershipWitness(blockNumber, noteHash) {
      const w = await worldState.getNoteHashMembershipWitness(await at(blockNumber), BigInt(noteHash));
      return w === null ? null : membershipWitnessToWire(w);
    },
  };
}

/**
 * The block whose archive `block`'s header commits to (`lastArchive`): block - 1. Undefined for
 * genesis, which builds on nothing; -32010 naming `block` itself when it is above the tip.
 */
async function archiveBefore(
  ws: Pick<WorldStateReader, 'getLatestBlockNumber'>,
  block: BlockRef,
): Promise<number | undefined> {
  const latest = await ws.getLatestBlockNumber();
  const n = block === 'latest' ? latest : block;
  if (n > latest) throw new BlockNotYetSyncedError(n, latest);
  return n === 0 ? undefined : n - 1;
}
