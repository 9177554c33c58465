/**
 * The metric families the node exports, docs/OPERATIONS.md "Metrics" and docs/grafana-dashboard.json
 * agree: every l2node_ family is documented and charted, and every metric the dashboard queries
 * exists (histograms through their _bucket/_sum/_count series).
 * @module
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { it } from 'node:test';
import { NodeMetrics } from '../../../src/impl/metrics/node-metrics.ts';

const families = async () => {
  const metrics = new NodeMetrics({ dataDirectory: '' });
  const all = await metrics.registry.getMetricsAsJSON();
  return new Map(all.map((m) => [m.name, String(m.type)]));
};

it('every l2node_ family is in docs/OPERATIONS.md and on the dashboard', async () => {
  const doc = await readFile(new URL('../../../docs/OPERATIONS.md', import.meta.url), 'utf8');
  const dashboard = await readFile(new URL('../../../docs/grafana-dashboard.json', import.meta.url), 'utf8');
  const names = [...(await families()).keys()].filter((n) => n.startsWith('l2node_'));
  assert.ok(names.length >= 35, names.join());
  for (const name of names) {
    assert.ok(doc.includes(`| \`${name}\` |`), `${name} has a row in the metrics table of docs/OPERATIONS.md`);
    assert.ok(dashboard.includes(name), `${name} is charted in docs/grafana-dashboard.json`);
  }
});

it('the dashboard queries only metrics the node exports', async () => {
  const exported = await families();
  const dashboard = JSON.parse(
    await readFile(new URL('../../../docs/grafana-dashboard.json', import.meta.url), 'utf8'),
  ) as { panels: { title: string; targets?: { expr: string }[] }[] };
  const queried = new Set<string>();
  for (const panel of dashboard.panels)
    for (const t of panel.targets ?? [])
      for (const m of t.expr.matchAll(/\b(l2node_|process_|nodejs_)[a-z0-9_]+/g)) queried.add(m[0]);
  assert.ok(queried.size >= 30);
  for (const name of queried) {
    const base = name.replace(/_(bucket|sum|count)$/, '');
    const ok = exported.has(name) || (exported.get(base) === 'histogram' && base !== name);
    assert.ok(ok, `${name} (dashboard) is exported by the node`);
  }
});
