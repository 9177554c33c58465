/**
 * CheckpointHeader hashing: `sha256ToField(toBuffer())` over the 316-byte buffer, and the
 * empty header whose hash is GENESIS_CHECKPOINT_HEADER_HASH.
 * @module
 */
import type { CheckpointHeader } from '../chain/types.ts';
import { sha256ToField } from '../crypto/sha256-to-field.ts';
import { ByteWriter } from '../tx/byte-writer.ts';

/** Byte length of CheckpointHeader.toBuffer(). */
export const CHECKPOINT_HEADER_BUFFER_BYTES = 316;

/** CheckpointHeader.toBuffer(): 5 fields, slot as a field, u64 timestamp, 20-byte coinbase, field, 2 × u128, field. */
export function checkpointHeaderToBuffer(h: CheckpointHeader): Uint8Array {
  const w = new ByteWriter(CHECKPOINT_HEADER_BUFFER_BYTES);
  for (const f of [h.lastArchiveRoot, h.blockHeadersHash, h.blobsHash, h.inHash, h.epochOutHash]) w.writeField(f);
  w.writeField(BigInt(h.slotNumber));
  w.writeU64(h.timestamp);
  w.writeEthAddress(h.coinbase);
  w.writeField(h.feeRecipient);
  w.writeU128(h.gasFees.feePerDaGas);
  w.writeU128(h.gasFees.feePerL2Gas);
  w.writeField(h.totalManaUsed);
  return w.finish();
}

/** CheckpointHeader.hash(). */
export function hashCheckpointHeader(h: CheckpointHeader): bigint {
  return sha256ToField(checkpointHeaderToBuffer(h));
}

/** CheckpointHeader.empty(). */
export function emptyCheckpointHeader(): CheckpointHeader {
  return {
    lastArchiveRoot: 0n,
    blockHeadersHash: 0n,
    blobsHash: 0n,
    inHash: 0n,
    epochOutHash: 0n,
    slotNumber: 0,
    timestamp: 0n,
    coinbase: 0n,
    feeRecipient: 0n,
    gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n },
    totalManaUsed: 0n,
  };
}
