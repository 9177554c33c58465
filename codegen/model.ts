/**
 * The generator's view of an OpenRPC document: surfaces, methods, params, errors and examples,
 * normalised from the raw JSON with local `$ref`s resolved (schemas keep their refs for naming).
 * @module
 */
import { requestOnlyObjects } from './request-objects.ts';

/** A JSON Schema as it appears in the documents (draft-07, local `$ref`s). */
export type Schema = { readonly [key: string]: unknown };

/** The API surfaces and what differs between them. */
export interface Surface {
  readonly name: 'public' | 'admin' | 'dev';
  readonly file: string;
  readonly prefix: string;
  readonly handlersType: string;
  readonly tableName: string;
  readonly clientFactory: string;
  readonly clientType: string;
  readonly needsApiKey: boolean;
  /**
   * Whether its examples become conformance fixtures. The dev surface's do not: it exists only on a
   * node with its own in-process L1 (not part of SPEC.md or of what another implementation must
   * serve), and its one write changes the chain, so the conformance runner knows only public/admin.
   */
  readonly fixtures: boolean;
}

/** Surface settings fixed by docs/ARCHITECTURE.md. */
export const SURFACES: readonly Surface[] = [
  {
    name: 'public',
    file: 'openrpc.public.json',
    prefix: 'node_',
    handlersType: 'PublicHandlers',
    tableName: 'publicMethods',
    clientFactory: 'createNodeClient',
    clientType: 'NodeClient',
    needsApiKey: false,
    fixtures: true,
  },
  {
    name: 'admin',
    file: 'openrpc.admin.json',
    prefix: 'nodeAdmin_',
    handlersType: 'AdminHandlers',
    tableName: 'adminMethods',
    clientFactory: 'createNodeAdminClient',
    clientType: 'NodeAdminClient',
    needsApiKey: true,
    fixtures: true,
  },
  /** Development-only: served on the admin port (same key) when the node runs its own in-process L1. */
  {
    name: 'dev',
    file: 'openrpc.dev.json',
    prefix: 'dev_',
    handlersType: 'DevHandlers',
    tableName: 'devMethods',
    clientFactory: 'createDevClient',
    clientType: 'DevClient',
    needsApiKey: true,
    fixtures: false,
  },
];

/** One positional parameter. */
export interface ParamModel {
  readonly name: string;
  readonly required: boolean;
  readonly description: string | undefined;
  readonly schema: Schema;
}

/**
 * One `components/errors` entry with its root `x-errors` entry (docs/ARCHITECTURE.md): `message` is
 * the message template (`Block <requested> not yet synced …`), `dataSchema` the schema of `data`.
 */
export interface ErrorModel {
  readonly name: string;
  readonly code: number;
  readonly message: string;
  readonly description: string | undefined;
  readonly dataSchema: Schema | undefined;
}

/** The root `x-errors` map: per catalogue name, the error's description and the schema of its `data`. */
export const ERROR_DETAILS = 'x-errors';

/** An example pairing, or an `x-error-examples` entry (then `error` is set). */
export interface ExampleModel {
  readonly name: string;
  readonly summary: string | undefined;
  readonly params: readonly { readonly name: string; readonly value: unknown }[];
  readonly result?: { readonly value: unknown } | undefined;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown } | undefined;
}

/** One RPC method. */
export interface MethodModel {
  readonly name: string;
  readonly handler: string;
  readonly summary: string;
  readonly description: string | undefined;
  readonly tag: string;
  readonly deprecated: boolean;
  readonly extension: boolean;
  readonly params: readonly ParamModel[];
  readonly result: Schema;
  readonly isVoid: boolean;
  readonly errors: readonly ErrorModel[];
  /** False when the method has no `errors` member at all (an empty list is a declaration). */
  readonly hasErrorList: boolean;
  readonly examples: readonly ExampleModel[];
  readonly errorExamples: readonly ExampleModel[];
}

/** A whole document, ready to emit. */
export interface DocumentModel {
  readonly surface: Surface;
  readonly title: string;
  readonly schemas: ReadonlyMap<string, Schema>;
  readonly errors: readonly ErrorModel[];
  readonly methods: readonly MethodModel[];
  /** The root `x-input-rules`: how requests are read beyond their schemas (docs/ARCHITECTURE.md). */
  readonly inputRules: InputRules;
  /** Object components only requests carry: their optional members take null as absent. */
  readonly requestOnly: ReadonlySet<string>;
}

/** The root `x-input-rules` of a document. */
export interface InputRules {
  /** `ignored`: members a request object's schema does not declare are removed before the handler; `refused` (absent): -32602. */
  readonly unknownMembers: 'ignored' | 'refused';
  /** `fieldElementSchemas`: component names whose values must be below the BN254 modulus in requests. */
  readonly fieldElementSchemas: readonly string[];
}

/** The root member holding a document's input rules. */
export const INPUT_RULES = 'x-input-rules';

type Json = Record<string, unknown>;

/** Follows a local `$ref` (`#/components/...`) in `doc`; non-refs come back unchanged. */
export function deref(doc: Json, node: unknown): Json {
  let current = node as Json;
  for (let hops = 0; typeof current?.$ref === 'string'; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#/') || hops > 20) throw new Error(`unsupported $ref ${ref}`);
    let target: unknown = doc;
    for (const part of ref.slice(2).split('/'))
      target = (target as Json | undefined)?.[decodeURIComponent(part.replaceAll('~1', '/').replaceAll('~0', '~'))];
    if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
    current = target as Json;
  }
  return current;
}

/** `node_getBlock` → `getBlock` (the Aztec client name without the namespace). */
export function handlerName(method: string): string {
  return method.slice(method.indexOf('_') + 1);
}

const VOID: Schema = { type: 'null' };

/** Builds the model of a parsed (but not dereferenced) document. */
export function buildModel(surface: Surface, doc: Json): DocumentModel {
  const components = (doc.components ?? {}) as Json;
  const schemas = new Map(Object.entries((components.schemas ?? {}) as Record<string, Schema>));
  const details = (doc[ERROR_DETAILS] ?? {}) as Record<string, Json | undefined>;
  const errors = Object.entries((components.errors ?? {}) as Record<string, Json>).map(([name, raw]) =>
    toError(doc, name, raw, details[name]),
  );
  const methods = ((doc.methods ?? []) as unknown[]).map((raw) => toMethod(doc, deref(doc, raw), errors));
  const rules = (doc[INPUT_RULES] ?? {}) as Json;
  const inputRules: InputRules = {
    unknownMembers: rules.unknownMembers === 'ignored' ? 'ignored' : 'refused',
    fieldElementSchemas: Array.isArray(rules.fieldElementSchemas) ? rules.fieldElementSchemas.map(String) : [],
  };
  return {
    surface,
    title: String((doc.info as Json | undefined)?.title ?? surface.file),
    schemas,
    errors,
    methods,
    inputRules,
    requestOnly: new Set(requestOnlyObjects(doc)),
  };
}

function toError(doc: Json, name: string, raw: Json, detail: Json | undefined): ErrorModel {
  const e = deref(doc, raw);
  const data = detail?.dataSchema as Schema | undefined;
  const description = detail?.description as string | undefined;
  return { name, code: e.code as number, message: String(e.message ?? ''), description, dataSchema: data };
}

function toMethod(doc: Json, m: Json, catalogue: readonly ErrorModel[]): MethodModel {
  const name = String(m.name);
  const params = ((m.params ?? []) as unknown[])
    .map((p) => deref(doc, p))
    .map(
      (p): ParamModel => ({
        name: String(p.name),
        required: p.required === true,
        description: p.description as string | undefined,
        schema: (p.schema ?? {}) as Schema,
      }),
    );
  const result = m.result === undefined ? VOID : ((deref(doc, m.result).schema ?? {}) as Schema);
  const tags = (m.tags ?? []) as unknown[];
  return {
    name,
    handler: handlerName(name),
    summary: String(m.summary ?? ''),
    description: m.description as string | undefined,
    tag: tags.length > 0 ? String(deref(doc, tags[0]).name) : 'untagged',
    deprecated: m.deprecated === true,
    extension: m['x-extension'] !== undefined,
    params,
    result,
    isVoid: isNullOnly(deref(doc, result)),
    errors: ((m.errors ?? []) as unknown[]).map((e) => matchError(doc, e, catalogue)),
    hasErrorList: Array.isArray(m.errors),
    examples: ((m.examples ?? []) as unknown[]).map((x) => toExample(doc, deref(doc, x))),
    errorExamples: ((m['x-error-examples'] ?? []) as unknown[]).map((x) => toExample(doc, deref(doc, x))),
  };
}

function matchError(doc: Json, raw: unknown, catalogue: readonly ErrorModel[]): ErrorModel {
  const ref = (raw as Json).$ref;
  const byRef = typeof ref === 'string' ? catalogue.find((e) => ref === `#/components/errors/${e.name}`) : undefined;
  if (byRef) return byRef;
  const e = deref(doc, raw);
  return (
    catalogue.find((c) => c.code === e.code) ?? {
      name: `CODE_${Math.abs(Number(e.code))}`,
      code: Number(e.code),
      message: String(e.message ?? ''),
      description: undefined,
      dataSchema: undefined,
    }
  );
}

function toExample(doc: Json, x: Json): ExampleModel {
  const params = ((x.params ?? []) as unknown[])
    .map((p) => deref(doc, p))
    .map((p) => ({ name: String(p.name), value: p.value }));
  const result = x.result === undefined ? undefined : { value: deref(doc, x.result).value ?? null };
  const error = x.error as ExampleModel['error'];
  return {
    name: String(x.name ?? ''),
    summary: (x.summary ?? x.description) as string | undefined,
    params,
    result,
    error,
  };
}

/** True for a schema that only admits `null` (a void method's result). */
export function isNullOnly(schema: Schema): boolean {
  return (
    schema.type === 'null' ||
    (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null) ||
    (schema.const === null && 'const' in schema)
  );
}
