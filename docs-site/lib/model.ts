/**
 * Reads openrpc.public.json, openrpc.admin.json and openrpc.dev.json into one model the pages render from:
 * methods with resolved params, results, errors and examples; types; the error catalogue.
 * @module
 */
import { readFileSync } from 'node:fs';
import { resolvePointer } from '../assets/schema-check.js';
import { cleanDocumentTexts } from './citations.ts';

export type Surface = 'public' | 'admin' | 'dev';
/** Every document the site renders, in navigation order. `dev_*` methods live on the admin port. */
export const SURFACES: readonly Surface[] = ['public', 'admin', 'dev'];
/** Surfaces served on the admin port, behind the API key. */
export const needsApiKey = (s: Surface) => s !== 'public';
export type Schema = Record<string, any> | boolean;
export type OpenRpcDocument = Record<string, any>;

/** One positional parameter of a method. */
export interface ParamModel {
  name: string;
  required: boolean;
  summary: string;
  description: string;
  schema: Schema;
  deprecated: boolean;
}

/** One example pairing: the params sent and the result returned. */
export interface ExampleModel {
  name: string;
  summary: string;
  params: unknown[];
  result: unknown;
  hasResult: boolean;
}

/** One `x-error-examples` entry: params that make the method fail, and the error. */
export interface ErrorExampleModel {
  name: string;
  summary: string;
  params: unknown[];
  error: { code: number; message: string; data?: unknown };
}

/** One method of either document. */
export interface MethodModel {
  surface: Surface;
  name: string;
  handler: string;
  tag: string;
  summary: string;
  description: string;
  params: ParamModel[];
  result: { name: string; description: string; schema: Schema } | null;
  errorKeys: string[];
  examples: ExampleModel[];
  errorExamples: ErrorExampleModel[];
  deprecated: boolean;
  extension: string | null;
}

/** One `components/errors` entry, merged across both documents. */
export interface ErrorModel {
  key: string;
  code: number;
  message: string;
  description: string;
  dataSchema: Schema | null;
  surface: Surface;
  methods: string[];
}

/** One `components/schemas` entry; `slug` names its page (admin-only clashes get a prefix). */
export interface TypeModel {
  name: string;
  slug: string;
  surface: Surface;
  schema: Schema;
  usedBy: string[];
  /** For a component that only gives another one a description (`{ title, description, allOf: [{ $ref }] }`): the one it wraps. It has no page of its own. */
  aliasOf?: string;
  /** A scalar referred to from one place only (a field's own limits, named after it): shown inline there, without a page. */
  inline?: boolean;
}

/** Everything the site renders. */
export interface SiteModel {
  docs: Record<Surface, OpenRpcDocument>;
  methods: MethodModel[];
  errors: ErrorModel[];
  types: TypeModel[];
  version: string;
  warnings: string[];
}

/** The domain order of the navigation (ARCHITECTURE.md: one tag per method). */
export const TAG_ORDER = [
  'blocks',
  'transactions',
  'state',
  'trees',
  'messages',
  'logs',
  'contracts',
  'node-info',
  'validators',
  'debug',
  'admin',
  'dev',
];

/** JSON-RPC 2.0's own errors, used when a document does not declare them. */
export const STANDARD_ERRORS: Record<string, { code: number; message: string; description: string }> = {
  PARSE_ERROR: { code: -32700, message: 'Parse error', description: 'The request body is not valid JSON.' },
  INVALID_REQUEST: {
    code: -32600,
    message: 'Invalid Request',
    description: 'The body is JSON but not a JSON-RPC 2.0 request object.',
  },
  METHOD_NOT_FOUND: {
    code: -32601,
    message: 'Method not found',
    description: 'No method of this name on this port (admin methods live on the admin port).',
  },
  INVALID_PARAMS: {
    code: -32602,
    message: 'Invalid params',
    description: 'A parameter does not match its schema; the message names the parameter and the rule.',
  },
  INTERNAL_ERROR: {
    code: -32603,
    message: 'Internal error',
    description: 'The node failed unexpectedly; details are in its log, not on the wire.',
  },
};

/** Reads a document, or an empty one (with a warning) while it is missing or half-written. */
export function readDocument(path: string, warnings: string[]): OpenRpcDocument {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    warnings.push(`${path}: ${(err as Error).message.split('\n')[0]} — rendering without it`);
    return emptyDocument();
  }
}

/** Follows `$ref`s (local pointers) until a plain object is reached. */
export function deref<T = any>(doc: OpenRpcDocument, value: any): T {
  let node = value;
  for (let i = 0; i < 16 && node && typeof node === 'object' && typeof node.$ref === 'string'; i++) {
    const next = resolvePointer(doc, node.$ref);
    if (next === undefined) break;
    node = next;
  }
  return node as T;
}

const emptyDocument = (): OpenRpcDocument => ({
  openrpc: '1.3.2',
  info: { title: '', version: '' },
  methods: [],
  components: {},
});

/** Builds the site model from the parsed documents (a surface left out renders as empty). */
export function buildModel(given: Partial<Record<Surface, OpenRpcDocument>>, warnings: string[] = []): SiteModel {
  // The site shows the documents' texts without citations of repository files it does not publish.
  const docs = Object.fromEntries(SURFACES.map((s) => [s, cleanDocumentTexts(given[s] ?? emptyDocument())])) as Record<
    Surface,
    OpenRpcDocument
  >;
  const methods: MethodModel[] = [];
  for (const surface of SURFACES)
    for (const raw of docs[surface].methods ?? [])
      methods.push(toMethod(docs[surface], surface, deref(docs[surface], raw)));
  const errors = collectErrors(docs, methods);
  const types = collectTypes(docs, methods);
  const version = docs.public.info?.version || docs.admin.info?.version || '';
  return { docs, methods, errors, types, version, warnings };
}

function toMethod(doc: OpenRpcDocument, surface: Surface, m: any): MethodModel {
  const params: ParamModel[] = (m.params ?? []).map((p: any) => {
    const d = deref(doc, p);
    return {
      name: d.name,
      required: d.required === true,
      summary: d.summary ?? '',
      description: d.description ?? '',
      schema: d.schema ?? true,
      deprecated: d.deprecated === true,
    };
  });
  const r = m.result ? deref(doc, m.result) : null;
  const tags = (m.tags ?? []).map((t: any) => deref(doc, t)?.name).filter(Boolean);
  return {
    surface,
    name: m.name,
    handler: String(m.name).replace(/^[a-zA-Z]+_/, ''),
    tag: tags[0] ?? (surface === 'public' ? 'other' : surface),
    summary: m.summary ?? '',
    description: m.description ?? '',
    params,
    result: r
      ? { name: r.name ?? 'result', description: r.description ?? r.summary ?? '', schema: r.schema ?? true }
      : null,
    errorKeys: (m.errors ?? []).map((e: any) => errorKey(doc, e)).filter(Boolean),
    examples: (m.examples ?? []).map((e: any) => toExample(doc, deref(doc, e))),
    errorExamples: (m['x-error-examples'] ?? []).map((e: any) => ({
      name: e.name ?? '',
      summary: e.summary ?? '',
      params: (e.params ?? []).map((p: any) => deref(doc, p)?.value),
      error: e.error ?? { code: 0, message: '' },
    })),
    deprecated: m.deprecated === true,
    extension: typeof m['x-extension'] === 'string' ? m['x-extension'] : null,
  };
}

function toExample(doc: OpenRpcDocument, e: any): ExampleModel {
  const result = e.result ? deref(doc, e.result) : undefined;
  return {
    name: e.name ?? '',
    summary: e.summary ?? e.description ?? '',
    params: (e.params ?? []).map((p: any) => deref(doc, p)?.value),
    result: result?.value ?? null,
    hasResult: result !== undefined,
  };
}

/** The catalogue name of an error entry: its `$ref` target's key, else its code matched in the components. */
function errorKey(doc: OpenRpcDocument, e: any): string {
  if (typeof e?.$ref === 'string') return e.$ref.split('/').pop();
  const all = doc.components?.errors ?? {};
  const hit = Object.entries(all).find(([, v]: [string, any]) => v.code === e?.code);
  return hit ? hit[0] : String(e?.code ?? '');
}

function collectErrors(docs: Record<Surface, OpenRpcDocument>, methods: MethodModel[]): ErrorModel[] {
  const byKey = new Map<string, ErrorModel>();
  for (const surface of SURFACES) {
    for (const [key, raw] of Object.entries(docs[surface].components?.errors ?? {})) {
      if (byKey.has(key)) continue;
      const e = deref(docs[surface], raw);
      // Description and data schema live in the root `x-errors` map (docs/ARCHITECTURE.md).
      const detail = docs[surface]['x-errors']?.[key] ?? {};
      const std = STANDARD_ERRORS[key];
      byKey.set(key, {
        key,
        code: e.code,
        message: e.message ?? '',
        surface,
        description: detail.description ?? std?.description ?? '',
        dataSchema: detail.dataSchema ?? null,
        methods: [],
      });
    }
  }
  for (const m of methods) for (const k of m.errorKeys) byKey.get(k)?.methods.push(m.name);
  return [...byKey.values()].sort((a, b) => b.code - a.code);
}

function collectTypes(docs: Record<Surface, OpenRpcDocument>, methods: MethodModel[]): TypeModel[] {
  const types: TypeModel[] = [];
  const publicSchemas = docs.public.components?.schemas ?? {};
  for (const [name, schema] of Object.entries(publicSchemas))
    types.push({ name, slug: name, surface: 'public', schema: schema as Schema, usedBy: [], ...alias(schema) });
  // A schema another document also defines identically is one page; a differing one gets its surface as prefix.
  for (const surface of ['admin', 'dev'] as const) {
    for (const [name, schema] of Object.entries(docs[surface].components?.schemas ?? {})) {
      const same = types.find((t) => t.name === name);
      if (same && canonical(same.schema) === canonical(schema)) continue;
      types.push({
        name,
        slug: same ? `${surface}.${name}` : name,
        surface,
        schema: schema as Schema,
        usedBy: [],
        ...alias(schema),
      });
    }
  }
  // how often each document refers to each component (the most of any document: the same field may be in two)
  const uses = new Map<string, number>();
  for (const surface of SURFACES) {
    for (const [, name] of JSON.stringify(docs[surface]).matchAll(/"#\/components\/schemas\/([^"]+)"/g))
      uses.set(`${surface}:${name}`, (uses.get(`${surface}:${name}`) ?? 0) + 1);
  }
  for (const t of types) {
    const s = t.schema;
    const scalar =
      typeof s === 'object' &&
      !t.aliasOf &&
      !s.properties &&
      !s.oneOf &&
      !s.anyOf &&
      !s.allOf &&
      !s.items &&
      !s.enum &&
      typeof s.type === 'string' &&
      !['object', 'array', 'null'].includes(s.type);
    if (scalar && Math.max(...SURFACES.map((x) => uses.get(`${x}:${t.name}`) ?? 0)) <= 1) t.inline = true;
  }
  for (const m of methods) {
    const refs = new Set<string>();
    collectRefs([m.params.map((p) => p.schema), m.result?.schema], refs);
    const used = new Set([...refs].map((ref) => typeFor(types, m.surface, ref)));
    for (const t of used) if (t && !t.usedBy.includes(m.name)) t.usedBy.push(m.name);
  }
  return types;
}

/** The component a wrapper names (`{ title, description, allOf: [{ $ref }] }` and nothing else). */
function alias(schema: unknown): { aliasOf?: string } {
  if (!schema || typeof schema !== 'object') return {};
  const s = schema as Record<string, any>;
  const only =
    Array.isArray(s.allOf) &&
    s.allOf.length === 1 &&
    typeof s.allOf[0]?.$ref === 'string' &&
    Object.keys(s.allOf[0]).length === 1;
  const plain = Object.keys(s).every((k) =>
    ['title', 'description', 'allOf', 'examples', 'deprecated', '$comment'].includes(k),
  );
  return only && plain && s.allOf[0].$ref.startsWith('#/components/schemas/')
    ? { aliasOf: s.allOf[0].$ref.split('/').pop() }
    : {};
}

/** JSON with object keys sorted, so that the same schema written in another key order compares equal. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** The component named `name` as written, wrapper or not. */
export function rawTypeFor(types: TypeModel[], surface: Surface, name: string): TypeModel | undefined {
  return types.find((t) => t.name === name && t.surface === surface) ?? types.find((t) => t.name === name);
}

/** Finds the type page a schema name refers to from a method or type of `surface`, through wrappers to the type they name. */
export function typeFor(types: TypeModel[], surface: Surface, name: string): TypeModel | undefined {
  let t = rawTypeFor(types, surface, name);
  for (let i = 0; i < 8 && t?.aliasOf; i++) t = rawTypeFor(types, t.surface, t.aliasOf) ?? t;
  return t;
}

/** Collects the component names of every `#/components/schemas/X` reference under `value` (not followed). */
export function collectRefs(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) into.add(v.split('/').pop()!);
      else collectRefs(v, into);
    }
  }
  return into;
}
