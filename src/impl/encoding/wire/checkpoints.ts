/**
 * Chain checkpoint values → wire JSON (test/wire/examples/node_getCheckpoints.json and
 * friends): CheckpointHeader with a numeric slot, L1PublishedData with decimal strings,
 * PublishedCheckpoint, CheckpointedL2Block and CheckpointData.
 * @module
 */
import type * as C from '../../chain/types.ts';
import type * as Wire from '../../../generated/public/types.ts';
import { toWireBlock } from './blocks.ts';
import { hex20, hex32 } from '../../encoding/hex.ts';

/** CheckpointHeader → wire; slotNumber is a JSON number here (unlike GlobalVariables.slotNumber). */
export function toWireCheckpointHeader(h: C.CheckpointHeader): Wire.CheckpointHeader {
  return {
    lastArchiveRoot: hex32(h.lastArchiveRoot),
    blockHeadersHash: hex32(h.blockHeadersHash),
    blobsHash: hex32(h.blobsHash),
    inHash: hex32(h.inHash),
    epochOutHash: hex32(h.epochOutHash),
    slotNumber: h.slotNumber,
    timestamp: h.timestamp.toString(),
    coinbase: hex20(h.coinbase),
    feeRecipient: hex32(h.feeRecipient),
    gasFees: { feePerDaGas: h.gasFees.feePerDaGas.toString(), feePerL2Gas: h.gasFees.feePerL2Gas.toString() },
    totalManaUsed: hex32(h.totalManaUsed),
  };
}

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
      archive: { root: hex32(cp.archive.root), nextAvailableLeafIndex: cp.archive.nextAvailableLeafIndex },
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
    archive: { root: hex32(cp.archive.root), nextAvailableLeafIndex: cp.archive.nextAvailableLeafIndex },
    checkpointOutHash: hex32(outHash),
    startBlock: cp.startBlock,
    blockCount: cp.blockCount,
    attestations: [],
    l1: toWireL1PublishedData(cp.l1),
  };
}
