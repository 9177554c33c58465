/**
 * SDK generators name every type after the documents (issue 18, docs/SDK.md): @open-rpc/generator
 * gives no content-hash name, json-schema-to-typescript no numbered duplicate, a description edit
 * renames nothing, and the shaping script is a fixed point.
 * @module
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import openRpcGenerator from '@open-rpc/generator';
import { parseOpenRPCDocument } from '@open-rpc/schema-utils-js';
import { compile } from 'json-schema-to-typescript';
import { shapeDocuments } from '../../codegen/shape-documents.ts';
import { ROOT, tempDir } from '../unit/codegen/helpers.ts';

type Json = Record<string, any>;

const FILES = ['openrpc.public.json', 'openrpc.admin.json', 'openrpc.dev.json'] as const;
const load = async (file: string): Promise<Json> => JSON.parse(await readFile(join(ROOT, file), 'utf8'));
const generator = openRpcGenerator.default;

/** @json-schema-tools/transpiler's languageSafeName: how a title becomes a TypeScript type name. */
function safeName(title: string): string {
  const words = title
    .replace(/[^A-Za-z0-9_ ]+/g, ' ')
    .split(/[ _]+/)
    .filter(Boolean);
  return words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

/** The exported type names of @open-rpc/generator's TypeScript client for `doc`. */
async function openRpcTypeNames(doc: Json): Promise<string[]> {
  const dir = await tempDir('sdk-open-rpc');
  try {
    await generator({
      outDir: dir,
      openrpcDocument: doc as never,
      components: [{ type: 'client', name: 'NodeClient', language: 'typescript' }],
    });
    const source = await readFile(join(dir, 'client/typescript/src/index.ts'), 'utf8');
    return [...source.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** json-schema-to-typescript's names for every component of `doc`. */
async function jsttTypeNames(doc: Json): Promise<string[]> {
  const definitions = JSON.parse(
    JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/definitions/'),
  );
  const properties = Object.fromEntries(Object.keys(definitions).map((k) => [k, { $ref: `#/definitions/${k}` }]));
  const source = await compile({ title: 'Everything', type: 'object', definitions, properties }, 'Everything', {
    bannerComment: '',
    unreachableDefinitions: true,
  });
  return [...source.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]).filter((n) => n !== 'Everything');
}

describe('type names from the SDK generators', () => {
  for (const file of FILES.slice(0, 2)) {
    it(`@open-rpc/generator: every type of ${file} is named by a document title or a method`, async () => {
      const doc = await load(file);
      const titles = new Set(
        Object.values(doc.components.schemas as Record<string, Json>).map((s) => safeName(String(s.title))),
      );
      const methods = new Set((doc.methods as Json[]).map((m) => safeName(String(m.name))));
      const names = await openRpcTypeNames(doc);
      assert.ok(names.length > titles.size / 2, `the client exports types (${names.length})`);
      // AnyOf…: the generator's own union of every method's params and results, joined from titles;
      // Options: its client template's constructor options.
      const hashed = names.filter(
        (n) => !titles.has(n) && !methods.has(n) && !n.startsWith('AnyOf') && n !== 'Options',
      );
      assert.deepEqual(hashed, [], 'content-hash names');
      const anyOf = names.filter((n) => n.startsWith('AnyOf'));
      assert.ok(anyOf.length <= 1, `one method union at most: ${anyOf.join(', ')}`);
    });
  }

  for (const file of FILES) {
    it(`json-schema-to-typescript: no numbered duplicate in ${file}`, async () => {
      const doc = await load(file);
      const names = await jsttTypeNames(doc);
      const components = new Set(Object.keys(doc.components.schemas));
      assert.deepEqual(
        names.filter((n) => !components.has(n)),
        [],
        'every type is a component, none numbered',
      );
      assert.equal(new Set(names).size, components.size, 'every component is one type');
    });
  }

  it('every schema in the documents is a titled component, every site a bare $ref', async () => {
    for (const file of FILES) {
      const doc = await load(file);
      for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Json>)) {
        assert.equal(schema.title, name, `${file}: ${name} has its key as title`);
        const walk = (node: unknown, path: string, top: boolean): void => {
          if (!node || typeof node !== 'object') return;
          const s = node as Json;
          if (!top) {
            assert.ok(typeof s.$ref === 'string' && Object.keys(s).length === 1, `${file}: ${path} is a bare $ref`);
            return;
          }
          for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${path}.${k}`, false);
          if (Array.isArray(s.items))
            s.items.forEach((v: unknown, i: number) => {
              walk(v, `${path}[${i}]`, false);
            });
          else if (s.items) walk(s.items, `${path}[]`, false);
          for (const key of ['oneOf', 'anyOf', 'allOf'])
            (s[key] ?? []).forEach((v: unknown, i: number) => {
              walk(v, `${path}|${i}`, false);
            });
        };
        walk(schema, name, true);
      }
      for (const m of doc.methods as Json[]) {
        for (const p of [...m.params, ...(m.result ? [m.result] : [])]) {
          assert.ok(
            typeof p.schema.$ref === 'string' && Object.keys(p.schema).length === 1,
            `${file}: ${m.name} ${p.name} is a bare $ref`,
          );
        }
      }
    }
  });

  it('the shaping is a fixed point, and a description edit renames nothing', async () => {
    const docs = await Promise.all(FILES.map(load));
    const again = shapeDocuments(structuredClone(docs));
    assert.deepEqual(again, docs, 'shaping a shaped document changes nothing');
    const edited = structuredClone(docs);
    let changed = 0;
    for (const doc of edited) {
      for (const schema of Object.values(doc.components.schemas as Record<string, Json>)) {
        if (typeof schema.description === 'string') {
          schema.description += ' Edited.';
          changed++;
        }
      }
    }
    const reshaped = shapeDocuments(edited) as Json[];
    assert.ok(changed > 100);
    for (const [i, doc] of reshaped.entries())
      assert.deepEqual(Object.keys(doc.components.schemas), Object.keys(docs[i].components.schemas), FILES[i]);
  });

  it('every x- field is declared, error data is mapped by code, and @open-rpc/schema-utils-js accepts the documents', async () => {
    for (const file of FILES) {
      const doc = await load(file);
      const declared = new Set((doc['x-extensions'] ?? []).map((e: Json) => e.name));
      const used = new Set<string>();
      const visit = (node: unknown, inExamples: boolean): void => {
        if (!node || typeof node !== 'object') return;
        for (const [k, v] of Object.entries(node)) {
          if (k.startsWith('x-') && !Array.isArray(node) && !inExamples && k !== 'x-extensions') used.add(k);
          visit(v, inExamples || k === 'x-extensions' || k === 'examples');
        }
      };
      visit(doc, false);
      assert.deepEqual(
        [...used].filter((k) => !declared.has(k)),
        [],
        `${file}: undeclared x- fields`,
      );
      const map = doc['x-error-data'] as Record<string, Json>;
      for (const e of Object.values(doc.components.errors as Record<string, Json>)) {
        const data = map[String(e.code)];
        assert.ok(data !== undefined, `${file}: x-error-data has ${e.code}`);
        if (data.$ref !== undefined)
          assert.match(data.$ref, /^#\/components\/schemas\/\w+ErrorData$/, `${file}: ${e.code}`);
        else assert.deepEqual(data, { type: 'null' });
      }
      assert.equal(doc.components.schemas.NoErrorData, undefined);
      await parseOpenRPCDocument(structuredClone(doc) as never);
    }
  });
});
