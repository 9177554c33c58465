/**
 * The checkpoints-by-range protocol: request bytes, the answer's frames (tips first, then
 * checkpoints) over an in-memory stream pair, malformed requests and answers refused, and the
 * service's request and penalty over a real libp2p pair.
 * @module
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Stream } from '@libp2p/interface';
import {
  decodeCheckpointRangeRequest,
  encodeCheckpointRangeRequest,
  MAX_CHECKPOINTS_PER_REQUEST,
  requestCheckpointRange,
  serveCheckpointRange,
} from '../../../src/impl/p2p/checkpoint-range-protocol.ts';
import type { CheckpointRangeHandler } from '../../../src/impl/p2p/checkpoint-range-protocol.ts';
import { P2PService } from '../../../src/impl/p2p/p2p-service.ts';

/** One direction of an in-memory pipe. */
function pipe() {
  const chunks: Uint8Array[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  return {
    push(c: Uint8Array) {
      chunks.push(c);
      wake?.();
    },
    end() {
      ended = true;
      wake?.();
    },
    async *read(): AsyncGenerator<Uint8Array> {
      for (;;) {
        if (chunks.length > 0) {
          yield chunks.shift()!;
          continue;
        }
        if (ended) return;
        await new Promise<void>((r) => {
          wake = r;
        });
        wake = undefined;
      }
    },
  };
}

/** Two ends of a stream: what one sends the other reads; close() ends the writer's side. */
function streamPair(): [Stream, Stream] {
  const ab = pipe(),
    ba = pipe();
  const end = (out: ReturnType<typeof pipe>, inp: ReturnType<typeof pipe>) =>
    ({
      send: (d: Uint8Array) => {
        out.push(d.slice());
        return true;
      },
      close: async () => out.end(),
      onDrain: async () => {},
      abort: () => out.end(),
      [Symbol.asyncIterator]: () => inp.read(),
    }) as unknown as Stream;
  return [end(ab, ba), end(ba, ab)];
}

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};

/** A responder that writes `parts` as they are (status byte and frames) and closes. */
async function rawResponder(server: Stream, parts: Uint8Array[]): Promise<void> {
  for await (const _ of server) {
    /* read the request to its end */
  }
  for (const p of parts) server.send(p);
  await server.close();
}

const handler: CheckpointRangeHandler = async (from, limit) => ({
  tips: bytes('tips'),
  checkpoints: Array.from({ length: limit + 2 }, (_, i) => bytes(`cp${from + i}`)),
});

describe('checkpoints-by-range protocol', () => {
  it('request bytes: u64 from and u32 limit, round trip; malformed requests refused', () => {
    const req = encodeCheckpointRangeRequest(7, 3);
    assert.deepEqual([...req], [0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 3]);
    assert.deepEqual(decodeCheckpointRangeRequest(req), { from: 7, limit: 3 });
    assert.deepEqual(
      decodeCheckpointRangeRequest(encodeCheckpointRangeRequest(1, 0)),
      { from: 1, limit: 0 },
      'limit 0 asks for the tips alone',
    );
    assert.equal(decodeCheckpointRangeRequest(req.subarray(0, 11)), undefined, 'short');
    assert.equal(decodeCheckpointRangeRequest(Uint8Array.of(...req, 0)), undefined, 'long');
    assert.equal(
      decodeCheckpointRangeRequest(encodeCheckpointRangeRequest(1, MAX_CHECKPOINTS_PER_REQUEST + 1)),
      undefined,
      'limit over the maximum',
    );
    const huge = new Uint8Array(12);
    new DataView(huge.buffer).setBigUint64(0, 2n ** 60n);
    assert.equal(decodeCheckpointRangeRequest(huge), undefined, 'from past 2^53');
  });

  it('answers the tips first, then at most `limit` checkpoints; limit 0 gives the tips alone', async () => {
    for (const [from, limit, want] of [
      [3, 2, ['cp3', 'cp4']],
      [1, 0, []],
    ] as const) {
      const [client, server] = streamPair();
      const served = serveCheckpointRange(server, handler);
      const answer = await requestCheckpointRange(client, from, limit);
      await served;
      assert.equal(text(answer.tips), 'tips');
      assert.deepEqual(answer.checkpoints.map(text), want);
    }
  });

  it('the responder refuses a bad request (status 1) and reports its own failure (status 2)', async () => {
    const ask = async (request: Uint8Array, h: CheckpointRangeHandler = handler) => {
      const [client, server] = streamPair();
      const served = serveCheckpointRange(server, h);
      client.send(request);
      await client.close();
      const got: number[] = [];
      for await (const c of client) got.push(...(c as Uint8Array));
      await served;
      return got;
    };
    assert.deepEqual(await ask(encodeCheckpointRangeRequest(1, MAX_CHECKPOINTS_PER_REQUEST + 1)), [1]);
    assert.deepEqual(await ask(Uint8Array.of(0, 0, 0)), [1], 'a request cut short');
    assert.deepEqual(
      await ask(encodeCheckpointRangeRequest(1, 1), async () => {
        throw new Error('db down');
      }),
      [2],
    );
    const [client, server] = streamPair();
    void rawResponder(server, []);
    await assert.rejects(
      requestCheckpointRange(client, 1, MAX_CHECKPOINTS_PER_REQUEST + 1),
      /limit 17 is not in 0\.\.16/,
    );
  });

  it('the requester refuses a malformed answer: refusal, no tips, too many frames, a truncated frame, an empty stream', async () => {
    const cases: [Uint8Array[], RegExp][] = [
      [[Uint8Array.of(2)], /checkpoint range request refused \(status 2\)/],
      [[Uint8Array.of(0)], /response without tips/],
      [
        [Uint8Array.of(0), u32(1), bytes('t'), u32(1), bytes('a'), u32(1), bytes('b')],
        /checkpoint range response too large/,
      ],
      [[Uint8Array.of(0), u32(10), bytes('tips')], /stream ended mid-frame/],
      [[], /empty checkpoint range response/],
    ];
    for (const [parts, error] of cases) {
      const [client, server] = streamPair();
      void rawResponder(server, parts);
      await assert.rejects(requestCheckpointRange(client, 1, 1), error);
    }
  });

  it('over libp2p: a peer serves tips and checkpoints; one without a handler answers "server error"; reported peers are banned', {
    timeout: 30_000,
  }, async (t) => {
    const a = new P2PService({
      dataDirectory: '',
      port: 0,
      txValidator: async () => 'ignore',
      scoring: { banThreshold: -20 },
    });
    await a.start();
    t.after(() => a.stop());
    const b = new P2PService({
      dataDirectory: '',
      port: 0,
      bootstrapPeers: a.getListenAddresses(),
      txValidator: async () => 'ignore',
      checkpointRangeHandler: handler,
    });
    await b.start();
    t.after(() => b.stop());
    const end = Date.now() + 15_000;
    while (a.getPeers().length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    const answer = await a.requestCheckpoints(b.getPeerId(), 5, 1);
    assert.deepEqual([text(answer.tips), ...answer.checkpoints.map(text)], ['tips', 'cp5']);
    await assert.rejects(b.requestCheckpoints(a.getPeerId(), 1, 1), /status 2/);
    a.reportInvalid(b.getPeerId(), 'checkpoint 1 refused');
    assert.deepEqual(a.getBannedPeers(), []);
    a.reportInvalid(b.getPeerId(), 'checkpoint 1 refused');
    assert.deepEqual(a.getBannedPeers(), [b.getPeerId()]);
  });
});
