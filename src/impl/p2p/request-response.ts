/**
 * The framing shared by the request/response protocols (blocks-by-range, checkpoints-by-range):
 * the requester writes one fixed-size request and closes its write side; the responder answers
 * one status byte (0 ok, 1 bad request, 2 server error), then frames — each a u32 big-endian
 * length and that many bytes — then end of stream. Both sides bound the frame count and the
 * total size; the requester's caller bounds the time.
 * @module
 */
import type { Stream } from '@libp2p/interface';

/** Response status byte. */
export const STATUS_OK = 0;
export const STATUS_BAD_REQUEST = 1;
export const STATUS_SERVER_ERROR = 2;

/** What the requester accepts from one response. */
export interface ResponseLimits {
  /** Most frames the response may carry. */
  readonly maxFrames: number;
  /** Most bytes all frames together may carry. */
  readonly maxBytes: number;
}

/** Sends `request` on an opened stream and reads the response's frames; throws on a refusal or an over-long answer. */
export async function requestFrames(
  stream: Stream,
  request: Uint8Array,
  limits: ResponseLimits,
  what: string,
): Promise<Uint8Array[]> {
  stream.send(request);
  await stream.close();
  const reader = new StreamReader(stream);
  const status = await reader.readExact(1);
  if (status === undefined) throw new Error(`p2p: empty ${what} response`);
  if (status[0] !== STATUS_OK) throw new Error(`p2p: ${what} request refused (status ${status[0]})`);
  const frames: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const len = await reader.readExact(4);
    if (len === undefined) return frames;
    const n = new DataView(len.buffer, len.byteOffset, 4).getUint32(0);
    total += n;
    if (frames.length >= limits.maxFrames || total > limits.maxBytes)
      throw new Error(`p2p: ${what} response too large`);
    const frame = await reader.readExact(n);
    if (frame === undefined) throw new Error(`p2p: truncated ${what} response`);
    frames.push(frame);
  }
}

/**
 * Answers one request on an inbound stream: reads `requestLength` bytes, asks `answer` (which
 * returns the frames, or 'bad-request' for a request it refuses; a throw is a server error) and
 * writes the frames, stopping before the first one that would pass `maxBytes` (a short answer is
 * valid: the requester asks again from where it ended).
 */
export async function respondFrames(
  stream: Stream,
  requestLength: number,
  maxBytes: number,
  answer: (request: Uint8Array) => Promise<readonly Uint8Array[] | 'bad-request'>,
): Promise<void> {
  // A request cut short is the requester's fault: answered "bad request", not a stream error.
  const req = await new StreamReader(stream).readExact(requestLength).catch(() => undefined);
  let status = STATUS_OK;
  let frames: readonly Uint8Array[] = [];
  if (req === undefined) {
    status = STATUS_BAD_REQUEST;
  } else {
    try {
      const a = await answer(req);
      if (a === 'bad-request') status = STATUS_BAD_REQUEST;
      else frames = a;
    } catch {
      status = STATUS_SERVER_ERROR;
    }
  }
  await send(stream, Uint8Array.of(status));
  let total = 0;
  for (const frame of frames) {
    total += frame.length;
    if (total > maxBytes) break;
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, frame.length);
    await send(stream, len);
    await send(stream, frame);
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
