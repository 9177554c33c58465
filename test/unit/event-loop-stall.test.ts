/**
 * The event-loop stall probe (src/impl/event-loop-stall.ts) reads the longest stretch the loop was
 * held during the probe, and nothing after it stopped.
 * @module
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { probeEventLoopStalls } from '../../src/impl/event-loop-stall.ts';

const holdLoop = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
const turn = () => new Promise((resolve) => setTimeout(resolve, 2));

test('the longest stall during the probe, not the sum of them', async () => {
  const probe = probeEventLoopStalls();
  for (let i = 0; i < 5; i++) {
    await turn();
    holdLoop(40);
  }
  await turn();
  const longest = probe.stop();
  assert.ok(longest >= 38, `longest ${longest} ms`);
  // Five stalls of at least 40 ms add up to 200 ms or more; one of them, even stretched by a busy
  // machine descheduling this process, stays well below that.
  assert.ok(longest < 200, `longest ${longest} ms is one stall, not their sum`);
});

test('a stall after stop() is not counted', async () => {
  const probe = probeEventLoopStalls();
  await turn();
  const first = probe.stop();
  holdLoop(50);
  await turn();
  assert.equal(probe.stop(), first);
});
