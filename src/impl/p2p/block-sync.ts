/**
 * Blocks on the p2p layer: the bytes a block travels as (in announcements and block-range
 * responses) and the node's range handler. The bytes are the UTF-8 JSON of the wire L2Block
 * (`toWireBlock`, what node_getBlock returns), so a block from a peer goes through the same
 * schema-checked decoder as one fetched over RPC, and the receiver recomputes its hash.
 * @module
 */
import type { L2Block } from '../chain/types.ts';
import { toWireBlock } from '../encoding/wire/blocks.ts';
import { fromWireBlock, WireDecodeError } from '../encoding/wire/blocks-decode.ts';
import { fieldFromBytes, fieldToBytes } from '../crypto/field.ts';
import type { BlockRangeHandler } from './block-range-protocol.ts';
import type { BlockAnnouncement } from './gossip-messages.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** A block as p2p bytes. */
export function encodeBlockForPeers(block: L2Block): Uint8Array {
  return jsonForPeers(toWireBlock(block));
}

/** p2p bytes → block (hash recomputed); throws WireDecodeError on anything malformed. */
export function decodeBlockFromPeer(bytes: Uint8Array): L2Block {
  return fromWireBlock(jsonFromPeer(bytes, 'block'));
}

/** A wire value as p2p bytes (UTF-8 JSON). */
export function jsonForPeers(wire: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(wire));
}

/** p2p bytes → parsed JSON, not yet schema-checked; throws WireDecodeError when they are not UTF-8 JSON. */
export function jsonFromPeer(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch (err) {
    throw new WireDecodeError(`${what} bytes are not UTF-8 JSON: ${(err as Error).message}`);
  }
}

/** The announcement of a new block (P2PService.publishBlock). */
export function blockAnnouncement(block: L2Block): BlockAnnouncement {
  return {
    blockNumber: block.header.globalVariables.blockNumber,
    blockHash: fieldToBytes(block.hash),
    block: encodeBlockForPeers(block),
  };
}

/** An announcement decoded and checked: the block's recomputed hash and number are the announced ones. */
export function decodeAnnouncement(a: BlockAnnouncement): L2Block {
  const block = decodeBlockFromPeer(a.block);
  if (block.header.globalVariables.blockNumber !== a.blockNumber || block.hash !== fieldFromBytes(a.blockHash)) {
    throw new WireDecodeError(`announced block ${a.blockNumber} does not match its bytes`);
  }
  return block;
}

/** Serves block-range requests from the chain (blocks ≥ 1 that exist, in order). */
export function blockRangeHandlerFor(chain: {
  blocksFrom(from: number, limit: number): Promise<L2Block[]>;
}): BlockRangeHandler {
  return async (from, limit) => (from < 1 ? [] : (await chain.blocksFrom(from, limit)).map(encodeBlockForPeers));
}
