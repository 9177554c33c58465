/**
 * sha256ToField: the Aztec truncation of a SHA-256 digest into a BN254 field element
 * (0x00 ‖ first 31 digest bytes, read big-endian), used e.g. by CheckpointHeader.hash().
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { fieldFromBytes } from './field.ts';

/** sha256(data) truncated to 31 bytes and read as a field element (always < p). */
export function sha256ToField(data: Uint8Array): bigint {
  const digest = sha256(data);
  const buf = new Uint8Array(32);
  buf.set(digest.subarray(0, 31), 1);
  return fieldFromBytes(buf);
}
