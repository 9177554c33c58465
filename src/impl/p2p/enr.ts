/**
 * Ethereum Node Records (EIP-778) with the "v4" identity scheme: build and sign this node's
 * record, and decode and verify records given as bootstrap peers. Text form: `enr:` + base64url
 * (no padding) of the RLP list `[signature, seq, k1, v1, k2, v2, …]`, keys sorted and unique.
 * @module
 */
import { isIPv4, isIPv6 } from 'node:net';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeUint, encodeUint, rlpDecode, rlpEncode } from './rlp.ts';
import type { RlpItem } from './rlp.ts';

/** EIP-778: a record may not exceed 300 bytes of RLP. */
export const ENR_MAX_BYTES = 300;

/** The endpoint fields this node puts in its record. */
export interface EnrEndpoint {
  readonly seq: bigint;
  readonly ip?: string;
  readonly tcp?: number;
  readonly udp?: number;
}

/** A decoded, signature-checked record. */
export interface Enr {
  readonly seq: bigint;
  /** 33-byte compressed secp256k1 public key (the `secp256k1` entry). */
  readonly publicKey: Uint8Array;
  /** keccak256 of the 64-byte uncompressed public key, 0x-less lowercase hex. */
  readonly nodeId: string;
  readonly ip?: string;
  readonly ip6?: string;
  readonly tcp?: number;
  readonly udp?: number;
  readonly tcp6?: number;
  /** Every key/value pair as stored, including ones this module does not interpret. */
  readonly pairs: ReadonlyMap<string, Uint8Array>;
  readonly signature: Uint8Array;
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

/** Builds and signs a v4 record for a 32-byte secp256k1 private key; returns the `enr:` text. */
export function encodeEnr(privateKey: Uint8Array, endpoint: EnrEndpoint): string {
  const pairs = new Map<string, Uint8Array>();
  pairs.set('id', textEncoder.encode('v4'));
  pairs.set('secp256k1', secp256k1.getPublicKey(privateKey, true));
  if (endpoint.ip !== undefined) {
    if (isIPv4(endpoint.ip)) pairs.set('ip', ipv4Bytes(endpoint.ip));
    else if (isIPv6(endpoint.ip)) pairs.set('ip6', ipv6Bytes(endpoint.ip));
    else throw new Error(`enr: not an IP address: ${endpoint.ip}`);
  }
  const v6 = pairs.has('ip6');
  if (endpoint.tcp !== undefined) pairs.set(v6 ? 'tcp6' : 'tcp', encodeUint(endpoint.tcp));
  if (endpoint.udp !== undefined) pairs.set(v6 ? 'udp6' : 'udp', encodeUint(endpoint.udp));
  const content = contentList(endpoint.seq, pairs);
  const digest = keccak_256(rlpEncode(content));
  // noble signs deterministically (RFC 6979) with low s, as geth does; the EIP vector relies on it.
  const signature = secp256k1.sign(digest, privateKey, { prehash: false, format: 'compact' });
  const record = rlpEncode([signature, ...content]);
  if (record.length > ENR_MAX_BYTES) throw new Error('enr: record exceeds 300 bytes');
  return 'enr:' + Buffer.from(record).toString('base64url');
}

/** Decodes `enr:…` text and verifies its v4 signature; throws on any defect. */
export function decodeEnr(text: string): Enr {
  if (!text.startsWith('enr:')) throw new Error('enr: missing "enr:" prefix');
  const body = text.slice(4);
  if (!/^[A-Za-z0-9_-]+$/.test(body)) throw new Error('enr: not base64url');
  const bytes = new Uint8Array(Buffer.from(body, 'base64url'));
  if (bytes.length > ENR_MAX_BYTES) throw new Error('enr: record exceeds 300 bytes');
  const list = rlpDecode(bytes);
  if (!Array.isArray(list) || list.length < 2 || list.length % 2 !== 0) throw new Error('enr: bad record shape');
  const [signature, seqBytes, ...kv] = list.map(asBytes);
  const pairs = new Map<string, Uint8Array>();
  let previous = '';
  for (let i = 0; i < kv.length; i += 2) {
    const key = textDecoder.decode(kv[i]!);
    if (pairs.size > 0 && key <= previous) throw new Error('enr: keys not sorted and unique');
    pairs.set(key, kv[i + 1]!);
    previous = key;
  }
  const id = pairs.get('id');
  if (id === undefined || textDecoder.decode(id) !== 'v4') throw new Error('enr: identity scheme is not v4');
  const publicKey = pairs.get('secp256k1');
  if (publicKey === undefined || publicKey.length !== 33) throw new Error('enr: missing secp256k1 key');
  const seq = decodeUint(seqBytes!);
  const digest = keccak_256(rlpEncode(list.slice(1)));
  if (signature!.length !== 64 || !secp256k1.verify(signature!, digest, publicKey, { prehash: false })) {
    throw new Error('enr: bad signature');
  }
  const port = (key: string) => {
    const v = pairs.get(key);
    return v === undefined ? undefined : Number(decodeUint(v));
  };
  const ip = pairs.get('ip');
  const ip6 = pairs.get('ip6');
  return {
    seq,
    publicKey,
    nodeId: enrNodeId(publicKey),
    pairs,
    signature: signature!,
    ...(ip?.length === 4 ? { ip: ip.join('.') } : {}),
    ...(ip6?.length === 16 ? { ip6: ipv6Text(ip6) } : {}),
    ...optional('tcp', port('tcp')),
    ...optional('udp', port('udp')),
    ...optional('tcp6', port('tcp6')),
  };
}

/** The v4 node id: keccak256 of the uncompressed public key without its 0x04 prefix, as hex. */
export function enrNodeId(compressedPublicKey: Uint8Array): string {
  const point = secp256k1.Point.fromBytes(compressedPublicKey).toBytes(false);
  return Buffer.from(keccak_256(point.subarray(1))).toString('hex');
}

function contentList(seq: bigint, pairs: Map<string, Uint8Array>): RlpItem[] {
  const keys = [...pairs.keys()].sort();
  return [encodeUint(seq), ...keys.flatMap((k) => [textEncoder.encode(k), pairs.get(k)!])];
}

function asBytes(item: RlpItem): Uint8Array {
  if (!(item instanceof Uint8Array)) throw new Error('enr: nested list in record');
  return item;
}

function optional<K extends string>(key: K, value: number | undefined): { [P in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: number };
}

function ipv4Bytes(ip: string): Uint8Array {
  return Uint8Array.from(ip.split('.').map(Number));
}

function ipv6Bytes(ip: string): Uint8Array {
  const [head = '', tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = parseInt(g, 16);
    out[2 * i] = v >> 8;
    out[2 * i + 1] = v & 0xff;
  });
  return out;
}

function ipv6Text(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}
