/**
 * The engine's block application drives the burst memory relief (src/impl/chain/burst-memory.ts): empty
 * blocks built back to back on a manual clock run V8's memory-reducing collection through the exposed
 * `gc` — here a recording stand-in — once the process's resident set has grown 30 % during the burst
 * (the test holds 1 MB per block so it grows whatever V8 does).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { createEngine, DEFAULT_ENGINE_CONFIG } from '../../src/impl/engine.ts';

test('blocks built back to back run the memory-reducing collection', async () => {
  const calls: unknown[] = [];
  const saved = globalThis.gc;
  globalThis.gc = ((options?: unknown) => void calls.push(options)) as typeof globalThis.gc;
  try {
    const clock = new ManualClock(Number(DEFAULT_ENGINE_CONFIG.genesisTime) * 1000);
    const engine = await createEngine({ dataDirectory: '', clock, buildEmptyBlocks: true });
    try {
      const slotMs = engine.config.slotDurationSeconds * 1000;
      // A burst: no pause between blocks, until the relief has run (the test's timeout bounds it).
      const held: Buffer[] = [];
      while (calls.length === 0) {
        held.push(Buffer.alloc(1024 * 1024, 1));
        clock.advance(slotMs);
        await engine.tick();
      }
      assert.ok(held.length > 1);
      assert.deepEqual(calls[0], { type: 'major', execution: 'sync', flavor: 'last-resort' });
      assert.ok((await engine.chain.getBlockNumber()) > 1);
    } finally {
      await engine.stop();
    }
  } finally {
    globalThis.gc = saved;
  }
});
