/**
 * CheckpointHeader hashing: `sha256ToField(toBuffer())` over the 316-byte buffer, and the
 * empty header whose hash is GENESIS_CHECKPOINT_HEADER_HASH.
 * @module
 */
import type { CheckpointHeader } from '../chain/types.ts';
import { fieldToBytes, parseFieldHex } from '../crypto/field.ts';
import { sha256ToField } from '../crypto/sha256-to-field.ts';

/** Byte length of CheckpointHeader.toBuffer(). */
export const CHECKPOINT_HEADER_BUFFER_BYTES = 316;

/** CheckpointHeader.toBuffer(): 5 fields, slot as a field, u64 timestamp, 20-byte coinbase, field, 2 × u128, field. */
export function checkpointHeaderToBuffer(h: CheckpointHeader): Uint8Array {
  const out = new Uint8Array(CHECKPOINT_HEADER_BUFFER_BYTES);
  let o = 0;
  const field = (x: bigint) => {
    fieldToBytes(x, out, o);
    o += 32;
  };
  const uint = (x: bigint, bytes: number) => {
    for (let i = bytes - 1; i >= 0; i--) {
      out[o + i] = Number(x & 0xffn);
      x >>= 8n;
    }
    o += bytes;
  };
  field(h.lastArchiveRoot);
  field(h.blockHeadersHash);
  field(h.blobsHash);
  field(h.inHash);
  field(h.epochOutHash);
  field(BigInt(h.slotNumber));
  uint(h.timestamp, 8);
  uint(h.coinbase, 20);
  field(h.feeRecipient);
  uint(h.gasFees.feePerDaGas, 16);
  uint(h.gasFees.feePerL2Gas, 16);
  field(h.totalManaUsed);
  return out;
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

/** Parses the real node's CheckpointHeader JSON (reference §1.3). */
export function checkpointHeaderFromJson(j: Record<string, any>): CheckpointHeader {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  return {
    lastArchiveRoot: parseFieldHex(j.lastArchiveRoot),
    blockHeadersHash: parseFieldHex(j.blockHeadersHash),
    blobsHash: parseFieldHex(j.blobsHash),
    inHash: parseFieldHex(j.inHash),
    epochOutHash: parseFieldHex(j.epochOutHash),
    slotNumber: Number(j.slotNumber),
    timestamp: BigInt(j.timestamp),
    coinbase: BigInt(j.coinbase),
    feeRecipient: parseFieldHex(j.feeRecipient),
    gasFees: { feePerDaGas: BigInt(j.gasFees.feePerDaGas), feePerL2Gas: BigInt(j.gasFees.feePerL2Gas) },
    totalManaUsed: parseFieldHex(j.totalManaUsed),
  };
}
