/**
 * Checkpoints and tips on the p2p layer: the bytes they travel as in checkpoints-by-range
 * responses, and the node's handler for that protocol. Like blocks (block-sync.ts), they are the
 * UTF-8 JSON of what the public RPC returns — a checkpoint is node_getCheckpoints' wire
 * PublishedCheckpoint (header, archive and its blocks), the tips node_getL2Tips' wire L2Tips — so
 * a follower over p2p decodes them with the same schema-checked decoders as one over RPC, and
 * verifies them with the same import (chain/block-import.ts).
 * @module
 */
import type { Checkpoint, L2Block, L2Tips } from '../chain/types.ts';
import { toWireL2Tips } from '../encoding/wire/blocks.ts';
import { toWirePublishedCheckpoint } from '../encoding/wire/checkpoints.ts';
import { fromWireL2Tips, fromWirePublishedCheckpoint } from '../encoding/wire/blocks-decode.ts';
import type { DecodedCheckpoint } from '../encoding/wire/blocks-decode.ts';
import { jsonForPeers, jsonFromPeer } from './block-sync.ts';
import type { CheckpointRangeHandler } from './checkpoint-range-protocol.ts';

/** Tips as p2p bytes. */
export function encodeTipsForPeers(tips: L2Tips): Uint8Array {
  return jsonForPeers(toWireL2Tips(tips));
}

/** p2p bytes → tips; throws WireDecodeError on anything malformed. */
export function decodeTipsFromPeer(bytes: Uint8Array): L2Tips {
  return fromWireL2Tips(jsonFromPeer(bytes, 'tips'));
}

/** A checkpoint with its blocks as p2p bytes. */
export function encodeCheckpointForPeers(checkpoint: Checkpoint, blocks: readonly L2Block[]): Uint8Array {
  return jsonForPeers(toWirePublishedCheckpoint(checkpoint, blocks));
}

/** p2p bytes → checkpoint and blocks (hashes recomputed, nothing verified yet); throws WireDecodeError on anything malformed. */
export function decodeCheckpointFromPeer(bytes: Uint8Array): DecodedCheckpoint {
  return fromWirePublishedCheckpoint(jsonFromPeer(bytes, 'checkpoint'));
}

/** What the handler reads: `engine.chain` and `engine.checkpoints` fit. */
export interface CheckpointRangeReaders {
  readonly chain: { getL2Tips(): Promise<L2Tips>; blocksFrom(from: number, limit: number): Promise<L2Block[]> };
  readonly checkpoints: { checkpointsFrom(from: number, limit: number): Promise<Checkpoint[]> };
}

/** Serves checkpoints-by-range requests: our tips, then our checkpoints ≥ 1 from `from`, each with its blocks. */
export function checkpointRangeHandlerFor({ chain, checkpoints }: CheckpointRangeReaders): CheckpointRangeHandler {
  return async (from, limit) => {
    const tips = encodeTipsForPeers(await chain.getL2Tips());
    const found = limit === 0 || from < 1 ? [] : await checkpoints.checkpointsFrom(from, limit);
    const encoded = await Promise.all(
      found.map(async (cp) => encodeCheckpointForPeers(cp, await chain.blocksFrom(cp.startBlock, cp.blockCount))),
    );
    return { tips, checkpoints: encoded };
  };
}
