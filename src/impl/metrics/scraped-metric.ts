/**
 * Metrics kept in plain numbers on the hot path and handed to a prom-client registry only when it
 * is scraped: an object with `name` and `get()` is what the registry formats (the same shape its
 * own Counter, Gauge and Histogram return), so the exposition text stays prom-client's.
 * @module
 */
import type { Registry } from 'prom-client';

/** One line of a family: labels, value, and for histogram parts the suffixed name. */
export interface MetricValue {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName?: string;
}

/** Registers a family whose values `read` computes at each scrape. */
export function registerScraped(
  registry: Registry,
  name: string,
  type: 'counter' | 'gauge' | 'histogram',
  help: string,
  read: () => MetricValue[],
): void {
  // Structurally a prom-client metric: the registry calls get() and formats what it returns.
  const metric = {
    name,
    help,
    type,
    get: async () => ({ name, help, type, values: read(), aggregator: 'sum' as const }),
  };
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
}

/** A counter's line. */
export function counterValues(labels: Record<string, string>, value: number): MetricValue[] {
  return [{ labels, value }];
}

/** Observations sorted into fixed buckets (upper bounds, inclusive), with their sum and count. */
export class HistogramData {
  readonly bounds: readonly number[];
  /** Observations per bucket (not cumulative); the last slot holds those above every bound. */
  readonly #counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(bounds: readonly number[]) {
    this.bounds = bounds;
    this.#counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.#counts[i] = this.#counts[i]! + 1;
    this.sum += value;
    this.count++;
  }

  /** Cumulative counts per bound, then +Inf (= count). */
  cumulative(): number[] {
    const out: number[] = [];
    let total = 0;
    for (let i = 0; i < this.bounds.length; i++) out.push((total += this.#counts[i]!));
    out.push(this.count);
    return out;
  }
}

/** A histogram's lines: `_bucket` per bound and +Inf, `_sum`, `_count`. */
export function histogramValues(name: string, labels: Record<string, string>, data: HistogramData): MetricValue[] {
  const cumulative = data.cumulative();
  return [
    ...data.bounds.map((le, i) => ({ labels: { ...labels, le }, value: cumulative[i]!, metricName: `${name}_bucket` })),
    { labels: { ...labels, le: '+Inf' }, value: data.count, metricName: `${name}_bucket` },
    { labels, value: data.sum, metricName: `${name}_sum` },
    { labels, value: data.count, metricName: `${name}_count` },
  ];
}
