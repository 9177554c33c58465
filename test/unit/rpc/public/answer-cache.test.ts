/**
 * The answer cache (src/impl/rpc/public/answer-cache.ts) on its own: what it stores, that a moved
 * history version drops everything and refuses answers read across it, the byte bound, and that a
 * cached answer is the same JSON text the dispatcher writes for the handler's own result.
 * @module
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerCache, withAnswerCache } from '../../../../src/impl/rpc/public/answer-cache.ts';
import { createDispatcher } from '../../../../src/server/json-rpc.ts';
import { silentLogger } from '../../../../src/server/logger.ts';
import { SerializedResult } from '../../../../src/server/serialized-result.ts';
import { publicMethods } from '../../../../src/generated/public/methods.ts';

/** A history version the test moves by hand. */
const history = () => {
  const h = { v: 0, historyVersion: () => h.v };
  return h;
};

test('a pinned block is stored once and served as text; latest, null and short pages are not stored', async () => {
  const calls: unknown[][] = [];
  const handlers = {
    async getBlock(p: unknown) {
      calls.push(['getBlock', p]);
      return p === 9 ? null : { number: p, tag: 'x' };
    },
    async getBlocks(from: number, limit: number) {
      calls.push(['getBlocks', from, limit]);
      return Array.from({ length: Math.min(limit, 3) }, (_, i) => ({ number: from + i }));
    },
    getBlockNumber: () => 7,
  };
  const cache = new AnswerCache(history());
  const h = withAnswerCache(handlers, cache);
  const first = await h.getBlock(5);
  assert.ok(first instanceof SerializedResult);
  assert.equal((first as unknown as SerializedResult).json, JSON.stringify({ number: 5, tag: 'x' }));
  const second = h.getBlock(5);
  assert.ok(second instanceof SerializedResult, 'a hit answers synchronously');
  assert.equal((second as unknown as SerializedResult).json, (first as unknown as SerializedResult).json);
  assert.deepEqual(await h.getBlock('latest'), { number: 'latest', tag: 'x' });
  await h.getBlock('latest');
  assert.equal(await h.getBlock(9), null);
  await h.getBlock(9);
  assert.ok((await h.getBlocks(1, 3)) instanceof SerializedResult, 'a full page is stored');
  assert.ok(!((await h.getBlocks(1, 5)) instanceof SerializedResult), 'a short page is not');
  await h.getBlocks(1, 3);
  await h.getBlocks(1, 5);
  assert.equal(h.getBlockNumber, handlers.getBlockNumber, 'other handlers pass through');
  assert.deepEqual(calls, [['getBlock', 5], ['getBlock', 'latest'], ['getBlock', 'latest'], ['getBlock', 9], ['getBlock', 9], ['getBlocks', 1, 3], ['getBlocks', 1, 5], ['getBlocks', 1, 5]]);
});

test('an unwind drops every answer, and an answer read across an unwind is not stored', async () => {
  const hist = history();
  let content = 'before';
  let gate: (() => void) | undefined;
  const handlers = {
    async getBlock(n: number) {
      if (gate === undefined) return { n, content };
      const read = { n, content };
      await new Promise<void>((resolve) => (gate = resolve));
      return read;
    },
  };
  const cache = new AnswerCache(hist);
  const h = withAnswerCache(handlers, cache);
  assert.equal((await h.getBlock(3) as unknown as SerializedResult).json, '{"n":3,"content":"before"}');
  hist.v++;
  content = 'after';
  assert.equal((await h.getBlock(3) as unknown as SerializedResult).json, '{"n":3,"content":"after"}', 'the unwind dropped the old answer');
  assert.equal(cache.size.entries, 1);

  // A read that starts, sees old data, and ends after an unwind began: answered, never stored.
  gate = () => {};
  const pending = h.getBlock(4) as unknown as Promise<SerializedResult>;
  await new Promise((r) => setImmediate(r));
  hist.v++;
  gate();
  gate = undefined;
  assert.equal((await pending).json, '{"n":4,"content":"after"}');
  assert.equal(cache.size.entries, 0, 'read across the unwind: not stored');
  content = 'again';
  assert.equal((await h.getBlock(4) as unknown as SerializedResult).json, '{"n":4,"content":"again"}');
});

test('the byte bound evicts the least recently used answers', async () => {
  const handlers = { async getBlock(n: number) { return { n, pad: 'x'.repeat(1000) }; } };
  const cache = new AnswerCache(history(), 20_000);
  const h = withAnswerCache(handlers, cache);
  for (let n = 1; n <= 10; n++) await h.getBlock(n);
  h.getBlock(1); // recently used again
  for (let n = 11; n <= 30; n++) await h.getBlock(n);
  assert.ok(cache.size.bytes <= 20_000, `${cache.size.bytes} bytes held`);
  assert.ok(cache.size.entries >= 15 && cache.size.entries < 30, `${cache.size.entries} entries`);
  assert.ok(h.getBlock(30) instanceof SerializedResult, 'the newest is kept');
  assert.ok(!(h.getBlock(2) instanceof SerializedResult), 'an old one was evicted');
});

test('through the dispatcher, a cached answer is byte for byte the uncached one, single and batched', async () => {
  const block = { archive: { root: '0x01', nextAvailableLeafIndex: 2 }, note: 'é ✓ "quoted"' };
  const plain = { getBlock: async (n: number) => (n === 1 ? block : null), getBlockNumber: () => 1 };
  const cached = withAnswerCache(plain, new AnswerCache(history()));
  const d1 = createDispatcher({ methods: publicMethods, handlers: plain, maxBatchSize: 10, logger: silentLogger });
  const d2 = createDispatcher({ methods: publicMethods, handlers: cached, maxBatchSize: 10, logger: silentLogger });
  const batch = [1, 2, 1, 'latest'].map((p, i) => ({ jsonrpc: '2.0', id: i, method: 'node_getBlock', params: [p] }));
  for (let round = 0; round < 2; round++) {
    assert.deepEqual(await d2(batch), await d1(batch));
    assert.deepEqual(await d2(batch[0]), await d1(batch[0]));
  }
});
