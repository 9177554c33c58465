/** The playground's JSON Schema checker: its rules, and agreement with ajv on every document example. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { checkSchema } from '../../../docs-site/assets/schema-check.js';
import { buildModel, readDocument } from '../../../docs-site/lib/model.ts';

const root = {
  components: {
    schemas: {
      BlockNumber: { type: 'integer', minimum: 0 },
      BlockParameter: { oneOf: [{ $ref: '#/components/schemas/BlockNumber' }, { const: 'latest' }] },
      Hash32: { type: 'string', pattern: '^0x[0-9a-f]{64}$' },
    },
  },
};
const messages = (value: unknown, schema: unknown) =>
  checkSchema(value, schema, root, 'p').map((e) => `${e.path} ${e.message}`);

describe('checkSchema', () => {
  it('bounds: reports minimum and maximum with the limit', () => {
    const schema = { type: 'integer', minimum: 1, maximum: 100 };
    assert.deepEqual(messages(101, schema), ['p must be <= 100']);
    assert.deepEqual(messages(0, schema), ['p must be >= 1']);
    assert.deepEqual(messages(50, schema), []);
  });
  it('type: an integer parameter refuses strings and fractions', () => {
    assert.match(messages('5', { type: 'integer' })[0]!, /must be an integer/);
    assert.equal(messages(1.5, { type: 'integer' }).length, 1);
  });
  it('$ref and oneOf: BlockParameter takes a number or "latest", not "earliest"', () => {
    const schema = { $ref: '#/components/schemas/BlockParameter' };
    assert.deepEqual(messages(5, schema), []);
    assert.deepEqual(messages('latest', schema), []);
    assert.match(messages('earliest', schema)[0]!, /must match one of: BlockNumber \| "latest"/);
  });
  it('arrays: maxItems and per-item paths', () => {
    const schema = { type: 'array', maxItems: 2, items: { $ref: '#/components/schemas/Hash32' } };
    assert.deepEqual(messages(['0x12'], schema), ['p[0] must match ^0x[0-9a-f]{64}$']);
    assert.match(messages([1, 2, 3], schema)[0]!, /at most 2 items/);
  });
  it('objects: required, additionalProperties false, nested paths', () => {
    const schema = {
      type: 'object',
      required: ['a'],
      additionalProperties: false,
      properties: { a: { type: 'boolean' } },
    };
    assert.deepEqual(messages({ b: 1 }, schema), ['p must have property "a"', 'p.b is not an allowed property']);
    assert.deepEqual(messages({ a: 'yes' }, schema), ['p.a must be a boolean (got "yes")']);
  });
});

describe('checkSchema agrees with ajv on the documents', () => {
  const docs = ['openrpc.public.json', 'openrpc.admin.json', 'test/unit/docs-site/fixtures/openrpc.public.json'];
  for (const file of docs) {
    it(`${file}: every example param, result and error-example param gets the same verdict`, () => {
      const warnings: string[] = [];
      const doc = readDocument(file, warnings);
      assert.deepEqual(warnings, []);
      const site = buildModel({ public: doc, admin: { methods: [], components: {} } });
      const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
      let compared = 0;
      const same = (value: unknown, schema: unknown, what: string) => {
        if (typeof schema === 'boolean') return;
        const check = ajv.compile({ ...(schema as object), components: doc.components });
        const mine = checkSchema(value, schema, doc).length === 0;
        assert.equal(
          mine,
          check(value),
          `${what}: ajv says ${check(value)}, checkSchema says ${mine} for ${JSON.stringify(value)?.slice(0, 200)}`,
        );
        compared++;
      };
      for (const m of site.methods) {
        for (const ex of [...m.examples, ...m.errorExamples])
          ex.params.forEach((v, i) => {
            if (m.params[i]) same(v, m.params[i]!.schema, `${m.name} ${ex.name} params[${i}]`);
          });
        for (const ex of m.examples)
          if (m.result && ex.hasResult) same(ex.result, m.result.schema, `${m.name} ${ex.name} result`);
      }
      assert.ok(compared > 0, 'compared nothing');
    });
  }
});
