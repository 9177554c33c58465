/**
 * What a node's live heap gained between two V8 heap snapshots (issue #21, the soak's live heap):
 * `node bench/rpc/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> [--top 25]`. Every object is
 * grouped by its kind and constructor (strings by kind alone, since their name is their content); the
 * groups that grew most are printed with their count and self size in both, and, for each, which
 * groups hold references to them in the later snapshot (by edge name) — the retainer to look at.
 * A snapshot holds only what survived the full collection V8 runs before writing it, so the diff is
 * live objects, not garbage. bench/rpc/soak-memory.ts --heap-snapshots writes such a pair.
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** The parts of a `.heapsnapshot` file read here (V8's JSON format). */
export interface HeapSnapshot {
  readonly snapshot: {
    readonly meta: {
      readonly node_fields: readonly string[];
      readonly node_types: readonly [readonly string[], ...unknown[]];
      readonly edge_fields: readonly string[];
      readonly edge_types: readonly [readonly string[], ...unknown[]];
    };
  };
  readonly nodes: readonly number[];
  readonly edges: readonly number[];
  readonly strings: readonly string[];
}

/** Count and self size of one group of objects. */
export interface GroupSize {
  count: number;
  bytes: number;
}

/** A snapshot's objects by group, and who references each group (parent group → edge name → count). */
export interface HeapSummary {
  readonly totalBytes: number;
  readonly groups: Map<string, GroupSize>;
  /** For the groups asked for: referencing group and edge name ("Map.table") → number of references. */
  readonly retainers: Map<string, Map<string, number>>;
}

/** Kinds whose node name is content, not a type: grouped by kind alone. */
const CONTENT_NAMED = new Set(['string', 'concatenated string', 'sliced string', 'number', 'bigint', 'regexp']);

/** The group of an object: "kind:name" (e.g. "object:Map", "closure:onData"), or the kind for strings and numbers. */
function groupOf(kind: string, name: string): string {
  if (CONTENT_NAMED.has(kind)) return `(${kind})`;
  if (kind === 'code' || kind === 'hidden' || kind === 'synthetic') return `(${kind}) ${name.slice(0, 40)}`;
  return `${kind}:${name.slice(0, 60)}`;
}

/** Summarizes a snapshot; `retainersOf` names the groups whose referencing groups are counted. */
export function summarizeSnapshot(s: HeapSnapshot, retainersOf: ReadonlySet<string> = new Set()): HeapSummary {
  const nf = s.snapshot.meta.node_fields;
  const ef = s.snapshot.meta.edge_fields;
  const nodeKinds = s.snapshot.meta.node_types[0];
  const edgeKinds = s.snapshot.meta.edge_types[0];
  const width = nf.length;
  const [typeAt, nameAt, sizeAt, edgesAt] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f));
  const edgeWidth = ef.length;
  const [edgeTypeAt, edgeNameAt, toAt] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f));
  const count = s.nodes.length / width;
  const group: string[] = new Array(count);
  const groups = new Map<string, GroupSize>();
  let totalBytes = 0;
  for (let i = 0; i < count; i++) {
    const at = i * width;
    const g = groupOf(nodeKinds[s.nodes[at + typeAt!]!]!, s.strings[s.nodes[at + nameAt!]!]!);
    group[i] = g;
    const size = s.nodes[at + sizeAt!]!;
    totalBytes += size;
    const sum = groups.get(g) ?? { count: 0, bytes: 0 };
    sum.count++;
    sum.bytes += size;
    groups.set(g, sum);
  }
  const retainers = new Map<string, Map<string, number>>();
  if (retainersOf.size > 0) {
    let edge = 0;
    for (let i = 0; i < count; i++) {
      const n = s.nodes[i * width + edgesAt!]!;
      for (let k = 0; k < n; k++, edge += edgeWidth) {
        const to = group[s.edges[edge + toAt!]! / width]!;
        if (!retainersOf.has(to)) continue;
        const kind = edgeKinds[s.edges[edge + edgeTypeAt!]!]!;
        if (kind === 'weak') continue;
        const nameOrIndex = s.edges[edge + edgeNameAt!]!;
        const edgeName = kind === 'element' || kind === 'hidden' ? `[${kind}]` : s.strings[nameOrIndex]!;
        const key = `${group[i]}.${edgeName}`;
        const m = retainers.get(to) ?? new Map<string, number>();
        m.set(key, (m.get(key) ?? 0) + 1);
        retainers.set(to, m);
      }
    }
  }
  return { totalBytes, groups, retainers };
}

/** The groups that grew most between two summaries, by self size gained. */
export function largestGains(
  before: HeapSummary,
  after: HeapSummary,
  top: number,
): { group: string; before: GroupSize; after: GroupSize }[] {
  const none = { count: 0, bytes: 0 };
  return [...after.groups.entries()]
    .map(([group, a]) => ({ group, before: before.groups.get(group) ?? none, after: a }))
    .sort((x, y) => y.after.bytes - y.before.bytes - (x.after.bytes - x.before.bytes))
    .slice(0, top);
}

if (import.meta.main) {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '25' } },
  });
  if (positionals.length !== 2) throw new Error('usage: heap-diff.ts <before.heapsnapshot> <after.heapsnapshot>');
  const top = Number(values.top);
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
  const before = summarizeSnapshot(read(positionals[0]!));
  const afterSnapshot = read(positionals[1]!);
  const firstPass = summarizeSnapshot(afterSnapshot);
  const gains = largestGains(before, firstPass, top);
  const after = summarizeSnapshot(afterSnapshot, new Set(gains.map((g) => g.group)));
  const mb = (b: number) => (b / 2 ** 20).toFixed(2);
  console.log(`live heap ${mb(before.totalBytes)} → ${mb(after.totalBytes)} MB (self sizes summed)`);
  for (const g of gains) {
    const refs = [...(after.retainers.get(g.group) ?? new Map<string, number>()).entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([k, n]) => `${k} ×${n}`)
      .join('; ');
    console.log(
      `${(g.after.bytes - g.before.bytes >= 0 ? '+' : '') + mb(g.after.bytes - g.before.bytes)} MB  ${g.group}: ${g.before.count} → ${g.after.count} objects, ${mb(g.before.bytes)} → ${mb(g.after.bytes)} MB; held by ${refs}`,
    );
  }
}
