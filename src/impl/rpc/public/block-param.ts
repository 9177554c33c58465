/**
 * What the public handlers read from the engine (each a slice of a real engine part, so the
 * integrator passes `engine.chain`, `engine.checkpoints`, the world state … as they are) and the
 * one place a wire `BlockParameter` (number, `latest` or block hash) is turned into a block:
 * `null` for block lookups, -32010 for world-state queries (openrpc.public.json, BlockParameter).
 * @module
 */
import type { BlockParameter } from '../../../generated/public/types.ts';
import type { ChainQueries } from '../../chain/chain-queries.ts';
import type { ChainStore } from '../../chain/chain-store.ts';
import type { L2Block } from '../../chain/types.ts';
import type { WorldStateQueries } from '../../world-state/world-state-queries.ts';
import type { BlockRef } from '../../world-state/types.ts';
import { BlockNotYetSyncedError } from '../errors.ts';
import type { RpcError } from '../errors.ts';

/** Chain reads (`engine.chain`). */
export type ChainReader = Pick<
  ChainQueries,
  | 'getBlockNumber'
  | 'getProvenBlockNumber'
  | 'getL2Tips'
  | 'findBlock'
  | 'blocksFrom'
  | 'findBlockBy'
  | 'getTxReceipt'
  | 'getTxEffect'
  | 'getL2ToL1Messages'
  | 'getL1ToL2MessageBlock'
  | 'getPrivateLogs'
  | 'getLogsByTags'
  | 'getPublicLogsByTags'
  | 'getPublicLogs'
  | 'getContractClassLogs'
>;

/** Checkpoint reads (`engine.checkpoints`). */
export type CheckpointReader = Pick<ChainStore, 'findCheckpoint' | 'checkpointsFrom' | 'checkpointsOfEpoch'>;

/** World-state reads (the real `WorldState` of src/impl/world-state). */
export type WorldStateReader = Pick<
  WorldStateQueries,
  | 'getLatestBlockNumber'
  | 'getBlockHash'
  | 'getSyncStatus'
  | 'findLeafIndices'
  | 'getSiblingPath'
  | 'getNullifierMembershipWitness'
  | 'getLowNullifierMembershipWitness'
  | 'getPublicDataWitness'
  | 'getPublicStorageAt'
  | 'getNoteHashMembershipWitness'
  | 'getBlockHashMembershipWitness'
  | 'getL1ToL2MessageMembershipWitness'
>;

/** True for the block-hash form of a BlockParameter. */
function isHash(p: BlockParameter): p is string {
  return typeof p === 'string' && p !== 'latest';
}

/** The block a BlockParameter selects, or undefined when the node has none (block lookups answer null). */
export async function findBlockByParam(
  chain: Pick<ChainReader, 'findBlock' | 'findBlockBy'>,
  p: BlockParameter,
): Promise<L2Block | undefined> {
  return isHash(p) ? chain.findBlockBy('hash', BigInt(p)) : chain.findBlock(p as number | 'latest');
}

/**
 * The world-state block a BlockParameter selects. A number or `latest` passes through (the world
 * state answers -32010 above its tip); a hash must name a block the world state holds, else -32010
 * with `requested` = the hash (the client's anchor block may have been reorged out).
 */
export async function resolveStateBlock(
  ws: Pick<WorldStateReader, 'getLatestBlockNumber' | 'getBlockHash'>,
  chain: Pick<ChainReader, 'findBlockBy'>,
  p: BlockParameter,
): Promise<BlockRef> {
  if (!isHash(p)) return p as BlockRef;
  const block = await chain.findBlockBy('hash', BigInt(p));
  const n = block?.header.globalVariables.blockNumber;
  if (n !== undefined && (await ws.getBlockHash(n)) === BigInt(p)) return n;
  throw unknownBlockHash(p, await ws.getLatestBlockNumber());
}

/**
 * -32010 for a block hash the node does not know (not synced yet, or reorged out); `data.requested`
 * is the hash (BlockNotYetSyncedErrorData). Message: the catalogue template of BLOCK_NOT_YET_SYNCED.
 */
export function unknownBlockHash(hash: string, latest: number): RpcError {
  return new BlockNotYetSyncedError(hash, latest);
}
