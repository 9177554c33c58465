/**
 * CheckpointHeader serialisation and hash (trees.json `checkpointHeaderHash`): a 316-byte
 * buffer — five 32-byte fields, slot as a 32-byte field, timestamp u64, coinbase 20 bytes,
 * fee recipient 32, gas fees two u128, total mana 32 — hashed with sha256ToField.
 * @module
 */
import { fieldToBytes } from '../crypto/field.ts';
import { sha256ToField } from '../crypto/sha256-to-field.ts';
import type { CheckpointHeader } from './types.ts';

/** Byte length of a serialised CheckpointHeader. */
export const CHECKPOINT_HEADER_BYTES = 316;

function writeUint(buf: Uint8Array, offset: number, bytes: number, value: bigint): number {
  let v = value;
  for (let i = bytes - 1; i >= 0; i--) {
    buf[offset + i] = Number(v & 0xffn);
    v >>= 8n;
  }
  if (v !== 0n) throw new RangeError(`value does not fit in ${bytes} bytes`);
  return offset + bytes;
}

/** CheckpointHeader.toBuffer(). */
export function checkpointHeaderToBuffer(h: CheckpointHeader): Uint8Array {
  const buf = new Uint8Array(CHECKPOINT_HEADER_BYTES);
  let o = 0;
  for (const f of [h.lastArchiveRoot, h.blockHeadersHash, h.blobsHash, h.inHash, h.epochOutHash, BigInt(h.slotNumber)]) {
    fieldToBytes(f, buf, o);
    o += 32;
  }
  o = writeUint(buf, o, 8, h.timestamp);
  o = writeUint(buf, o, 20, h.coinbase);
  fieldToBytes(h.feeRecipient, buf, o);
  o += 32;
  o = writeUint(buf, o, 16, h.gasFees.feePerDaGas);
  o = writeUint(buf, o, 16, h.gasFees.feePerL2Gas);
  fieldToBytes(h.totalManaUsed, buf, o);
  return buf;
}

/** CheckpointHeader.hash() = sha256ToField(toBuffer()). */
export function hashCheckpointHeader(h: CheckpointHeader): bigint {
  return sha256ToField(checkpointHeaderToBuffer(h));
}

/** CheckpointHeader.empty(); its hash is GENESIS_CHECKPOINT_HEADER_HASH. */
export function emptyCheckpointHeader(): CheckpointHeader {
  return {
    lastArchiveRoot: 0n, blockHeadersHash: 0n, blobsHash: 0n, inHash: 0n, epochOutHash: 0n,
    slotNumber: 0, timestamp: 0n, coinbase: 0n, feeRecipient: 0n,
    gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n }, totalManaUsed: 0n,
  };
}
