/**
 * An SDK user's validator reads the documents: ajv 8 in its default strict mode (`new Ajv()`)
 * compiles every component schema and every method's param and result schemas of the three
 * documents. Strict ajv throws on a keyword it does not know, so a custom keyword inside a schema
 * (as `x-bn254-field` once was) breaks it and tools built on it (@open-rpc/test-coverage); the
 * field-element rule lives at the root instead (`x-input-rules.fieldElementSchemas`, docs/SDK.md).
 * @module
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { ROOT } from '../unit/codegen/helpers.ts';

type Json = Record<string, unknown>;
interface Descriptor {
  $ref?: string;
  schema?: Json;
}
interface Document {
  components: { schemas: Record<string, Json>; contentDescriptors?: Record<string, Descriptor> };
  methods: { name: string; params: Descriptor[]; result?: Descriptor }[];
  'x-input-rules': { fieldElementSchemas: string[] };
}

const load = async (file: string): Promise<Document> =>
  JSON.parse(await readFile(join(ROOT, file), 'utf8')) as Document;

const FILES = ['openrpc.public.json', 'openrpc.admin.json', 'openrpc.dev.json'] as const;
const COMPONENT_REF = '#/components/schemas/';

/** Component refs as ajv ids (`#/components/schemas/X/properties/y` → `X#/properties/y`); nothing else changes. */
function withComponentIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withComponentIds);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key !== '$ref' || typeof value !== 'string' || !value.startsWith(COMPONENT_REF))
        return [key, withComponentIds(value)];
      const rest = value.slice(COMPONENT_REF.length);
      const slash = rest.indexOf('/');
      return [key, slash < 0 ? rest : `${rest.slice(0, slash)}#${rest.slice(slash)}`];
    }),
  );
}

/** A method's param or result schema, following a `$ref` to `#/components/contentDescriptors`. */
function contentSchema(doc: Document, node: Descriptor): Json {
  const ref = node.$ref;
  const target = ref?.startsWith('#/components/contentDescriptors/')
    ? doc.components.contentDescriptors?.[ref.split('/').pop()!]
    : node;
  assert.ok(target?.schema !== undefined, `content descriptor ${ref ?? ''} has a schema`);
  return target.schema;
}

describe('strict ajv (its default) compiles the documents', () => {
  for (const file of FILES) {
    it(file, async () => {
      const doc = await load(file);
      const schemas = Object.entries(doc.components.schemas);
      assert.ok(schemas.length > 20, `${file} has its components`);
      const ajv = new Ajv();
      for (const [name, schema] of schemas) ajv.addSchema(withComponentIds(schema) as Json, name);
      for (const [name] of schemas)
        assert.doesNotThrow(() => ajv.getSchema(name), `${file}: components/schemas/${name}`);
      for (const method of doc.methods) {
        const parts = [...method.params.map((p, i) => [`param ${i}`, p] as const), ['result', method.result] as const];
        for (const [part, descriptor] of parts) {
          if (descriptor === undefined) continue;
          assert.doesNotThrow(
            () => ajv.compile(withComponentIds(contentSchema(doc, descriptor)) as Json),
            `${file}: ${method.name} ${part}`,
          );
        }
      }
    });
  }

  it('a custom keyword inside a schema is what strict ajv refuses (so the test above can fail)', () => {
    assert.throws(
      () => new Ajv().compile({ type: 'string', 'x-bn254-field': true }),
      /strict mode: unknown keyword: "x-bn254-field"/,
    );
  });

  it('the field-element rule is at the root, naming string components of each document', async () => {
    for (const file of FILES) {
      const doc = await load(file);
      const names = doc['x-input-rules'].fieldElementSchemas;
      assert.ok(names.includes('Hash32') && names.includes('AztecAddress'), `${file}: ${names.join(', ')}`);
      for (const name of names) assert.equal(doc.components.schemas[name]?.type, 'string', `${file}: ${name}`);
    }
  });
});
