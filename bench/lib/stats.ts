/**
 * Pure statistics for the bench runner: medians, percentiles and ratios. No I/O.
 * @module
 */

/** Median of `xs` (mean of the two middle values for an even count); NaN when empty. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Nearest-rank percentile (`p` in 0..100) of values already sorted ascending; NaN when empty.
 * p99 of 1000 samples is the 990th smallest.
 */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  if (p <= 0) return sorted[0]!;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

/** Nearest-rank percentile of unsorted values. */
export function percentile(xs: readonly number[], p: number): number {
  return percentileSorted(
    [...xs].sort((a, b) => a - b),
    p,
  );
}

/** `value / baseline`; NaN when either is missing, not finite, or the baseline is 0. */
export function ratio(value: number | undefined, baseline: number | undefined): number {
  if (value === undefined || baseline === undefined) return Number.NaN;
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return Number.NaN;
  return value / baseline;
}

/** Least-squares slope of y over x (units of y per unit of x); NaN with fewer than two distinct x. */
export function slope(points: readonly { readonly x: number; readonly y: number }[]): number {
  if (points.length < 2) return Number.NaN;
  const mx = points.reduce((a, p) => a + p.x, 0) / points.length;
  const my = points.reduce((a, p) => a + p.y, 0) / points.length;
  const cov = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const vx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return vx === 0 ? Number.NaN : cov / vx;
}

/**
 * The shape of a resident-set series (`t` in ms, `rss` in bytes) over [from, to): its median per
 * minute, and its floor (lowest sample) over the third and the last quarter of the span. A process
 * whose set swings with its garbage collector (heap filling between full collections, V8's memory
 * reducer giving pages back) keeps its floor; a leak raises it, because what leaks survives every
 * collection. A least-squares trend cannot tell them apart: fitted across a drop, it reads regrowth.
 */
export function residentShape(
  samples: readonly { readonly t: number; readonly rss: number }[],
  from: number,
  to: number,
): { perMinute: number[]; floorBefore: number; floorLast: number } {
  const inSpan = samples.filter((x) => x.t >= from && x.t < to);
  const perMinute: number[] = [];
  for (let m = from; m < to; m += 60_000) {
    const minute = inSpan.filter((x) => x.t >= m && x.t < m + 60_000).map((x) => x.rss);
    if (minute.length > 0) perMinute.push(median(minute));
  }
  const quarter = (to - from) / 4;
  const floor = (a: number, b: number) =>
    Math.min(...inSpan.filter((x) => x.t >= a && x.t < b).map((x) => x.rss), Number.POSITIVE_INFINITY);
  return {
    perMinute,
    floorBefore: floor(from + 2 * quarter, from + 3 * quarter),
    floorLast: floor(from + 3 * quarter, to),
  };
}
