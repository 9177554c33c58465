/**
 * The longest event-loop stall during a stretch of work (issue #21: "no event-loop stall over 20 ms
 * during block application"): the longest a JSON-RPC request arriving meanwhile would have waited
 * for its turn. Read from `perf_hooks.monitorEventLoopDelay` (a libuv timer every millisecond while
 * the probe is on, its lateness recorded natively), so the work itself is not touched.
 * @module
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** A running probe; `stop()` ends it and gives the longest stall seen, in milliseconds. */
export interface EventLoopStallProbe {
  stop(): number;
}

/** Starts measuring event-loop stalls now. */
export function probeEventLoopStalls(): EventLoopStallProbe {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  return {
    stop(): number {
      h.disable();
      // No sample (the work never let the timer fire) reads as 0; the histogram's max is in ns.
      return h.count === 0 ? 0 : h.max / 1e6;
    },
  };
}
