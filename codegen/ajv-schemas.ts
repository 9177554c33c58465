/**
 * One ajv 8 instance per document, holding every component schema and every method's param and
 * result schemas under flat ids. The same instance checks the examples and emits standalone code.
 * @module
 */
import { Ajv } from 'ajv';
import type { DocumentModel, Schema } from './model.ts';
import { describeSchema } from './describe-schema.ts';

const COMPONENT_REF = '#/components/schemas/';

/** The ajv id of a method's param (`node_getBlock.param0`) or result (`node_getBlock.result`). */
export function schemaId(method: string, part: number | 'result'): string {
  return part === 'result' ? `${method}.result` : `${method}.param${part}`;
}

/** Builds the ajv instance for a document; `source` keeps generated code for standalone output. */
export function createDocumentAjv(model: DocumentModel, source: boolean): Ajv {
  // strict off: the documents are draft-07 with annotations ajv does not know (examples, x-*).
  // Formats are annotations here; every rule the server enforces is a pattern or a bound.
  const ajv = new Ajv({
    strict: false,
    verbose: true,
    allErrors: false,
    validateFormats: false,
    code: source ? { source: true, esm: true } : {},
  });
  ajv.addKeyword({ keyword: 'x-expected', schemaType: 'string' });
  const lookup = (name: string): Schema | undefined => model.schemas.get(name);
  for (const [name, schema] of model.schemas) ajv.addSchema(prepareSchema(schema, lookup, name), name);
  const seen = new Set<string>();
  for (const m of model.methods) {
    if (seen.has(m.name)) continue; // a duplicate method is reported by checkModel; the first one wins
    seen.add(m.name);
    m.params.forEach((p, i) => ajv.addSchema(prepareSchema(p.schema, lookup), schemaId(m.name, i)));
    ajv.addSchema(prepareSchema(m.result, lookup), schemaId(m.name, 'result'));
  }
  return ajv;
}

/**
 * Copies a document schema for ajv: component `$ref`s become flat ids, and every anyOf/oneOf gets
 * an `x-expected` annotation that the generated message formatter reads from `parentSchema`.
 */
export function prepareSchema(schema: Schema, lookup: (name: string) => Schema | undefined, id?: string): Schema {
  const copy = rewrite(schema, lookup) as Record<string, unknown>;
  if (id !== undefined) delete copy.$id;
  return copy;
}

function rewrite(node: unknown, lookup: (name: string) => Schema | undefined): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, lookup));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_REF)) {
      const rest = value.slice(COMPONENT_REF.length);
      const slash = rest.indexOf('/');
      out.$ref = slash < 0 ? rest : `${rest.slice(0, slash)}#${rest.slice(slash)}`;
    } else if (key === 'examples' || key === 'description' || key === 'title') {
      continue; // annotations only: keep them out of the standalone code
    } else {
      out[key] = rewrite(value, lookup);
    }
  }
  const branches = (node as Schema).anyOf ?? (node as Schema).oneOf;
  if (Array.isArray(branches)) out['x-expected'] = describeSchema(node as Schema, lookup);
  return out;
}
