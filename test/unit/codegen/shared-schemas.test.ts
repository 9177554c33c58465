/**
 * A schema name means one thing across openrpc.public.json, openrpc.admin.json and
 * openrpc.dev.json: a component the documents share is identical in each (so SDK generators,
 * the docs site and readers see one type), except the few listed here, which differ on purpose.
 * @module
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../../${name}`, import.meta.url), 'utf8'));
const documents = {
  public: read('openrpc.public.json'),
  admin: read('openrpc.admin.json'),
  dev: read('openrpc.dev.json'),
};

/** Deliberate differences: admin schemas describe inputs an operator types, public ones results. */
const INTENTIONAL: Record<string, string> = {
  'admin:FunctionSelector': 'admin input accepts upper-case hex digits; public results are lower-case',
  'admin:AllowedElement':
    'admin input refuses unknown members (additionalProperties: false); the public result shape stays open for 4.1 clients',
  'admin:AllowedElementByAddress':
    'the address variant of admin:AllowedElement (its own component since issue 18): refuses unknown members',
  'admin:AllowedElementByClass':
    'the class variant of admin:AllowedElement (its own component since issue 18): refuses unknown members',
};

describe('shared component schemas', () => {
  it('are identical across the three documents unless listed as intentional', () => {
    const seen = new Map<string, { doc: string; schema: unknown }>();
    const differing: string[] = [];
    for (const [doc, d] of Object.entries(documents)) {
      for (const [name, schema] of Object.entries<unknown>(d.components?.schemas ?? {})) {
        const first = seen.get(name);
        if (first === undefined) seen.set(name, { doc, schema });
        else if (!isDeepStrictEqual(first.schema, schema) && !(`${doc}:${name}` in INTENTIONAL))
          differing.push(`${name} (${first.doc} vs ${doc})`);
      }
    }
    assert.deepEqual(
      differing,
      [],
      "copy the first document's definition, or list the difference in INTENTIONAL with its reason",
    );
  });

  it('every intentional difference still exists (the list does not go stale)', () => {
    for (const key of Object.keys(INTENTIONAL)) {
      const [doc, name] = key.split(':') as [keyof typeof documents, string];
      const here = documents[doc].components.schemas[name];
      assert.ok(here !== undefined, `${key} no longer exists`);
      assert.ok(
        !isDeepStrictEqual(here, documents.public.components.schemas[name]),
        `${key} is now identical to the public one: remove it from INTENTIONAL`,
      );
    }
  });
});
