/**
 * Pacing of the bot: an evenly spaced schedule at a rate (sends a little late keep the schedule and
 * catch up, a stall does not turn into a burst) and an exponential backoff for while the node
 * refuses (a full pool, an unreachable node).
 * Both read time from a `Clock`, so tests drive them by hand.
 * @module
 */
import type { Clock } from '../chain/time.ts';

/**
 * How far behind its schedule the bot may fall and still catch up (sending the sends that came due
 * meanwhile back to back). On a node whose event loop is busy serving reads, timers and sends run
 * tens of ms late again and again; at 20 txs/s (one send per 50 ms) restarting the schedule at every
 * such delay lost a sixth of the rate (16.7 of 20 txs/s admitted in a full bench run, issue #21).
 * A longer stall still restarts the schedule: at most this much is ever sent in a burst.
 */
export const MAX_CATCH_UP_MS = 500;

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
   * Takes the due send: the next one is one interval after this one's slot. A send taken late by up
   * to `MAX_CATCH_UP_MS` (or half an interval, when that is longer: timer granularity, a busy event
   * loop) keeps the schedule, so the sends that came due meanwhile follow at once and such delays do
   * not lower the rate; one later than that (a stall) restarts the schedule from now, so a stall
   * never becomes a burst of more than the catch-up window.
   */
  take(): void {
    const now = this.#clock.nowMs();
    const keep = now - this.#nextMs <= Math.max(this.intervalMs / 2, MAX_CATCH_UP_MS);
    this.#nextMs = keep ? this.#nextMs + this.intervalMs : now + this.intervalMs;
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
