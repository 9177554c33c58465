/** The bot's pacing on a manual clock: evenly spaced sends, catch-up after lateness, no bursts after a stall, backoff. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Backoff, MAX_CATCH_UP_MS, RateLimiter } from '../../../src/impl/bot/rate-limiter.ts';
import { ManualClock } from '../../../src/impl/chain/time.ts';

/** Sends taken while the clock walks `totalMs` in `stepMs` steps. */
function sendsOver(limiter: RateLimiter, clock: ManualClock, totalMs: number, stepMs: number): number[] {
  const at: number[] = [];
  for (let t = 0; t <= totalMs; t += stepMs) {
    while (limiter.delayMs() === 0) {
      limiter.take();
      at.push(clock.nowMs());
    }
    clock.advance(stepMs);
  }
  return at;
}

describe('RateLimiter', () => {
  it('5 per second: one every 200 ms, the first at once', () => {
    const clock = new ManualClock(1_000);
    const limiter = new RateLimiter(5, clock);
    assert.equal(limiter.delayMs(), 0);
    const at = sendsOver(limiter, clock, 2_000, 10);
    assert.deepEqual(at, [1000, 1200, 1400, 1600, 1800, 2000, 2200, 2400, 2600, 2800, 3000]);
  });

  it('delayMs counts down to the next send', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(2, clock);
    limiter.take();
    assert.equal(limiter.delayMs(), 500);
    clock.advance(300);
    assert.equal(limiter.delayMs(), 200);
  });

  it('after a stall (a slow send) no burst: the next is one interval after now', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(10, clock);
    limiter.take();
    clock.advance(5_000);
    assert.equal(limiter.delayMs(), 0);
    limiter.take();
    assert.equal(limiter.delayMs(), 100, 'one send, not fifty');
  });

  it('a send a little late keeps the schedule: the rate holds despite timer lateness', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(10, clock);
    const at: number[] = [];
    // Each send is taken 30 ms after it was due (under half the 100 ms interval).
    for (let i = 0; i < 10; i++) {
      clock.advance(limiter.delayMs() + 30);
      limiter.take();
      at.push(clock.nowMs());
    }
    assert.deepEqual(at, [30, 130, 230, 330, 430, 530, 630, 730, 830, 930]);
  });

  it('20 per second on an event loop late by 40-80 ms every time: the rate holds (the late sends catch up)', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(20, clock);
    let sent = 0;
    // Each turn of the loop comes 40–80 ms after the last (over half the 50 ms interval each time).
    for (let turn = 0; clock.nowMs() < 10_000; turn++) {
      while (limiter.delayMs() === 0 && clock.nowMs() < 10_000) {
        limiter.take();
        sent++;
      }
      clock.advance(40 + ((turn * 17) % 41));
    }
    assert.ok(sent >= 199 && sent <= 201, `${sent} sends in 10 s, expected 200`);
  });

  it('a stall longer than the catch-up window restarts the schedule: at most the window is sent at once', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(20, clock);
    limiter.take();
    clock.advance(MAX_CATCH_UP_MS + 100);
    let burst = 0;
    while (limiter.delayMs() === 0) {
      limiter.take();
      burst++;
    }
    assert.equal(burst, 1, 'a stall past the window: one send, then the schedule from now');
    // Within the window the due sends follow at once, and no more than it holds.
    clock.advance(50 + MAX_CATCH_UP_MS - 1);
    burst = 0;
    while (limiter.delayMs() === 0) {
      limiter.take();
      burst++;
    }
    assert.equal(burst, Math.floor(MAX_CATCH_UP_MS / 50));
  });

  it('pause holds sends back, never brings them forward', () => {
    const clock = new ManualClock(0);
    const limiter = new RateLimiter(1, clock);
    limiter.take();
    limiter.pause(4_000);
    assert.equal(limiter.delayMs(), 4_000);
    limiter.pause(10);
    assert.equal(limiter.delayMs(), 4_000);
  });

  it('fractional rates and refusals', () => {
    const clock = new ManualClock(0);
    assert.equal(new RateLimiter(0.5, clock).intervalMs, 2_000);
    assert.throws(() => new RateLimiter(0, clock), RangeError);
    assert.throws(() => new RateLimiter(Number.POSITIVE_INFINITY, clock), RangeError);
  });
});

describe('Backoff', () => {
  it('doubles from the initial delay up to the cap, and resets', () => {
    const b = new Backoff(1_000, 30_000);
    assert.equal(b.active, false);
    assert.deepEqual(
      [b.next(), b.next(), b.next(), b.next(), b.next(), b.next(), b.next()],
      [1000, 2000, 4000, 8000, 16000, 30000, 30000],
    );
    assert.equal(b.active, true);
    b.reset();
    assert.equal(b.active, false);
    assert.equal(b.next(), 1000);
  });
});
