/**
 * Null as absent (docs/SDK.md): in an object that only requests carry (reachable from method
 * params, never from a result or an error's data), an optional member given `null` is absent,
 * the way serde- and dataclass-based clients send an unset option. The documents admit that
 * `null` (codegen/shape-documents.ts); the node drops it before handlers (the plans below).
 * @module
 */
type Json = Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';

const refName = (s: unknown): string | undefined => {
  const r = (s as Json | undefined)?.$ref;
  return typeof r === 'string' && r.startsWith(COMPONENT_REF) ? r.slice(COMPONENT_REF.length) : undefined;
};

/** Component names reachable from `roots` through `$ref`s. */
export function reachableComponents(schemas: Readonly<Record<string, Json>>, roots: readonly unknown[]): Set<string> {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const name = refName(node);
    if (name !== undefined) {
      if (seen.has(name)) return;
      seen.add(name);
      visit(schemas[name]);
    }
    for (const v of Object.values(node)) visit(v);
  };
  roots.forEach(visit);
  return seen;
}

/** The object components of `doc` that only requests carry, sorted. */
export function requestOnlyObjects(doc: Json): string[] {
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const methods = (doc.methods ?? []) as Json[];
  const fromParams = reachableComponents(
    schemas,
    methods.flatMap((m) => ((m.params ?? []) as Json[]).map((p) => p.schema)),
  );
  const fromResults = reachableComponents(schemas, [
    ...methods.map((m) => (m.result as Json | undefined)?.schema),
    ...Object.values((doc['x-errors'] ?? {}) as Record<string, Json>).map((e) => e.dataSchema),
  ]);
  return [...fromParams]
    .filter((n) => !fromResults.has(n) && schemas[n]?.type === 'object' && schemas[n]?.properties !== undefined)
    .sort();
}

/** Where null members are dropped inside one param value: members here, and deeper. */
export interface NullPlan {
  readonly drop?: readonly string[];
  readonly props?: Readonly<Record<string, NullPlan>>;
  readonly items?: NullPlan;
}

/** The plan for a value of `schema`, or undefined when nothing inside it is a request-only object. */
export function nullPlan(
  schema: Json,
  schemas: ReadonlyMap<string, Json>,
  requestOnly: ReadonlySet<string>,
  depth = 0,
): NullPlan | undefined {
  if (depth > 8) return undefined;
  const name = refName(schema);
  const s = name !== undefined ? schemas.get(name) : schema;
  if (!s) return undefined;
  if (name !== undefined && Object.keys(schema).length === 1) {
    const inner = nullPlan(s, schemas, requestOnly, depth + 1);
    const drop = requestOnly.has(name) ? optionalMembers(s) : [];
    if (drop.length === 0) return inner;
    return { ...inner, drop };
  }
  const props: Record<string, NullPlan> = {};
  for (const [prop, p] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
    const plan = nullPlan(p, schemas, requestOnly, depth + 1);
    if (plan) props[prop] = plan;
  }
  const items =
    s.items && typeof s.items === 'object' && !Array.isArray(s.items)
      ? nullPlan(s.items as Json, schemas, requestOnly, depth + 1)
      : undefined;
  const plan: { props?: Record<string, NullPlan>; items?: NullPlan } = {};
  if (Object.keys(props).length > 0) plan.props = props;
  if (items) plan.items = items;
  return Object.keys(plan).length > 0 ? plan : undefined;
}

function optionalMembers(s: Json): string[] {
  const required = new Set((s.required ?? []) as string[]);
  return Object.keys((s.properties ?? {}) as Json).filter((k) => !required.has(k));
}
