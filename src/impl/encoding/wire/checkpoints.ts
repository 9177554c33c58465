/**
 * Chain checkpoint values → wire JSON (test/wire/examples/node_getCheckpoints.json and
 * friends): L1PublishedData with decimal strings, PublishedCheckpoint, CheckpointedL2Block and
 * CheckpointData; the header is headers.ts's.
 * @module
 */
import type * as C from '../../chain/types.ts';
import type * as Wire from '../../../generated/public/types.ts';
import { toWireBlock } from './blocks.ts';
import { toWireCheckpointHeader, toWireSnapshot } from './headers.ts';
import { hex32 } from '../hex.ts';

/** L1PublishedData → wire: L1 block number and timestamp as decimal strings. */
export function toWireL1PublishedData(l1: C.L1PublishedData): Wire.L1PublishedData {
  return { blockNumber: l1.blockNumber.toString(), timestamp: l1.timestamp.toString(), blockHash: hex32(l1.blockHash) };
}

/**
 * Checkpoint with its blocks → PublishedCheckpoint. `attestations` is what the node holds: the dev
 * sequencer publishes without a committee, so there are none.
 */
export function toWirePublishedCheckpoint(cp: C.Checkpoint, blocks: readonly C.L2Block[]): Wire.PublishedCheckpoint {
  return {
    checkpoint: {
      archive: toWireSnapshot(cp.archive),
      header: toWireCheckpointHeader(cp.header),
      blocks: blocks.map(toWireBlock),
      number: cp.number,
      feeAssetPriceModifier: cp.feeAssetPriceModifier.toString(),
    },
    l1: toWireL1PublishedData(cp.l1),
    attestations: [],
  };
}

/** A block and the checkpoint that holds it → CheckpointedL2Block. */
export function toWireCheckpointedBlock(block: C.L2Block, cp: C.Checkpoint): Wire.CheckpointedL2Block {
  return { checkpointNumber: cp.number, block: toWireBlock(block), l1: toWireL1PublishedData(cp.l1), attestations: [] };
}

/** Checkpoint plus its out hash (the outbox root of its L2→L1 messages) → CheckpointData. */
export function toWireCheckpointData(cp: C.Checkpoint, outHash: bigint): Wire.CheckpointData {
  return {
    checkpointNumber: cp.number,
    header: toWireCheckpointHeader(cp.header),
    archive: toWireSnapshot(cp.archive),
    checkpointOutHash: hex32(outHash),
    startBlock: cp.startBlock,
    blockCount: cp.blockCount,
    attestations: [],
    l1: toWireL1PublishedData(cp.l1),
  };
}
