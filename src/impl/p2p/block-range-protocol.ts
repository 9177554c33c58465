/**
 * Request/response protocol to fetch blocks by number range from one peer.
 * Request: u64 big-endian `from`, u32 big-endian `limit`, then the requester closes its write side.
 * Response: one status byte (0 ok, 1 bad request, 2 server error), then for each block a u32
 * big-endian length and the block bytes (chain codec, opaque here), then end of stream.
 * Both sides bound the count, the total size and the time.
 * @module
 */
import type { Stream } from '@libp2p/interface';

/** Most blocks one request may ask for. */
export const MAX_BLOCKS_PER_REQUEST = 64;
/** Most bytes one response may carry (all blocks together). */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Serves a range: returns up to `limit` encoded blocks starting at `from` (fewer past the tip). */
export type BlockRangeHandler = (from: number, limit: number) => Promise<readonly Uint8Array[]>;

const STATUS_OK = 0;
const STATUS_BAD_REQUEST = 1;
const STATUS_SERVER_ERROR = 2;

/** Sends a request on an opened stream and reads the response. */
export async function requestBlockRange(stream: Stream, from: number, limit: number): Promise<Uint8Array[]> {
  const req = new Uint8Array(12);
  const view = new DataView(req.buffer);
  view.setBigUint64(0, BigInt(from));
  view.setUint32(8, limit);
  stream.send(req);
  await stream.close();
  const reader = new StreamReader(stream);
  const status = await reader.readExact(1);
  if (status === undefined) throw new Error('p2p: empty block range response');
  if (status[0] !== STATUS_OK) throw new Error(`p2p: block range request refused (status ${status[0]})`);
  const blocks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const len = await reader.readExact(4);
    if (len === undefined) return blocks;
    const n = new DataView(len.buffer, len.byteOffset, 4).getUint32(0);
    total += n;
    if (blocks.length >= limit || total > MAX_RESPONSE_BYTES) throw new Error('p2p: block range response too large');
    const block = await reader.readExact(n);
    if (block === undefined) throw new Error('p2p: truncated block range response');
    blocks.push(block);
  }
}

/** Answers one request on an inbound stream with the injected handler. */
export async function serveBlockRange(stream: Stream, handler: BlockRangeHandler): Promise<void> {
  const req = await new StreamReader(stream).readExact(12);
  let status = STATUS_OK;
  let blocks: readonly Uint8Array[] = [];
  if (req === undefined) {
    status = STATUS_BAD_REQUEST;
  } else {
    const view = new DataView(req.buffer, req.byteOffset, 12);
    const from = view.getBigUint64(0);
    const limit = view.getUint32(8);
    if (from > BigInt(Number.MAX_SAFE_INTEGER) || limit < 1 || limit > MAX_BLOCKS_PER_REQUEST) {
      status = STATUS_BAD_REQUEST;
    } else {
      try {
        blocks = (await handler(Number(from), limit)).slice(0, limit);
      } catch {
        status = STATUS_SERVER_ERROR;
      }
    }
  }
  await send(stream, Uint8Array.of(status));
  let total = 0;
  for (const block of blocks) {
    total += block.length;
    if (total > MAX_RESPONSE_BYTES) break; // a short answer is valid; the requester asks again
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, block.length);
    await send(stream, len);
    await send(stream, block);
  }
  await stream.close();
}

async function send(stream: Stream, data: Uint8Array): Promise<void> {
  if (!stream.send(data)) await stream.onDrain();
}

/** Reads exact byte counts from a stream's chunk iterator. */
class StreamReader {
  readonly #iter: AsyncIterator<Uint8Array | { subarray(): Uint8Array }>;
  #buf = new Uint8Array(0);

  constructor(stream: Stream) {
    this.#iter = stream[Symbol.asyncIterator]();
  }

  /** The next `n` bytes, or undefined at a clean end of stream; throws when it ends mid-way. */
  async readExact(n: number): Promise<Uint8Array | undefined> {
    while (this.#buf.length < n) {
      const next = await this.#iter.next();
      if (next.done === true) {
        if (this.#buf.length === 0) return undefined;
        throw new Error('p2p: stream ended mid-frame');
      }
      const chunk = next.value instanceof Uint8Array ? next.value : next.value.subarray();
      const merged = new Uint8Array(this.#buf.length + chunk.length);
      merged.set(this.#buf, 0);
      merged.set(chunk, this.#buf.length);
      this.#buf = merged;
    }
    const out = this.#buf.slice(0, n);
    this.#buf = this.#buf.subarray(n);
    return out;
  }
}
