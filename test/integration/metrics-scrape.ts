/**
 * Scrapes a node's metrics listener over HTTP and parses the exposition text with a Prometheus
 * text-format parser (prom2javascript, not the node's own code), into families by name.
 * @module
 */
import assert from 'node:assert/strict';
import { getMetricsFromIterator } from 'prom2javascript';
import type { PromHistogramData, PromMetric } from 'prom2javascript';
import type { NodeProcess } from './server-process-harness.ts';

/** One sample: a value for counters and gauges; buckets, count and sum for histograms. */
export interface Sample {
  readonly labels: Record<string, string>;
  readonly value?: number;
  readonly buckets?: Record<string, number>;
  readonly count?: number;
  readonly sum?: number;
}

/** One metric family: type ('counter', 'gauge', 'histogram', …), help and samples. */
export interface Family {
  readonly type: string;
  readonly help: string;
  readonly samples: readonly Sample[];
}

/** GET /metrics, checked for status and content type, parsed. */
export async function scrape(url: string): Promise<Map<string, Family>> {
  const res = await fetch(`${url}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const parsed = await getMetricsFromIterator((await res.text()).split('\n')[Symbol.iterator]());
  return new Map(
    Object.entries(parsed).map(([name, m]: [string, PromMetric]) => [
      name,
      { type: m.type, help: m.help, samples: m.data as readonly (Sample | PromHistogramData)[] as readonly Sample[] },
    ]),
  );
}

/** The family `name` (it must exist). */
export function family(families: Map<string, Family>, name: string): Family {
  const f = families.get(name);
  assert.ok(f !== undefined, `metric family ${name} is exported`);
  return f;
}

/** The sample of `name` whose labels include `labels`, if any. */
export function sample(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): Sample | undefined {
  return family(families, name).samples.find((m) => Object.entries(labels).every(([k, v]) => m.labels[k] === v));
}

/** The value (a histogram's count) of the sample of `name` whose labels include `labels`; 0 when absent. */
export function value(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const s = sample(families, name, labels);
  return s === undefined ? 0 : (s.value ?? s.count ?? 0);
}

/** The metrics URL a node logged ("metrics listening"); waits for the line. */
export async function metricsUrl(node: NodeProcess): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const line = node
      .stderr()
      .split('\n')
      .find((l) => l.includes('"msg":"metrics listening"'));
    if (line !== undefined) return `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no "metrics listening" line:\n${node.stderr()}`);
}
