/**
 * Checkpoint reads of the public API (tag `blocks`, Aztec 4.1 extensions): the checkpointed tip,
 * published checkpoints with their blocks, checkpointed blocks and an epoch's checkpoint data.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import type { Checkpoint } from '../../chain/types.ts';
import type { L1Chain } from '../../l1/l1-chain.ts';
import {
  toWireCheckpointData,
  toWireCheckpointedBlock,
  toWirePublishedCheckpoint,
} from '../../encoding/wire/checkpoints.ts';
import type { ChainReader, CheckpointReader } from './block-param.ts';

/** The handler members this module serves. */
export type CheckpointHandlers = Pick<
  PublicHandlers,
  | 'getCheckpointNumber'
  | 'getCheckpointedBlockNumber'
  | 'getCheckpoints'
  | 'getCheckpointedBlocks'
  | 'getCheckpointsDataForEpoch'
>;

/** What the checkpoint handlers read: `engine.chain`, `engine.checkpoints`, `engine.l1`. */
export interface CheckpointDeps {
  readonly chain: Pick<ChainReader, 'getL2Tips' | 'blocksFrom'>;
  readonly checkpoints: CheckpointReader;
  readonly l1: Pick<L1Chain, 'outHashesOfEpoch'>;
}

/** Creates the checkpoint handlers. */
export function createCheckpointHandlers({ chain, checkpoints, l1 }: CheckpointDeps): CheckpointHandlers {
  const blocksOf = (cp: Checkpoint) => chain.blocksFrom(cp.startBlock, cp.blockCount);
  return {
    /** Handler for `node_getCheckpointNumber`: the latest checkpoint published to L1. */
    async getCheckpointNumber() {
      return (await chain.getL2Tips()).checkpointed.checkpoint.number;
    },

    /** Handler for `node_getCheckpointedBlockNumber`. */
    async getCheckpointedBlockNumber() {
      return (await chain.getL2Tips()).checkpointed.block.number;
    },

    /** Handler for `node_getCheckpoints`: the existing checkpoints of the range, each with its blocks. */
    async getCheckpoints(from, limit) {
      const found = await checkpoints.checkpointsFrom(from, limit);
      return Promise.all(found.map(async (cp) => toWirePublishedCheckpoint(cp, await blocksOf(cp))));
    },

    /** Handler for `node_getCheckpointedBlocks`: blocks past the checkpointed tip are left out. */
    async getCheckpointedBlocks(from, limit) {
      const tip = (await chain.getL2Tips()).checkpointed.block.number;
      const blocks = await chain.blocksFrom(from, Math.min(limit, tip - from + 1));
      const byNumber = new Map<number, Promise<Checkpoint | undefined>>();
      const checkpointOf = (n: number) => byNumber.get(n) ?? byNumber.set(n, checkpoints.findCheckpoint(n)).get(n)!;
      return Promise.all(
        blocks.map(async (b) => toWireCheckpointedBlock(b, (await checkpointOf(b.checkpointNumber))!)),
      );
    },

    /** Handler for `node_getCheckpointsDataForEpoch`: out hashes as the L1 outbox recorded them, in checkpoint order. */
    async getCheckpointsDataForEpoch(epoch) {
      const [found, outHashes] = await Promise.all([checkpoints.checkpointsOfEpoch(epoch), l1.outHashesOfEpoch(epoch)]);
      if (outHashes.length < found.length)
        throw new Error(`epoch ${epoch}: ${found.length} checkpoints but ${outHashes.length} out hashes on L1`);
      return found.map((cp, i) => toWireCheckpointData(cp, outHashes[i]!));
    },
  };
}
