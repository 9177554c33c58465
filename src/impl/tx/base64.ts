/**
 * Strict standard base64 (RFC 4648 §4, `=` padding) for `Tx.data` and `Tx.chonkProof`.
 * `Buffer.from(s, 'base64')` silently skips junk, so it alone would let malformed input through.
 * @module
 */
import { TxDecodeError } from './errors.ts';

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decodes canonical base64; throws `TxDecodeError` at `path` on anything else. */
export function decodeBase64Strict(s: string, path: string): Uint8Array {
  const bytes = Buffer.from(s, 'base64');
  // Buffer's encoder writes only canonical padded base64, so an exact round trip is the whole check
  // (~0.05 ms for a tx's ~80 KB proof, against ~0.75 ms for BASE64_RE, issue #21). Otherwise the
  // text is refused, and BASE64_RE tells which refusal: junk, or non-zero bits in the last symbol
  // before the padding (they decode to the same bytes; only the canonical form re-encodes exactly).
  if (bytes.toString('base64') === s) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!BASE64_RE.test(s)) throw new TxDecodeError(path, 'not valid base64 (standard alphabet with = padding)');
  throw new TxDecodeError(path, 'not canonical base64 (non-zero padding bits)');
}

/** Encodes bytes as standard base64 with padding. */
export function encodeBase64(bytes: Uint8Array): string {
  // Browsers have no Buffer: the client package's tx builder (`@l2node/client/tx`) encodes with btoa there.
  if (globalThis.Buffer === undefined) {
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
