/**
 * Request/response protocol to fetch a peer's tips and its checkpoints by number range: what a
 * follower over p2p needs besides blocks to report the same checkpointed, proven and finalized
 * tips as its peers.
 * Request: u64 big-endian `from`, u32 big-endian `limit` (0 … 16; 0 asks for the tips alone),
 * then the requester closes its write side.
 * Response (framing in request-response.ts): status byte, then the responder's tips as the first
 * frame, then one frame per checkpoint from `from` on (at most `limit`; fewer past its latest
 * checkpoint or at the size cap), then end of stream. The frames' bytes are opaque here.
 * @module
 */
import type { Stream } from '@libp2p/interface';
import { requestFrames, respondFrames } from './request-response.ts';

/** Most checkpoints one request may ask for. */
export const MAX_CHECKPOINTS_PER_REQUEST = 16;
/** Most bytes one response may carry (tips and checkpoints together; a checkpoint carries its blocks). */
export const MAX_CHECKPOINT_RESPONSE_BYTES = 32 * 1024 * 1024;

/** A peer's answer: its tips and up to `limit` checkpoints (encoded, unverified). */
export interface CheckpointRangeAnswer {
  readonly tips: Uint8Array;
  readonly checkpoints: readonly Uint8Array[];
}

/** Serves a request: the tips and up to `limit` encoded checkpoints from number `from`. */
export type CheckpointRangeHandler = (from: number, limit: number) => Promise<CheckpointRangeAnswer>;

/** A decoded request. */
export interface CheckpointRangeRequest {
  readonly from: number;
  readonly limit: number;
}

const REQUEST_LENGTH = 12;

/** The request bytes. */
export function encodeCheckpointRangeRequest(from: number, limit: number): Uint8Array {
  const req = new Uint8Array(REQUEST_LENGTH);
  const view = new DataView(req.buffer);
  view.setBigUint64(0, BigInt(from));
  view.setUint32(8, limit);
  return req;
}

/** Request bytes → request; undefined for a wrong length, a `from` past 2^53 or a limit over the maximum. */
export function decodeCheckpointRangeRequest(bytes: Uint8Array): CheckpointRangeRequest | undefined {
  if (bytes.length !== REQUEST_LENGTH) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, REQUEST_LENGTH);
  const from = view.getBigUint64(0);
  const limit = view.getUint32(8);
  if (from > BigInt(Number.MAX_SAFE_INTEGER) || limit > MAX_CHECKPOINTS_PER_REQUEST) return undefined;
  return { from: Number(from), limit };
}

/** Sends a request on an opened stream and reads the answer; throws on a refusal or a malformed answer. */
export async function requestCheckpointRange(
  stream: Stream,
  from: number,
  limit: number,
): Promise<CheckpointRangeAnswer> {
  if (limit < 0 || limit > MAX_CHECKPOINTS_PER_REQUEST)
    throw new Error(`p2p: checkpoint range limit ${limit} is not in 0..${MAX_CHECKPOINTS_PER_REQUEST}`);
  const limits = { maxFrames: limit + 1, maxBytes: MAX_CHECKPOINT_RESPONSE_BYTES };
  const [tips, ...checkpoints] = await requestFrames(
    stream,
    encodeCheckpointRangeRequest(from, limit),
    limits,
    'checkpoint range',
  );
  if (tips === undefined) throw new Error('p2p: checkpoint range response without tips');
  return { tips, checkpoints };
}

/** Answers one request on an inbound stream with the injected handler. */
export async function serveCheckpointRange(stream: Stream, handler: CheckpointRangeHandler): Promise<void> {
  await respondFrames(stream, REQUEST_LENGTH, MAX_CHECKPOINT_RESPONSE_BYTES, async (bytes) => {
    const req = decodeCheckpointRangeRequest(bytes);
    if (req === undefined) return 'bad-request';
    const { tips, checkpoints } = await handler(req.from, req.limit);
    return [tips, ...checkpoints.slice(0, req.limit)];
  });
}
