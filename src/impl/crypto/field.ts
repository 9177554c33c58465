/**
 * BN254 scalar field (Fr): the modulus, validation, and conversions between bigint, 0x-hex and
 * 32-byte big-endian buffers. Every hash and tree value in the node is an element of this field.
 * @module
 */
import { hex32 } from '../encoding/hex.ts';

/** The BN254 scalar field modulus p. */
export const FIELD_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/** Byte length of a serialised field element. */
export const FIELD_BYTES = 32;

const HEX_RE = /^0x[0-9a-fA-F]{1,64}$/;

/** True when x is a bigint in [0, p). */
export function isField(x: unknown): x is bigint {
  return typeof x === 'bigint' && x >= 0n && x < FIELD_MODULUS;
}

/** Throws unless x is a canonical field element; returns x. */
export function assertField(x: bigint, what = 'value'): bigint {
  if (!isField(x)) throw new RangeError(`${what} is not a field element: ${String(x)}`);
  return x;
}

/** 0x + 64 lowercase hex digits (throws when x is not a field element). */
export function toFieldHex(x: bigint): string {
  return hex32(assertField(x));
}

/** Parses 0x-hex (1..64 digits, any case); throws on bad hex or a value ≥ p. */
export function parseFieldHex(s: string): bigint {
  if (typeof s !== 'string' || !HEX_RE.test(s)) throw new RangeError(`not a 0x-hex field element: ${String(s)}`);
  const x = BigInt(s);
  if (x >= FIELD_MODULUS) throw new RangeError(`field element out of range (>= modulus): ${s}`);
  return x;
}

/** Reads a 32-byte big-endian field element at offset; throws when ≥ p or too short. */
export function fieldFromBytes(bytes: Uint8Array, offset = 0): bigint {
  if (bytes.length - offset < FIELD_BYTES) throw new RangeError('need 32 bytes for a field element');
  let x = 0n;
  // 4 × 64-bit words keeps the BigInt work small.
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, FIELD_BYTES);
  for (let i = 0; i < 4; i++) x = (x << 64n) | view.getBigUint64(i * 8);
  if (x >= FIELD_MODULUS) throw new RangeError('field element out of range (>= modulus)');
  return x;
}

/** Writes x as 32 bytes big-endian (into out at offset when given, else a new buffer). */
export function fieldToBytes(x: bigint, out?: Uint8Array, offset = 0): Uint8Array {
  assertField(x);
  const buf = out ?? new Uint8Array(FIELD_BYTES);
  const view = new DataView(buf.buffer, buf.byteOffset + offset, FIELD_BYTES);
  view.setBigUint64(0, x >> 192n);
  view.setBigUint64(8, (x >> 128n) & 0xffffffffffffffffn);
  view.setBigUint64(16, (x >> 64n) & 0xffffffffffffffffn);
  view.setBigUint64(24, x & 0xffffffffffffffffn);
  return buf;
}

/** Reduces any bigint (possibly negative) into [0, p). */
export function toField(x: bigint): bigint {
  const r = x % FIELD_MODULUS;
  return r < 0n ? r + FIELD_MODULUS : r;
}
