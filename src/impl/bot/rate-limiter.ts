/**
 * Pacing of the bot: an evenly spaced schedule at a rate (no bursts, no catching up after a slow
 * send; sends a little late keep the schedule) and an exponential backoff for while the node refuses (a full pool, an unreachable node).
 * Both read time from a `Clock`, so tests drive them by hand.
 * @module
 */
import type { Clock } from '../chain/time.ts';

/** Sends at most `perSecond` times a second, one interval apart. */
export class RateLimiter {
  readonly intervalMs: number;
  readonly #clock: Clock;
  #nextMs: number;

  constructor(perSecond: number, clock: Clock) {
    if (!(perSecond > 0) || !Number.isFinite(perSecond))
      throw new RangeError(`rate must be a positive number, got ${perSecond}`);
    this.intervalMs = 1000 / perSecond;
    this.#clock = clock;
    this.#nextMs = clock.nowMs();
  }

  /** Milliseconds until the next send is due; 0 when it is due now. */
  delayMs(): number {
    return Math.max(0, this.#nextMs - this.#clock.nowMs());
  }

  /**
   * Takes the due send: the next one is one interval after this one's slot. A send taken a little
   * late (up to half an interval: timer granularity, a busy event loop) keeps the schedule, so such
   * delays do not lower the rate; one later than that (a slow send, a stall) restarts the schedule
   * from now, so there is no burst to catch up.
   */
  take(): void {
    const now = this.#clock.nowMs();
    this.#nextMs = now - this.#nextMs <= this.intervalMs / 2 ? this.#nextMs + this.intervalMs : now + this.intervalMs;
  }

  /** Nothing is due before `ms` from now. */
  pause(ms: number): void {
    this.#nextMs = Math.max(this.#nextMs, this.#clock.nowMs() + ms);
  }
}

/** Doubling delays from `initialMs` up to `maxMs`; `reset()` after a success. */
export class Backoff {
  readonly initialMs: number;
  readonly maxMs: number;
  #failures = 0;

  constructor(initialMs: number, maxMs: number) {
    this.initialMs = initialMs;
    this.maxMs = maxMs;
  }

  /** True while backing off (a failure since the last reset). */
  get active(): boolean {
    return this.#failures > 0;
  }

  /** The delay after one more failure. */
  next(): number {
    return Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.#failures++, 30));
  }

  reset(): void {
    this.#failures = 0;
  }
}
