/** src/impl/chain/burst-memory.ts: the memory-reducing collection runs in bursts only, once per stretch. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BurstMemoryRelief, type ReducingGc } from '../../../src/impl/chain/burst-memory.ts';

function relief(o: { reliefMs?: number; gapMs?: number; gcMs?: number } = {}) {
  let now = 0;
  const calls: Parameters<ReducingGc>[0][] = [];
  const r = new BurstMemoryRelief({
    gc: (options) => {
      calls.push(options);
      now += o.gcMs ?? 0;
    },
    now: () => now,
    reliefMs: o.reliefMs ?? 5000,
    gapMs: o.gapMs ?? 1000,
  });
  /** `n` block applications `ms` apart. */
  const blocks = (n: number, ms: number) => {
    for (let i = 0; i < n; i++) {
      now += ms;
      r.blockApplied();
    }
  };
  return { r, calls, blocks, advance: (ms: number) => void (now += ms) };
}

test('blocks applied back to back: one memory-reducing collection per 5 s of burst', () => {
  const { r, calls, advance } = relief({ gcMs: 80 });
  let ran = 0;
  for (let i = 0; i < 1200; i++) {
    advance(10); // 100 blocks/s for 12 s
    if (r.blockApplied()) ran++;
  }
  assert.equal(ran, 2);
  assert.equal(r.reliefs, 2);
  assert.deepEqual(calls[0], { type: 'major', execution: 'sync', flavor: 'last-resort' });
});

test('blocks applied further apart than the gap are no burst: never a forced collection', () => {
  const { r, calls, advance } = relief();
  for (let i = 0; i < 100; i++) {
    advance(1500);
    assert.equal(r.blockApplied(), false);
  }
  assert.equal(calls.length, 0);
});

test('a pause ends the burst: the next one counts its time from its own start', () => {
  const { calls, blocks, advance } = relief();
  blocks(40, 100); // 4 s
  advance(2000);
  blocks(40, 100); // 4 s more, after the pause
  assert.equal(calls.length, 0);
  blocks(11, 100);
  assert.equal(calls.length, 1);
});

test('without an exposed gc nothing runs', () => {
  const r = new BurstMemoryRelief({ gc: undefined, now: () => 0, reliefMs: 0 });
  assert.equal(r.blockApplied(), false);
  assert.equal(r.reliefs, 0);
});
