/**
 * Minimal RLP (Ethereum recursive length prefix) encoder and strict decoder, enough for ENRs
 * (EIP-778): byte strings and lists of them, with canonical-form checks on decode.
 * @module
 */

/** An RLP item: a byte string or a list of items. */
export type RlpItem = Uint8Array | RlpItem[];

/** Encodes an item as RLP. */
export function rlpEncode(item: RlpItem): Uint8Array {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) return item;
    return concat([lengthPrefix(item.length, 0x80), item]);
  }
  const body = concat(item.map(rlpEncode));
  return concat([lengthPrefix(body.length, 0xc0), body]);
}

/** Decodes one RLP item that must span all of `bytes`; throws on non-canonical or truncated input. */
export function rlpDecode(bytes: Uint8Array): RlpItem {
  const [item, end] = decodeAt(bytes, 0);
  if (end !== bytes.length) throw new Error('rlp: trailing bytes');
  return item;
}

/** Encodes a non-negative integer as a minimal big-endian byte string (0 is the empty string). */
export function encodeUint(value: number | bigint): Uint8Array {
  let v = BigInt(value);
  if (v < 0n) throw new Error('rlp: negative integer');
  const out: number[] = [];
  while (v > 0n) {
    out.unshift(Number(v & 0xffn));
    v >>= 8n;
  }
  return Uint8Array.from(out);
}

/** Decodes a minimal big-endian byte string (no leading zero) as an integer. */
export function decodeUint(bytes: Uint8Array): bigint {
  if (bytes.length > 0 && bytes[0] === 0) throw new Error('rlp: integer with leading zero');
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

function lengthPrefix(length: number, offset: number): Uint8Array {
  if (length < 56) return Uint8Array.of(offset + length);
  const len = encodeUint(length);
  return concat([Uint8Array.of(offset + 55 + len.length), len]);
}

function decodeAt(bytes: Uint8Array, pos: number): [RlpItem, number] {
  const b = bytes[pos];
  if (b === undefined) throw new Error('rlp: truncated input');
  if (b < 0x80) return [bytes.subarray(pos, pos + 1), pos + 1];
  const isList = b >= 0xc0;
  const base = isList ? 0xc0 : 0x80;
  let length: number;
  let start: number;
  if (b - base < 56) {
    length = b - base;
    start = pos + 1;
  } else {
    const lenOfLen = b - base - 55;
    const lenBytes = take(bytes, pos + 1, lenOfLen);
    // Canonical form: no leading zero and long form only for lengths of 56 or more.
    if (lenBytes[0] === 0) throw new Error('rlp: length with leading zero');
    length = Number(decodeUint(lenBytes));
    if (length < 56) throw new Error('rlp: non-canonical long length');
    start = pos + 1 + lenOfLen;
  }
  const payload = take(bytes, start, length);
  const end = start + length;
  if (!isList) {
    if (length === 1 && payload[0]! < 0x80) throw new Error('rlp: non-canonical single byte');
    return [payload, end];
  }
  const items: RlpItem[] = [];
  let p = start;
  while (p < end) {
    const [item, next] = decodeAt(bytes.subarray(0, end), p);
    items.push(item);
    p = next;
  }
  return [items, end];
}

function take(bytes: Uint8Array, start: number, length: number): Uint8Array {
  if (start + length > bytes.length) throw new Error('rlp: truncated input');
  return bytes.subarray(start, start + length);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
