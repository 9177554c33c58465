/**
 * Why a cheap-call throughput figure can still fall below 0.80× of the bare server after issue #12
 * (measured evidence and method in bench/rpc/THROUGHPUT-NOTES.md). rpc-bench.ts attaches it to the
 * two cheap-call figures; the report shows it only next to a missed goal.
 * @module
 */

/** One line: where the node's extra time per cheap request goes and why the ratio moves between runs. */
export const CHEAP_CALL_THROUGHPUT_CAUSE =
  'the node spends ~1.2× the bare server\'s CPU per cheap request (≈31 vs ≈26 µs single, ≈37 vs ≈30 µs per 10-call batch, /proc, same run); ' +
  'the extra ≈5 µs is mostly kernel work of answering a load client that had gone to sleep (wake-up and context switch after each writev, ≈2.5 µs in perf) ' +
  'plus the handler contract\'s promise and the JSON-RPC envelope; with 2 cores shared by the load client and other work, load average > 4 swings the ratio by ±0.15 between runs ' +
  '(bench/rpc/THROUGHPUT-NOTES.md)';
