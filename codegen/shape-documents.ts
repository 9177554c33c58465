/**
 * Reshapes the OpenRPC documents so SDK generators (@open-rpc/generator, quicktype,
 * json-schema-to-typescript) give every type a stable document name. Re-runnable: a shaped
 * document comes out unchanged, so after a rebase take main's document and run this again.
 *
 *   node codegen/shape-documents.ts           rewrites openrpc.{public,admin,dev}.json in place
 *   node codegen/shape-documents.ts --check   exits 1 when a document is not shaped
 *
 * What it does (issue 18, docs/SDK.md):
 * - every schema that is not a bare `$ref` becomes a `components/schemas` entry whose title is its
 *   key; names come from where the schema sits (`TxReceiptError`, `GetBlocksLimit`,
 *   `TxValidationResultValid`), never from its content, so a description edit renames nothing;
 *   identical description-free primitives under one property name share one (`TxIndex`);
 * - a description (or `default`) beside a `$ref` moves into a titled `allOf` wrapper, the form
 *   draft-07 tools read (siblings of `$ref` are ignored there);
 * - optional members of request-only objects accept `null` as absent;
 * - `SiblingPath`/`MembershipWitness` are plain strings, `NoErrorData` leaves the components
 *   (no-data errors say `null`);
 * - `x-error-data` maps each error code to the schema of its `data`; every `x-` field is declared.
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { requestOnlyObjects } from './request-objects.ts';

type Json = Record<string, unknown>;
type Schema = Json;

const COMPONENT_REF = '#/components/schemas/';
/** Keys that describe a site rather than the value: they never decide a name or a shared component. */
const SITE_ANNOTATIONS = ['description', 'default', 'examples', 'deprecated', '$comment'];
const NULL_NAME = 'Null';
export const ERROR_DATA_MAP = 'x-error-data';

const ref = (name: string): Schema => ({ $ref: `${COMPONENT_REF}${name}` });
const refName = (s: unknown): string | undefined => {
  const r = (s as Schema | undefined)?.$ref;
  return typeof r === 'string' && r.startsWith(COMPONENT_REF) ? r.slice(COMPONENT_REF.length) : undefined;
};
const isBareRef = (s: Schema): boolean => refName(s) !== undefined && Object.keys(s).length === 1;

/** `archiverPollingIntervalMS` → `ArchiverPollingIntervalMS`, `LOW_PRIORITY_FEE` → `LowPriorityFee`. */
export function pascal(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const shout = /^[A-Z0-9_\-\s]+$/.test(text) && /[A-Z]/.test(text);
  return words.map((w) => (shout ? w[0] + w.slice(1).toLowerCase() : w[0].toUpperCase() + w.slice(1))).join('');
}

/** `node_getBlocks` → `GetBlocks`, `nodeAdmin_setConfig` → `SetConfig`. */
const methodStem = (method: string): string => pascal(method.slice(method.indexOf('_') + 1));

function isPrimitive(s: Schema): boolean {
  return (
    typeof s.type === 'string' &&
    ['string', 'integer', 'number', 'boolean'].includes(s.type) &&
    s.properties === undefined &&
    s.items === undefined &&
    s.oneOf === undefined &&
    s.anyOf === undefined &&
    s.allOf === undefined
  );
}

/** The component a shaped property site stands for, through its description wrapper or null union. */
function siteTarget(p: Schema | undefined, schemas: Record<string, Schema>): string | undefined {
  let name = refName(p);
  for (let hops = 0; name !== undefined && hops < 3; hops++) {
    const c = schemas[name];
    const branches = (c?.allOf ?? c?.oneOf) as Schema[] | undefined;
    if (!Array.isArray(branches)) return name;
    const inner = branches.map(refName).filter((b) => b !== undefined && b !== NULL_NAME);
    if (inner.length !== 1 || branches.length > 2) return name;
    name = inner[0];
  }
  return name;
}

function withoutAnnotations(s: Schema): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) if (!SITE_ANNOTATIONS.includes(k) && k !== 'title') out[k] = v;
  return out;
}

function hasAnnotations(s: Schema): boolean {
  return SITE_ANNOTATIONS.some((k) => k in s);
}

class Shaper {
  readonly schemas: Record<string, Schema>;
  /** `prop\u0000canonical JSON` of description-free inline primitives → how many sites. */
  private readonly primitiveUses = new Map<string, number>();
  /** The `default`s seen at those sites: a shared component carries one when the sites agree. */
  private readonly defaults = new Map<string, unknown[]>();

  readonly doc: Json;
  /** Every document shaped together: a primitive repeated across them is shared in each alike. */
  private readonly all: readonly Json[];

  constructor(doc: Json, all: readonly Json[]) {
    this.doc = doc;
    this.all = all;
    const components = (doc.components ??= {}) as Json;
    this.schemas = (components.schemas ??= {}) as Record<string, Schema>;
  }

  run(): void {
    this.fixKnownShapes();
    for (const name of Object.keys(this.schemas)) this.shapeComponent(name);
    for (const m of this.methods()) {
      const stem = methodStem(String(m.name));
      for (const p of (m.params ?? []) as Json[])
        p.schema = this.place(p.schema as Schema, `${stem}${pascal(String(p.name))}`, {});
      const result = m.result as Json | undefined;
      if (result) result.schema = this.place(result.schema as Schema, `${stem}Result`, { structural: true });
    }
    this.nullAsAbsent();
    this.errorData();
    this.declareExtensions();
  }

  private methods(): Json[] {
    return (this.doc.methods ?? []) as Json[];
  }

  /** The hand-fixed shapes: plain string witnesses, no null component. */
  private fixKnownShapes(): void {
    const base64 = this.schemas.Base64;
    for (const name of ['SiblingPath', 'MembershipWitness']) {
      const s = this.schemas[name];
      const inner = s && Array.isArray(s.allOf) && s.allOf.length === 1 ? refName(s.allOf[0]) : undefined;
      if (s && inner === 'Base64' && base64) {
        const { title: _t, description: _d, examples: _e, ...shape } = base64;
        this.schemas[name] = {
          title: name,
          description: s.description,
          ...shape,
          ...(s.examples ? { examples: s.examples } : {}),
        };
      }
    }
    // NestedProcessReturnValues stays cut at depth 2: a cycle through `#/components/schemas` makes
    // @json-schema-tools/dereferencer (inside @open-rpc/generator and schema-utils-js) recurse
    // without end, so the generator never finishes (test/sdk/ and docs/SDK.md).
    // A null member of a request-only object is absent now, no longer an error: the example that
    // showed that error sends a string block number instead.
    for (const m of this.methods()) {
      for (const x of (m['x-error-examples'] ?? []) as Json[]) {
        const filter = ((x.params ?? []) as Json[])[0]?.value as Json | undefined;
        if (x.name === 'null-field' && filter && filter.fromBlock === null && Object.keys(filter).length === 1) {
          x.name = 'string-block';
          filter.fromBlock = '5';
        }
      }
    }
    // Documents shaped by the first version said a referenced primitive's default in words
    // ("… Default: `"1"`."); it is machine-readable again as the restated primitive's `default`.
    for (const [name, c] of Object.entries(this.schemas)) {
      const inner = Array.isArray(c.allOf) && c.allOf.length === 1 ? refName(c.allOf[0]) : undefined;
      const said = typeof c.description === 'string' ? /^(.*?) ?Default: `(.+)`\.$/s.exec(c.description) : null;
      const shape = inner !== undefined ? this.schemas[inner] : undefined;
      if (!said || !shape || !isPrimitive(shape)) continue;
      const { allOf: _allOf, description: _description, ...rest } = c;
      this.schemas[name] = {
        ...rest,
        ...(said[1] ? { description: said[1] } : {}),
        default: JSON.parse(said[2]),
        ...withoutAnnotations(shape),
        title: name,
      };
    }
    if (this.schemas.NoErrorData) {
      const errors = (this.doc['x-errors'] ?? {}) as Record<string, Json>;
      for (const e of Object.values(errors))
        if (refName(e.dataSchema) === 'NoErrorData') e.dataSchema = { type: 'null' };
      delete this.schemas.NoErrorData;
    }
  }

  /** Counts inline primitive properties by (name, shape) so repeated ones share a component. */
  countPrimitives(): void {
    const add = (key: string, n: number, value: Schema): void => {
      this.primitiveUses.set(key, (this.primitiveUses.get(key) ?? 0) + n);
      if ('default' in value) this.defaults.set(key, [...(this.defaults.get(key) ?? []), value.default]);
    };
    const visit = (s: unknown, schemas: Record<string, Schema>): void => {
      if (!s || typeof s !== 'object') return;
      if (Array.isArray(s)) {
        for (const v of s) visit(v, schemas);
        return;
      }
      const parent = (s as Schema).title;
      const props = (s as Schema).properties as Record<string, Schema> | undefined;
      if (props) {
        for (const [prop, p] of Object.entries(props)) {
          if (p && isPrimitive(p) && p.title === undefined) {
            add(`${prop}\u0000${JSON.stringify(withoutAnnotations(p))}`, 1, p);
            continue;
          }
          // A document shaped before counts the same: a shared component stays shared (it stood
          // for two or more sites), a site's own primitive counts once.
          const target = siteTarget(p, schemas);
          const shape = target ? schemas[target] : undefined;
          if (!target || !shape || !isPrimitive(shape)) continue;
          if (target === pascal(prop)) add(`${prop}\u0000${JSON.stringify(withoutAnnotations(shape))}`, 2, shape);
          else if (target === `${String(parent)}${pascal(prop)}`)
            add(`${prop}\u0000${JSON.stringify(withoutAnnotations(shape))}`, 1, shape);
        }
      }
      for (const v of Object.values(s)) visit(v, schemas);
    };
    for (const d of this.all) {
      const schemas = ((d.components as Json | undefined)?.schemas ?? {}) as Record<string, Schema>;
      visit(schemas, schemas);
    }
  }

  private shapeComponent(name: string): void {
    const s = this.schemas[name];
    if (s.title === undefined) s.title = name;
    this.shapeChildren(s, name);
  }

  /** Replaces every subschema of `s` (a component named `name`) with a `$ref`. */
  private shapeChildren(s: Schema, name: string): void {
    const props = s.properties as Record<string, Schema> | undefined;
    if (props)
      for (const [prop, p] of Object.entries(props)) props[prop] = this.place(p, `${name}${pascal(prop)}`, { prop });
    if (s.items && typeof s.items === 'object') {
      if (Array.isArray(s.items)) s.items = s.items.map((it, i) => this.place(it as Schema, `${name}Item${i}`, {}));
      else s.items = this.place(s.items as Schema, `${name}Item`, { structural: true });
    }
    if (s.additionalProperties && typeof s.additionalProperties === 'object')
      s.additionalProperties = this.place(s.additionalProperties as Schema, `${name}Value`, {});
    for (const key of ['propertyNames', 'not', 'contains'] as const) {
      if (s[key] && typeof s[key] === 'object') s[key] = this.place(s[key] as Schema, `${name}${pascal(key)}`, {});
    }
    for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
      const list = s[key] as Schema[] | undefined;
      if (Array.isArray(list)) s[key] = list.map((v, i) => this.place(v, this.variantName(name, v, i, key), {}));
    }
  }

  /** `TxValidationResultValid` (a const member), else the variant's type, else its position. */
  private variantName(parent: string, v: Schema, i: number, key: string): string {
    if (key === 'allOf') return `${parent}Part${i}`;
    const props = (v.properties ?? {}) as Record<string, Schema>;
    const required = (v.required ?? []) as string[];
    for (const prop of required) {
      const c = props[prop]?.const;
      if (typeof c === 'string' || typeof c === 'number') return `${parent}${pascal(String(c))}`;
    }
    if (typeof v.type === 'string') return `${parent}${pascal(v.type)}`;
    return `${parent}Option${i}`;
  }

  /**
   * The bare `$ref` that replaces `s` at a site named `site`: `s` itself when it is one, else a
   * new (or shared) component. `structural` sites (results, items) prefer `NullableX`/`XList`.
   */
  private place(s: Schema, site: string, how: { prop?: string; structural?: boolean }): Schema {
    if (s === undefined || s === null || typeof s !== 'object') return s;
    if (isBareRef(s)) return s;
    if (s.type === 'null' && Object.keys(s).length === 1) return this.nullRef();
    const target = refName(s);
    if (target !== undefined) {
      // A `$ref` with siblings: draft-07 ignores them, so they move into a titled allOf wrapper.
      const { $ref, ...annotations } = s;
      const shape = this.schemas[target];
      if ('default' in s && shape && isPrimitive(shape)) {
        // json-schema-to-typescript types an allOf wrapper that carries a `default` as a second,
        // numbered type: a primitive with a default is restated here (same rules) instead.
        return this.register(site, { title: site, ...annotations, ...withoutAnnotations(shape) });
      }
      return this.register(site, { title: site, ...annotations, allOf: [{ $ref }] });
    }
    if (typeof s.title === 'string' && !this.schemas[s.title] && /^[A-Z][A-Za-z0-9]*$/.test(s.title)) site = s.title;
    if (how.prop !== undefined && isPrimitive(s) && s.title === undefined) {
      const shape = withoutAnnotations(s);
      const shared = pascal(how.prop);
      const key = `${how.prop}\u0000${JSON.stringify(shape)}`;
      // A default is the value's, not the site's (json-schema-to-typescript types a wrapper that
      // carries one as a new type): the shared component holds it when every site agrees.
      const defaults = this.defaults.get(key) ?? [];
      const agreed =
        defaults.length > 0 && defaults.every((d) => isDeepStrictEqual(d, defaults[0])) ? { default: defaults[0] } : {};
      const full = { ...shape, ...agreed };
      if ((this.primitiveUses.get(key) ?? 0) > 1 && this.fits(shared, full)) {
        this.register(shared, { title: shared, ...full });
        const own = SITE_ANNOTATIONS.filter((k) => k in s && !(k === 'default' && 'default' in agreed));
        if (own.length === 0) return ref(shared);
        const annotations = Object.fromEntries(own.map((k) => [k, s[k]]));
        return this.register(site, { title: site, ...annotations, allOf: [ref(shared)] });
      }
    }
    const copy: Schema = { ...s, title: site };
    this.shapeChildren(copy, site);
    if (how.structural && !hasAnnotations(s)) {
      const name = this.structuralName(copy);
      if (name && this.fits(name, { ...copy, title: name })) return this.register(name, { ...copy, title: name });
    }
    return this.register(site, copy);
  }

  /** `NullableL2Block` for `oneOf [L2Block, null]`, `L2BlockList` for a bare array of L2Block. */
  private structuralName(s: Schema): string | undefined {
    const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
    const keys = Object.keys(s)
      .filter((k) => k !== 'title')
      .sort()
      .join(',');
    if (Array.isArray(branches) && branches.length === 2 && (keys === 'oneOf' || keys === 'anyOf')) {
      const [a, b] = branches.map(refName);
      if (a && b === NULL_NAME) return `Nullable${a}`;
      if (b && a === NULL_NAME) return `Nullable${b}`;
    }
    if (keys === 'items,type' && s.type === 'array' && refName(s.items)) return `${refName(s.items)}List`;
    return undefined;
  }

  /** True when `name` is free or already holds exactly `schema`. */
  private fits(name: string, schema: Schema): boolean {
    const have = this.schemas[name];
    return have === undefined || isDeepStrictEqual(have, { ...schema, title: name });
  }

  /** Adds `schema` under `name` (or finds it there) and returns a `$ref` to it; a clash gets a suffix. */
  private register(name: string, schema: Schema): Schema {
    let key = name;
    for (
      let n = 2;
      this.schemas[key] !== undefined && !isDeepStrictEqual(this.schemas[key], { ...schema, title: key });
      n++
    )
      key = `${name}${n}`;
    this.schemas[key] = { ...schema, title: key };
    return ref(key);
  }

  private nullRef(): Schema {
    this.schemas[NULL_NAME] ??= { title: NULL_NAME, description: 'JSON null.', type: 'null' };
    return ref(NULL_NAME);
  }

  /**
   * Optional members of objects that only requests carry accept `null` as absent (serde- and
   * dataclass-based clients send `null` for an unset option); the node drops them before handlers.
   */
  private nullAsAbsent(): void {
    for (const name of requestOnlyObjects(this.doc)) {
      const s = this.schemas[name];
      const props = s?.properties as Record<string, Schema> | undefined;
      if (!props || s.type !== 'object') continue;
      const required = new Set((s.required ?? []) as string[]);
      for (const [prop, p] of Object.entries(props)) {
        if (required.has(prop) || this.admitsNull(p)) continue;
        const inner = refName(p)!;
        const site = `${name}${pascal(prop)}`;
        const own = this.schemas[inner];
        if (inner === site && own && Array.isArray(own.allOf) && own.allOf.length === 1 && !own.oneOf) {
          // The site's own wrapper (it carries the description): make it the nullable union.
          const { allOf, ...rest } = own;
          this.schemas[site] = { ...rest, oneOf: [allOf[0] as Schema, this.nullRef()] };
        } else if (inner === site) {
          // The site's own component: its shape moves to `<site>Value`, the site becomes the union.
          const moved = `${site}Value`;
          const annotations = Object.fromEntries(SITE_ANNOTATIONS.filter((k) => k in own).map((k) => [k, own[k]]));
          this.schemas[moved] = { ...withoutAnnotations(own), title: moved };
          this.schemas[site] = { title: site, ...annotations, oneOf: [ref(moved), this.nullRef()] };
        } else {
          props[prop] = this.register(site, { title: site, oneOf: [ref(inner), this.nullRef()] });
        }
      }
    }
  }

  private admitsNull(p: Schema): boolean {
    const name = refName(p);
    const s = name ? this.schemas[name] : p;
    if (!s) return false;
    if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) return true;
    const branches = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
    return Array.isArray(branches) && branches.some((b) => this.admitsNull(b));
  }

  /** `x-error-data`: error code → the schema of its `data` (`null`: the error carries none). */
  private errorData(): void {
    const errors = (this.doc['x-errors'] ?? {}) as Record<string, Json>;
    const catalogue = ((this.doc.components as Json).errors ?? {}) as Record<string, Json>;
    const map: Record<string, Schema> = {};
    for (const [name, e] of Object.entries(catalogue)) {
      const data = errors[name]?.dataSchema as Schema | undefined;
      if (data === undefined) continue;
      map[String(e.code)] = refName(data) !== undefined ? { $ref: (data as Json).$ref as string } : { type: 'null' };
    }
    this.doc[ERROR_DATA_MAP] = map;
  }

  /** Declares every root-level and method-level `x-` field in `x-extensions`. */
  private declareExtensions(): void {
    const declared = (this.doc['x-extensions'] ??= []) as Json[];
    const used = new Set<string>();
    for (const k of Object.keys(this.doc)) if (k.startsWith('x-') && k !== 'x-extensions') used.add(k);
    for (const m of this.methods()) for (const k of Object.keys(m)) if (k.startsWith('x-')) used.add(k);
    const inSchemas = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k.startsWith('x-') && !Array.isArray(node)) used.add(k);
        inSchemas(v);
      }
    };
    inSchemas(this.schemas);
    for (const name of [...used].sort()) {
      if (declared.some((d) => d.name === name)) continue;
      const known = KNOWN_EXTENSIONS[name];
      if (!known)
        throw new Error(`shape-documents: ${name} is used but has no declaration here; add it to KNOWN_EXTENSIONS`);
      declared.push({ openrpcExtension: '0.0.0-development', name, version: '1.0.0', ...known });
    }
  }
}

/** Declarations for the `x-` fields the documents use (an extension used without one is an error). */
const KNOWN_EXTENSIONS: Record<string, Json> = {
  'x-errors': {
    summary: "The error catalogue's details",
    description:
      'Per `components/errors` name: its long description and `dataSchema`, the schema of the error\'s `data` (`{"type": "null"}` when it carries none).',
    restricted: [], // the document root is no meta-schema definition; declared for readers and tools
    schema: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['description', 'dataSchema'],
        properties: { description: { type: 'string' }, dataSchema: { type: 'object' } },
      },
    },
  },
  [ERROR_DATA_MAP]: {
    summary: 'Error code → schema of its data',
    description:
      'Machine-readable: per JSON-RPC error code (as a decimal string, e.g. "-32602"), the schema of that error\'s `data`: a `$ref` to a `components/schemas` entry named `<Something>ErrorData`, or `{"type": "null"}` when the error carries no data. SDKs type `error.data` from it.',
    restricted: [], // the document root is no meta-schema definition; declared for readers and tools
    schema: { type: 'object', propertyNames: { pattern: '^-?[0-9]+$' }, additionalProperties: { type: 'object' } },
  },
  'x-input-rules': {
    summary: 'How requests are read beyond their schemas',
    description:
      '`unknownMembers`: `ignored` when members a request object does not declare are removed before the handler (else refused); `fieldElementSchemas`: the `components/schemas` names whose values must be BN254 field elements (below 0x30644e72…f0000001) in requests, refused with -32602 otherwise; `description` says the rest (hex case, the numeric domain rule).',
    restricted: [], // the document root is no meta-schema definition; declared for readers and tools
    schema: {
      type: 'object',
      properties: {
        unknownMembers: { type: 'string', enum: ['ignored', 'refused'] },
        fieldElementSchemas: { type: 'array', items: { type: 'string' } },
        description: { type: 'string' },
      },
    },
  },
  'x-security': {
    summary: 'How the admin port authenticates',
    description:
      'The API key scheme of the admin port: the headers that carry the key, its format, how it is stored, the exempt routes and the answer to a missing or wrong key.',
    restricted: [], // the document root is no meta-schema definition; declared for readers and tools
    schema: { type: 'object' },
  },
  'x-error-examples': {
    summary: 'Example error responses of a method',
    description:
      'One entry per declared error: the params of a call and the error object the node answers with. A params entry is an Example object `{name, value}` or a `$ref` to one in `#/components/examples`.',
    restricted: ['methodObject'],
    schema: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'params', 'error'],
        properties: {
          name: { type: 'string' },
          summary: { type: 'string' },
          description: { type: 'string' },
          params: { type: 'array' },
          error: { type: 'object' },
        },
      },
    },
  },
};

/**
 * Shapes parsed documents in place. They are shaped together so that a component in several of
 * them (an error's data, a shared type) comes out the same in each.
 */
export function shapeDocuments(docs: readonly Json[]): readonly Json[] {
  const shapers = docs.map((doc) => new Shaper(doc, docs));
  for (const shaper of shapers) shaper.countPrimitives();
  for (const shaper of shapers) shaper.run();
  return docs;
}

const FILES = ['openrpc.public.json', 'openrpc.admin.json', 'openrpc.dev.json'];

if (import.meta.main) {
  const root = resolve(import.meta.dirname, '..');
  const check = process.argv.includes('--check');
  let stale = 0;
  const paths = FILES.map((file) => join(root, file));
  const before = await Promise.all(paths.map((path) => readFile(path, 'utf8')));
  const shaped = shapeDocuments(before.map((text) => JSON.parse(text) as Json));
  for (const [i, file] of FILES.entries()) {
    const after = `${JSON.stringify(shaped[i], null, 2)}\n`;
    if (after === before[i]) continue;
    stale++;
    if (check) console.error(`shape-documents: ${file} is not shaped; run npm run codegen`);
    else await writeFile(paths[i], after);
  }
  if (check && stale > 0) process.exitCode = 1;
  else console.log(`shape-documents: ${check ? 'all documents shaped' : `${stale} document(s) rewritten`}`);
}
