/**
 * 0x-hex spelling of numbers, the one owner for the wire, the tables, p2p and the logs: 32-byte words
 * (hashes, field elements, Aztec addresses), fixed widths (20-byte L1 addresses) and points. Lower case,
 * zero-padded. Spelling only: a field element's range check is crypto/field.ts (toFieldHex).
 * @module
 */

/** 0x + `bytes`·2 lower-case hex digits, zero-padded. */
export function hexBytes(x: bigint, bytes: number): string {
  return '0x' + x.toString(16).padStart(bytes * 2, '0');
}

/** 0x + 64 hex: a 32-byte word (hash, field element, Aztec address). */
export function hex32(x: bigint): string {
  return '0x' + x.toString(16).padStart(64, '0');
}

/** 0x + 40 hex: a 20-byte L1 (Ethereum) address. */
export function hex20(x: bigint): string {
  return '0x' + x.toString(16).padStart(40, '0');
}

/** 0x + x then y, 64 hex each: a Grumpkin point as the wire spells it. */
export function pointHex(p: { readonly x: bigint; readonly y: bigint }): string {
  return hex32(p.x) + p.y.toString(16).padStart(64, '0');
}
