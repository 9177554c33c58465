/**
 * The answer cache (src/impl/rpc/public/answer-cache.ts) on its own: what it stores, that a moved
 * history version drops everything and refuses answers read across it, the byte bound, and that a
 * cached answer is the same JSON text the dispatcher writes for the handler's own result.
 * @module
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerCache, answerCachesOver, withAnswerCache } from '../../../../src/impl/rpc/public/answer-cache.ts';
import { createDispatcher } from '../../../../src/server/json-rpc.ts';
import { silentLogger } from '../../../../src/server/logger.ts';
import { SerializedResult } from '../../../../src/server/serialized-result.ts';
import { publicMethods } from '../../../../src/generated/public/methods.ts';

/** History and tip versions the test moves by hand (the tip version is odd while a block is applied). */
const versions = () => {
  const c = { history: 0, tip: 0, historyVersion: () => c.history, tipVersion: () => c.tip };
  return c;
};

test('a pinned block is stored until an unwind; latest, null and short pages until the tip moves', async () => {
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
  const v = versions();
  const h = withAnswerCache(handlers, answerCachesOver(v));
  const first = await h.getBlock(5);
  assert.ok(first instanceof SerializedResult);
  assert.equal((first as unknown as SerializedResult).json, JSON.stringify({ number: 5, tag: 'x' }));
  const second = h.getBlock(5);
  assert.ok(second instanceof SerializedResult, 'a hit answers synchronously');
  assert.equal((second as unknown as SerializedResult).json, (first as unknown as SerializedResult).json);
  const text = (r: unknown) => (r as SerializedResult).json;
  assert.equal(text(await h.getBlock('latest')), '{"number":"latest","tag":"x"}');
  assert.equal(text(await h.getBlock(9)), 'null');
  assert.equal(text(await h.getBlocks(1, 3)), '[{"number":1},{"number":2},{"number":3}]');
  assert.equal(text(await h.getBlocks(1, 5)), '[{"number":1},{"number":2},{"number":3}]');
  for (const p of [5, 'latest', 9]) await h.getBlock(p);
  await h.getBlocks(1, 3);
  await h.getBlocks(1, 5);
  assert.deepEqual(
    calls,
    [
      ['getBlock', 5],
      ['getBlock', 'latest'],
      ['getBlock', 9],
      ['getBlocks', 1, 3],
      ['getBlocks', 1, 5],
    ],
    'all answered from the caches the second time',
  );
  v.tip += 2; // a block was applied
  for (const p of [5, 'latest', 9]) await h.getBlock(p);
  await h.getBlocks(1, 3);
  await h.getBlocks(1, 5);
  assert.deepEqual(
    calls.slice(5),
    [
      ['getBlock', 'latest'],
      ['getBlock', 9],
      ['getBlocks', 1, 5],
    ],
    'a new tip drops only the tip answers',
  );
  v.history++;
  v.tip += 2;
  await h.getBlock(5);
  await h.getBlocks(1, 3);
  assert.deepEqual(
    calls.slice(8),
    [
      ['getBlock', 5],
      ['getBlocks', 1, 3],
    ],
    'an unwind drops the pinned ones',
  );
  assert.equal(h.getBlockNumber, handlers.getBlockNumber, 'other handlers pass through');
});

test('nothing read while a block is applied or unwound, or across the start of one, is stored', async () => {
  const v = versions();
  let content = 'before';
  let release: (() => void) | undefined;
  let holding = false;
  const handlers = {
    async getBlock(n: unknown) {
      const read = { n, content };
      if (holding) await new Promise<void>((resolve) => (release = resolve));
      return read;
    },
  };
  const caches = answerCachesOver(v);
  const h = withAnswerCache(handlers, caches);
  const text = (r: unknown) => (r as SerializedResult).json;
  assert.equal(text(await h.getBlock(3)), '{"n":3,"content":"before"}');
  v.history++;
  content = 'after';
  assert.equal(text(await h.getBlock(3)), '{"n":3,"content":"after"}', 'the unwind dropped the old answer');
  assert.equal(caches.pinned.size.entries, 1);

  // Starts before a block application, ends during it: answered, not stored.
  holding = true;
  const across = h.getBlock(4) as unknown as Promise<SerializedResult>;
  await new Promise((r) => setImmediate(r));
  v.tip++; // application starts
  release!();
  assert.equal((await across).json, '{"n":4,"content":"after"}');
  // Runs entirely during the application (it may see uncommitted rows): answered, not stored.
  holding = false;
  content = 'uncommitted';
  assert.equal(text(await h.getBlock(4)), '{"n":4,"content":"uncommitted"}');
  assert.equal(text(await h.getBlock('latest')), '{"n":"latest","content":"uncommitted"}');
  assert.deepEqual([caches.pinned.size.entries, caches.tip.size.entries], [1, 0]);
  v.tip++; // the application failed and rolled back
  content = 'after';
  assert.equal(text(await h.getBlock(4)), '{"n":4,"content":"after"}', 'the uncommitted read was not kept');
  assert.equal(caches.pinned.size.entries, 2);
});

test('the byte bound evicts the least recently used answers', async () => {
  const handlers = {
    async getBlock(n: number) {
      return { n, pad: 'x'.repeat(1000) };
    },
  };
  const v = versions();
  const cache = new AnswerCache(() => v.history, 20_000);
  const h = withAnswerCache(handlers, { pinned: cache, tip: new AnswerCache(() => v.tip) });
  for (let n = 1; n <= 10; n++) await h.getBlock(n);
  h.getBlock(1); // recently used again
  for (let n = 11; n <= 20; n++) await h.getBlock(n);
  assert.ok(cache.size.bytes <= 20_000, `${cache.size.bytes} bytes held`);
  assert.ok(cache.size.entries >= 15 && cache.size.entries < 20, `${cache.size.entries} entries`);
  assert.ok(h.getBlock(20) instanceof SerializedResult, 'the newest is kept');
  assert.ok(h.getBlock(1) instanceof SerializedResult, 'a recently used one is kept');
  assert.ok(!(h.getBlock(2) instanceof SerializedResult), 'an old one was evicted');
});

test('through the dispatcher, a cached answer is byte for byte the uncached one, single and batched', async () => {
  const block = { archive: { root: '0x01', nextAvailableLeafIndex: 2 }, note: 'é ✓ "quoted"' };
  const plain = { getBlock: async (n: number) => (n === 1 ? block : null), getBlockNumber: () => 1 };
  const cached = withAnswerCache(plain, answerCachesOver(versions()));
  const d1 = createDispatcher({ methods: publicMethods, handlers: plain, maxBatchSize: 10, logger: silentLogger });
  const d2 = createDispatcher({ methods: publicMethods, handlers: cached, maxBatchSize: 10, logger: silentLogger });
  const batch = [1, 2, 1, 'latest'].map((p, i) => ({ jsonrpc: '2.0', id: i, method: 'node_getBlock', params: [p] }));
  for (let round = 0; round < 2; round++) {
    assert.deepEqual(await d2(batch), await d1(batch));
    assert.deepEqual(await d2(batch[0]), await d1(batch[0]));
  }
});
