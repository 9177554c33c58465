/**
 * The soak's shape, shared by the full run (bench/rpc/rpc-bench.ts) and the standalone soak
 * (bench/rpc/soak-memory.ts): the node's bot, the warm-up left out, and the windows compared.
 * @module
 */

/** The soak node's bot: real-format txs through its own dispatch, as issue #21's soak. */
export const SOAK_BOT_TXS_PER_SECOND = 5;
export const SOAK_BOT_ARGS = ['--bot.enabled', '--bot.txsPerSecond', String(SOAK_BOT_TXS_PER_SECOND)];

/** A span of the soak, [from, to) in ms from its start. */
export type Span = readonly [number, number];

/**
 * The windows of a soak of `soakMs`: the first 5 % (at least 10 s) warms the heap and is not compared;
 * of the rest, the first 10 %, issue #21's 30–40 % window (once caches have filled) and the last 10 %.
 */
export function soakWindows(soakMs: number): {
  warmMs: number;
  first: Span;
  mid: Span;
  last: Span;
} {
  const warmMs = Math.max(10_000, soakMs * 0.05);
  const windowMs = (soakMs - warmMs) * 0.1;
  return {
    warmMs,
    first: [warmMs, warmMs + windowMs],
    mid: [warmMs + windowMs * 3, warmMs + windowMs * 4],
    last: [soakMs - windowMs, Number.POSITIVE_INFINITY],
  };
}
