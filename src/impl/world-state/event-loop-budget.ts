/**
 * Long computations on the main thread that let the event loop turn (issue #21): block application
 * hashes for tens to hundreds of milliseconds, and JSON-RPC requests arriving meanwhile would wait
 * for all of it. `turn()` yields (one `setImmediate`) once the work has held the loop for `ms` since
 * the last turn, and is a resolved promise otherwise, so callers await it often and cheaply.
 * @module
 */

/**
 * Default longest stretch of work between two turns of the event loop, in milliseconds. 4 rather
 * than 8: on the busy node (bot at 20 txs/s, reads running) the mean stall per built block went
 * 13.9/17.4 → 13.0/12.8 ms and blocks over 20 ms 0/4 → 0/2 of 12–16 (interleaved runs, load 4),
 * with keep-up unchanged (docs/PERFORMANCE-NOTES.md, Reads while building).
 */
export const EVENT_LOOP_SLICE_MS = 4;

/**
 * When a budget last let the event loop turn. Work between two turns can pass through several
 * budgets — a block's trees, then its chain rows, then the pool's part of the same transaction, each
 * with its own — and is one stretch for the event loop, so a new budget counts from here rather than
 * from its creation (measured: 12–16 ms between turns with 8 ms budgets, issue #21). A budget made
 * long after the last turn turns at its first `turn()`: one early yield at worst.
 */
let lastTurnAt = performance.now();

/** Tracks how long the current stretch of work has held the event loop. */
export class EventLoopBudget {
  readonly #sliceMs: number;
  #since = lastTurnAt;

  constructor(sliceMs = EVENT_LOOP_SLICE_MS) {
    this.#sliceMs = sliceMs;
  }

  /** Lets the event loop turn if this stretch has run for the slice; resolves at once otherwise. */
  async turn(): Promise<void> {
    if (performance.now() - this.#since < this.#sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#since = lastTurnAt = performance.now();
  }
}
