/** src/impl/chain/burst-memory.ts: the memory-reducing collection runs in bursts only, when the set has grown. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BurstMemoryRelief, type ReducingGc } from '../../../src/impl/chain/burst-memory.ts';

const MB = 1024 * 1024;

/** A relief over a fake clock and resident set; `gc` brings the set back to `afterGc` MB. */
function relief(o: { afterGc?: number } = {}) {
  let now = 0;
  let rss = 100 * MB;
  const calls: Parameters<ReducingGc>[0][] = [];
  const r = new BurstMemoryRelief({
    gc: (options) => {
      calls.push(options);
      rss = (o.afterGc ?? 100) * MB;
      now += 50;
    },
    now: () => now,
    rss: () => rss,
    growth: 1.3,
    minIntervalMs: 1000,
    gapMs: 1000,
  });
  /** `n` block applications `ms` apart, the set growing `mbEach` MB with each. */
  const blocks = (n: number, ms: number, mbEach: number) => {
    let ran = 0;
    for (let i = 0; i < n; i++) {
      now += ms;
      rss += mbEach * MB;
      if (r.blockApplied()) ran++;
    }
    return ran;
  };
  return { r, calls, blocks, advance: (ms: number) => void (now += ms), setRss: (mb: number) => void (rss = mb * MB) };
}

test('a burst whose set grows 30 % over its start runs one memory-reducing collection, and again after regrowth', () => {
  const { r, calls, blocks } = relief();
  // 100 blocks/s, +0.1 MB each: 1.3 × the start after ~300 blocks.
  assert.equal(blocks(295, 10, 0.1), 0);
  assert.equal(blocks(10, 10, 0.1), 1);
  assert.deepEqual(calls[0], { type: 'major', execution: 'sync', flavor: 'last-resort' });
  // Back at 100 MB: the next one needs another 30 MB of growth.
  assert.equal(blocks(290, 10, 0.1), 0);
  assert.equal(blocks(20, 10, 0.1), 1);
  assert.equal(r.reliefs, 2);
});

test('a burst whose set does not grow never pays for a collection', () => {
  const { calls, blocks } = relief();
  blocks(5000, 10, 0);
  assert.equal(calls.length, 0);
});

test('blocks applied further apart than the gap are no burst, however the set grows', () => {
  const { calls, blocks } = relief();
  assert.equal(blocks(100, 1500, 5), 0);
  assert.equal(calls.length, 0);
});

test('at most one collection per interval, even when it cannot bring the set down', () => {
  // The collection leaves 200 MB: more than 1.3 × the burst's start.
  const { calls, blocks } = relief({ afterGc: 200 });
  blocks(400, 10, 0.1); // 4 s
  assert.equal(calls.length, 1, 'the next is measured from what the collection left');
  blocks(1000, 10, 1); // 10 s, +100 MB/s: due as often as allowed
  assert.ok(calls.length <= 1 + 10, `${calls.length} collections in 10 s`);
});

test('a pause starts a new burst measured from the set at that time', () => {
  const { calls, blocks, advance, setRss } = relief();
  blocks(200, 10, 0.1); // 120 MB
  advance(2000);
  setRss(125);
  blocks(300, 10, 0.1); // up to 155 MB: below 1.3 × 125
  assert.equal(calls.length, 0);
  blocks(80, 10, 0.1); // 163 MB
  assert.equal(calls.length, 1);
});

test('without an exposed gc nothing runs', () => {
  const r = new BurstMemoryRelief({ gc: undefined, now: () => 0, rss: () => 10 ** 12 });
  assert.equal(r.blockApplied(), false);
  assert.equal(r.reliefs, 0);
});
