/**
 * Request/response protocol to fetch blocks by number range from one peer.
 * Request: u64 big-endian `from`, u32 big-endian `limit`, then the requester closes its write side.
 * Response: one status byte (0 ok, 1 bad request, 2 server error), then for each block a u32
 * big-endian length and the block bytes (chain codec, opaque here), then end of stream
 * (framing in request-response.ts). Both sides bound the count, the total size and the time.
 * @module
 */
import type { Stream } from '@libp2p/interface';
import { requestFrames, respondFrames } from './request-response.ts';

/** Most blocks one request may ask for. */
export const MAX_BLOCKS_PER_REQUEST = 64;
/** Most bytes one response may carry (all blocks together). */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Serves a range: returns up to `limit` encoded blocks starting at `from` (fewer past the tip). */
export type BlockRangeHandler = (from: number, limit: number) => Promise<readonly Uint8Array[]>;

const REQUEST_LENGTH = 12;

/** Sends a request on an opened stream and reads the response. */
export async function requestBlockRange(stream: Stream, from: number, limit: number): Promise<Uint8Array[]> {
  const req = new Uint8Array(REQUEST_LENGTH);
  const view = new DataView(req.buffer);
  view.setBigUint64(0, BigInt(from));
  view.setUint32(8, limit);
  return requestFrames(stream, req, { maxFrames: limit, maxBytes: MAX_RESPONSE_BYTES }, 'block range');
}

/** Answers one request on an inbound stream with the injected handler. */
export async function serveBlockRange(stream: Stream, handler: BlockRangeHandler): Promise<void> {
  await respondFrames(stream, REQUEST_LENGTH, MAX_RESPONSE_BYTES, async (req) => {
    const view = new DataView(req.buffer, req.byteOffset, REQUEST_LENGTH);
    const from = view.getBigUint64(0);
    const limit = view.getUint32(8);
    if (from > BigInt(Number.MAX_SAFE_INTEGER) || limit < 1 || limit > MAX_BLOCKS_PER_REQUEST) return 'bad-request';
    return (await handler(Number(from), limit)).slice(0, limit);
  });
}
