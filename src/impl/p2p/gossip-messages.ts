/**
 * Gossip topic names and message encodings: txs as UTF-8 JSON of the `Tx` wire object (the
 * object `node_sendTx` takes), block announcements as a small binary frame around the chain
 * codec's block bytes. Message ids are content hashes, so one tx published by two nodes is one
 * message for gossipsub's seen cache. See docs/P2P.md.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { toWireTx } from '../tx/tx-wire.ts';
import type { Tx } from '../tx/types.ts';

/** Gossip topic carrying txs; the version and encoding are part of the name. */
export function txTopic(network: string): string {
  return `/l2node/${network}/tx/1/json`;
}

/** Gossip topic carrying new-block announcements. */
export function blockTopic(network: string): string {
  return `/l2node/${network}/block/1/bin`;
}

/** Request/response protocol id for fetching blocks by number range. */
export function blocksByRangeProtocol(network: string): string {
  return `/l2node/${network}/req/blocks-by-range/1`;
}

/** Request/response protocol id for fetching a peer's tips and checkpoints by number range. */
export function checkpointsByRangeProtocol(network: string): string {
  return `/l2node/${network}/req/checkpoints-by-range/1`;
}

/** gossipsub message id: the first 20 bytes of sha256(topic ‖ 0x00 ‖ data). */
export function contentMessageId(topic: string, data: Uint8Array): Uint8Array {
  const t = new TextEncoder().encode(topic);
  const buf = new Uint8Array(t.length + 1 + data.length);
  buf.set(t, 0);
  buf.set(data, t.length + 1);
  return sha256(buf).subarray(0, 20);
}

/** Encodes a tx for the tx topic. */
export function encodeTxMessage(tx: Tx): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(toWireTx(tx)));
}

/** Parses a tx-topic message into the wire JSON value, or undefined when it is not UTF-8 JSON. */
export function parseTxMessage(data: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    return undefined;
  }
}

/** A new-block announcement: the block's number and hash, and its bytes in the chain codec. */
export interface BlockAnnouncement {
  readonly blockNumber: number;
  /** 32-byte block hash. */
  readonly blockHash: Uint8Array;
  /** The block as the chain codec encodes it; opaque to the p2p layer. */
  readonly block: Uint8Array;
}

const BLOCK_FRAME_VERSION = 1;
const BLOCK_HEADER_BYTES = 1 + 8 + 32;

/** Encodes an announcement: version byte 1, u64 big-endian number, 32-byte hash, block bytes. */
export function encodeBlockAnnouncement(a: BlockAnnouncement): Uint8Array {
  if (a.blockHash.length !== 32) throw new Error('p2p: block hash must be 32 bytes');
  if (!Number.isSafeInteger(a.blockNumber) || a.blockNumber < 0) throw new Error('p2p: bad block number');
  const out = new Uint8Array(BLOCK_HEADER_BYTES + a.block.length);
  const view = new DataView(out.buffer);
  out[0] = BLOCK_FRAME_VERSION;
  view.setBigUint64(1, BigInt(a.blockNumber));
  out.set(a.blockHash, 9);
  out.set(a.block, BLOCK_HEADER_BYTES);
  return out;
}

/** Decodes an announcement, or undefined when the frame is malformed. */
export function decodeBlockAnnouncement(data: Uint8Array): BlockAnnouncement | undefined {
  if (data.length < BLOCK_HEADER_BYTES || data[0] !== BLOCK_FRAME_VERSION) return undefined;
  const n = new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(1);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return {
    blockNumber: Number(n),
    blockHash: data.slice(9, BLOCK_HEADER_BYTES),
    block: data.slice(BLOCK_HEADER_BYTES),
  };
}
