/**
 * What a node's live heap gained between two V8 heap snapshots (issue #21, the soak's live heap):
 * `node bench/rpc/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot> [--top 25]`. Every object is
 * grouped by its kind and constructor (strings by kind alone, since their name is their content); the
 * groups that grew most are printed with their count and self size in both, and, for each, which
 * groups hold references to them in the later snapshot (by edge name); then the objects the later
 * snapshot has and the earlier did not, by the class instance that owns them (newObjectsByOwner).
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

/** Where a snapshot's flat arrays keep each field (V8 describes its own layout in `meta`). */
function layoutOf(s: HeapSnapshot) {
  const nf = s.snapshot.meta.node_fields;
  const ef = s.snapshot.meta.edge_fields;
  const width = nf.length;
  const edgeWidth = ef.length;
  const [typeAt, nameAt, idAt, sizeAt, edgesAt] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) =>
    nf.indexOf(f),
  ) as [number, number, number, number, number];
  const [edgeTypeAt, edgeNameAt, toAt] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const nodeKinds = s.snapshot.meta.node_types[0];
  const edgeKinds = s.snapshot.meta.edge_types[0];
  return {
    width,
    edgeWidth,
    count: s.nodes.length / width,
    idAt,
    sizeAt,
    edgesAt,
    toAt,
    /** The group of node i. */
    groupAt: (i: number) => groupOf(nodeKinds[s.nodes[i * width + typeAt]!]!, s.strings[s.nodes[i * width + nameAt]!]!),
    /** The kind of the edge starting at flat index e. */
    edgeKindAt: (e: number) => edgeKinds[s.edges[e + edgeTypeAt]!]!,
    /** The edge's property name, or "[element]" / "[hidden]" for index-named edges. */
    edgeNameAt: (e: number, kind: string) =>
      kind === 'element' || kind === 'hidden' ? `[${kind}]` : s.strings[s.edges[e + edgeNameAt]!]!,
  };
}

/** Summarizes a snapshot; `retainersOf` names the groups whose referencing groups are counted. */
export function summarizeSnapshot(s: HeapSnapshot, retainersOf: ReadonlySet<string> = new Set()): HeapSummary {
  const { width, edgeWidth, count, sizeAt, edgesAt, toAt, groupAt, edgeKindAt, edgeNameAt } = layoutOf(s);
  const group: string[] = new Array(count);
  const groups = new Map<string, GroupSize>();
  let totalBytes = 0;
  for (let i = 0; i < count; i++) {
    const g = groupAt(i);
    group[i] = g;
    const size = s.nodes[i * width + sizeAt]!;
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
      const n = s.nodes[i * width + edgesAt]!;
      for (let k = 0; k < n; k++, edge += edgeWidth) {
        const to = group[s.edges[edge + toAt]! / width]!;
        if (!retainersOf.has(to)) continue;
        const kind = edgeKindAt(edge);
        if (kind === 'weak') continue;
        const key = `${group[i]}.${edgeNameAt(edge, kind)}`;
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

/** Containers followed through when looking for the object that owns a new one. */
const CONTAINERS = new Set(['object:Object', 'object:Array', 'object:Map', 'object:Set', 'object:system / Context']);

/**
 * The objects of `after` that `before` did not have (V8 keeps an object's id across the snapshots
 * of one process), by owner: following each one's first strong referrer up to the first object that
 * is not a plain container (Object, Array, Map, Set, a closure context), keyed by that owner and the
 * property it holds the chain by, e.g. "object:ChainStore.#blockCache". Largest first; objects with
 * no such owner within 40 steps are keyed by the last group reached.
 */
export function newObjectsByOwner(
  before: HeapSnapshot,
  after: HeapSnapshot,
): { owner: string; objects: number; bytes: number }[] {
  const { width, edgeWidth, count, idAt, sizeAt, edgesAt, toAt, groupAt, edgeKindAt, edgeNameAt } = layoutOf(after);
  const was = layoutOf(before);
  const known = new Set<number>();
  for (let i = 0; i < was.count; i++) known.add(before.nodes[i * was.width + was.idAt]!);
  // Each node's first strong referrer and the edge's name.
  const parent = new Int32Array(count).fill(-1);
  const via: string[] = new Array(count);
  let edge = 0;
  for (let i = 0; i < count; i++) {
    const n = after.nodes[i * width + edgesAt]!;
    for (let k = 0; k < n; k++, edge += edgeWidth) {
      const kind = edgeKindAt(edge);
      if (kind === 'weak' || kind === 'shortcut') continue;
      const to = after.edges[edge + toAt]! / width;
      if (parent[to] !== -1) continue;
      parent[to] = i;
      via[to] = edgeNameAt(edge, kind);
    }
  }
  const owners = new Map<string, { objects: number; bytes: number }>();
  for (let i = 0; i < count; i++) {
    if (known.has(after.nodes[i * width + idAt]!)) continue;
    let at = i;
    let key = groupAt(i);
    for (let step = 0; step < 40 && parent[at] !== -1; step++) {
      const up = parent[at]!;
      const g = groupAt(up);
      key = `${g}.${via[at]}`;
      at = up;
      if (g.startsWith('object:') && !CONTAINERS.has(g)) break;
    }
    const o = owners.get(key) ?? { objects: 0, bytes: 0 };
    o.objects++;
    o.bytes += after.nodes[i * width + sizeAt]!;
    owners.set(key, o);
  }
  return [...owners.entries()].map(([owner, o]) => ({ owner, ...o })).sort((a, b) => b.bytes - a.bytes);
}

if (import.meta.main) {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '25' } },
  });
  if (positionals.length !== 2) throw new Error('usage: heap-diff.ts <before.heapsnapshot> <after.heapsnapshot>');
  const top = Number(values.top);
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
  const beforeSnapshot = read(positionals[0]!);
  const before = summarizeSnapshot(beforeSnapshot);
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
  console.log('new objects by owner (first strong referrers up to the first object that is not a plain container):');
  for (const o of newObjectsByOwner(beforeSnapshot, afterSnapshot).slice(0, top))
    console.log(`${mb(o.bytes)} MB  ${o.objects} objects  ${o.owner}`);
}
