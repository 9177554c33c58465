/**
 * What the runner knows from the two OpenRPC documents: which surface serves a method, its
 * generated param and result validators, the codes it declares, and a validator for each error's
 * `data` (the root `x-errors` map's `dataSchema`, compiled once at load; the generated code has no
 * error-data validators).
 * @module
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import { adminMethods } from '../generated/admin/methods.ts';
import { publicMethods } from '../generated/public/methods.ts';
import type { MethodDescriptor } from '../generated/public/methods.ts';

/** A surface of the API. */
export type Surface = 'public' | 'admin';

/** One catalogue error. */
export interface CatalogueError {
  readonly name: string;
  readonly code: number;
  readonly message: string;
  /** null when `data` fits the error's `x-errors` `dataSchema` (absent `data` counts as `null`), else the problem. */
  validateData(data: unknown): string | null;
}

/** Both documents, as the runner uses them. */
export interface Documents {
  readonly methods: Readonly<Record<Surface, Readonly<Record<string, MethodDescriptor>>>>;
  /** Error catalogue per surface, by code. */
  readonly errors: Readonly<Record<Surface, ReadonlyMap<number, CatalogueError>>>;
  /** The surface a method is served on, or undefined when neither document has it. */
  surfaceOf(method: string): Surface | undefined;
}

const ROOT = new URL('../../', import.meta.url);

let cached: Documents | undefined;

/** Loads (once) the documents at the repository root. */
export function loadDocuments(): Documents {
  cached ??= build();
  return cached;
}

function build(): Documents {
  const errors = {
    public: loadCatalogue('openrpc.public.json', 'public'),
    admin: loadCatalogue('openrpc.admin.json', 'admin'),
  };
  const methods = { public: publicMethods, admin: adminMethods };
  return {
    methods,
    errors,
    surfaceOf: (method) =>
      Object.hasOwn(publicMethods, method) ? 'public' : Object.hasOwn(adminMethods, method) ? 'admin' : undefined,
  };
}

interface RawError {
  readonly code: number;
  readonly message: string;
}

interface RawDocument {
  readonly components: { readonly errors: Record<string, RawError> };
  /** Per error name, its description and the schema of its `data` (docs/ARCHITECTURE.md). */
  readonly 'x-errors'?: Record<string, { readonly dataSchema?: unknown }>;
}

function loadCatalogue(file: string, surface: Surface): Map<number, CatalogueError> {
  const doc = JSON.parse(readFileSync(new URL(file, ROOT), 'utf8')) as RawDocument;
  // strict off: the documents carry annotations ajv does not know (examples, x-*), as in codegen.
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  const base = `urn:l2node:${surface}`;
  ajv.addSchema({ ...doc, $id: base } as object);
  const out = new Map<number, CatalogueError>();
  for (const [name, raw] of Object.entries(doc.components.errors)) {
    // Every error has a data schema (codegen checks it); `{"type": "null"}` means no data.
    const ref = `${base}#/x-errors/${encodeURIComponent(name)}/dataSchema`;
    const validate: ValidateFunction = ajv.compile(
      doc['x-errors']?.[name]?.dataSchema === undefined ? { type: 'null' } : { $ref: ref },
    );
    out.set(raw.code, {
      name,
      code: raw.code,
      message: raw.message,
      validateData(data) {
        const value = data === undefined ? null : data;
        if (validate(value)) return null;
        const e = validate.errors?.[0];
        return e === undefined
          ? 'data is invalid'
          : `data${e.instancePath.replaceAll('/', '.')}: ${e.message ?? e.keyword}`;
      },
    });
  }
  return out;
}
