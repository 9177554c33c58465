/**
 * Issue 10: the documents and this node through the ecosystem's own tool, `@open-rpc/test-coverage`
 * (2.2.4, run programmatically), against this node started on the conformance chain. What the tool
 * checks and why these rules (docs/CONFORMANCE.md, "With @open-rpc/test-coverage"):
 *
 * - Both documents load with `@open-rpc/schema-utils-js` 2.x `parseOpenRPCDocument` (meta-schema
 *   validation and `$ref` dereferencing). The tool's CLI bundles schema-utils-js 1.x, which refuses
 *   `"openrpc": "1.3.2"` (its meta-schema enum ends at 1.2.6), so the tool runs programmatically.
 * - ExamplesRule over every method of both documents: each example pairing's params are sent and
 *   the answer passes when it equals the example's result or validates against the method's result
 *   schema (the tool's ajv fallback). Our examples describe an imagined chain, so most answers differ
 *   by value and pass by schema. The rule has no notion of declared errors: where the conformance
 *   chain answers an example's params with an error the method declares (our runner's `document`
 *   mode accepts it), the tool counts a failure. Those are listed in EXPECTED_TOOL_FAILURES, each
 *   checked to be such an error (plus -32001 from methods NOT_IMPLEMENTED lists); any other tool
 *   failure, a failure that is a result (schema), or a listed one that passes, fails the test.
 * - JsonSchemaFakerRule (result validated against the result schema, params faked from the param
 *   schemas) only makes calls for methods without examples, and every method has examples, so it is
 *   run on a copy of the public document without examples, limited to the parameterless methods
 *   (random params for the rest would be answered with errors, and the tool counts any error as a
 *   failure): zero failures.
 * The tool's default HTTP transport sends no API key, so a transport of ours (the tool's
 * `ITransport` function) posts the same single JSON-RPC request with `x-api-key`.
 * @module
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadDocuments } from '../../src/conformance/documents.ts';
import type { Surface } from '../../src/conformance/documents.ts';
import { CHAIN_FILE } from '../../src/conformance/chain/paths.ts';
import { startNode } from '../../src/conformance/node-process.ts';
import type { StartedNode } from '../../src/conformance/node-process.ts';
import { NOT_IMPLEMENTED } from './expectations.ts';

const require = createRequire(import.meta.url);

interface ToolMethod {
  name: string;
  params: unknown[];
  examples?: unknown[];
}
interface ToolDocument {
  servers?: { name: string; url: string }[];
  methods: ToolMethod[];
}
interface ToolCall {
  methodName: string;
  title: string;
  params: unknown[];
  result?: unknown;
  expectedResult?: unknown;
  error?: { code: number; message: string; data?: unknown };
  requestError?: unknown;
  valid?: boolean;
  reason?: string;
}
type Transport = (url: string, method: string, params: unknown[]) => Promise<unknown>;
interface ToolRule {
  getTitle(): string;
}
interface ToolOptions {
  openrpcDocument: ToolDocument;
  reporters: string[];
  rules: ToolRule[];
  transport: Transport;
  only?: string[];
}

const testCoverage = (require('@open-rpc/test-coverage') as { default: (o: ToolOptions) => Promise<ToolCall[]> })
  .default;
const ExamplesRule = (require('@open-rpc/test-coverage/build/rules/examples-rule') as { default: new () => ToolRule })
  .default;
const JsonSchemaFakerRule = (
  require('@open-rpc/test-coverage/build/rules/json-schema-faker-rule') as { default: new () => ToolRule }
).default;
type Loader = { parseOpenRPCDocument(path: string): Promise<ToolDocument> };
// The tool's CLI loads documents with its own nested @open-rpc/schema-utils-js 1.x, whose meta-schema
// stops at OpenRPC 1.2.6 and refuses our `"openrpc": "1.3.2"`; so the documents are loaded with the
// project's @open-rpc/schema-utils-js 2.x (the same parse: meta-schema validation, $ref dereferencing).
const toolRequire = createRequire(require.resolve('@open-rpc/test-coverage'));
const cliLoader = toolRequire('@open-rpc/schema-utils-js') as Loader;
const CLI_LOADER_VERSION = (toolRequire('@open-rpc/schema-utils-js/package.json') as { version: string }).version;
const { parseOpenRPCDocument } = require('@open-rpc/schema-utils-js') as Loader;
const LOADER_VERSION = (require('@open-rpc/schema-utils-js/package.json') as { version: string }).version;
const TOOL_VERSION = (require('@open-rpc/test-coverage/package.json') as { version: string }).version;

const FILES: Record<Surface, string> = {
  public: fileURLToPath(new URL('../../openrpc.public.json', import.meta.url)),
  admin: fileURLToPath(new URL('../../openrpc.admin.json', import.meta.url)),
};

/**
 * The examples the tool fails on this chain, as `<method>/<example name>`: the conformance chain
 * answers the example's params (values from the documents' imagined chain) with an error the method
 * declares. Only shrinks. The examples of a method NOT_IMPLEMENTED lists may fail with -32001 instead
 * (that list is asserted exactly, and only shrinks, in the conformance tests).
 */
const EXPECTED_TOOL_FAILURES: Readonly<Record<string, number>> = {
  'node_sendTx/accepted': -32021, // TX_INVALID: the imagined tx's fees are below this chain's minimum
  'node_getPublicDataSiblingPath/leaf': -32012, // LEAF_INDEX_OUT_OF_RANGE: leaf 132 of a 131-leaf tree
  'node_getPrivateLogsByTags/one-tag': -32010, // BLOCK_NOT_YET_SYNCED: the imagined reference block hash
  'node_simulatePublicCalls/private-only': -32030, // SIMULATION_REFUSED: the imagined tx's nullifier exists here (-32001 while not implemented)
  'nodeAdmin_rollbackTo/rollback-recent': -32052, // ROLLBACK_REFUSED ABOVE_TIP: block 110 of an 8-block chain
  'nodeAdmin_rollbackTo/rollback-behind-finalized-forced': -32052, // ROLLBACK_REFUSED ABOVE_TIP (block 90)
  'nodeAdmin_startSnapshotUpload/file-url': -32002, // NODE_NOT_READY: no local SQLite file (in-memory node)
  'nodeAdmin_startSnapshotUpload/local-path': -32002,
  'nodeAdmin_reloadKeystore/reload': -32050, // KEYSTORE_RELOAD_REJECTED: no keystore directory
};

const docs = loadDocuments();
const exampleName = (c: ToolCall) => c.title.replace(/^Generate params from examples and expect results to match /, '');

describe(`@open-rpc/test-coverage against this node on the conformance chain`, { timeout: 120_000 }, () => {
  let node: StartedNode;
  const examples: Record<Surface, ToolCall[]> = { public: [], admin: [] };
  const documents: Partial<Record<Surface, ToolDocument>> = {};
  let faker: ToolCall[] = [];
  before(async () => {
    node = await startNode(['--import-chain', CHAIN_FILE]);
    const transport: Transport = async (url, method, params) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': node.apiKey },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return res.json();
    };
    const urls: Record<Surface, string> = { public: node.publicUrl, admin: node.adminUrl };
    // Public first: the admin examples change the node (config, sync paused and resumed).
    for (const surface of ['public', 'admin'] as const) {
      const doc = await parseOpenRPCDocument(FILES[surface]);
      documents[surface] = doc;
      examples[surface] = await testCoverage({
        openrpcDocument: { ...doc, servers: [{ name: 'under test', url: urls[surface] }] },
        reporters: ['empty'],
        rules: [new ExamplesRule()],
        transport,
      });
    }
    const pub = documents.public!;
    const parameterless = pub.methods.filter((m) => m.params.length === 0).map((m) => m.name);
    const withoutExamples: ToolDocument = {
      ...pub,
      servers: [{ name: 'under test', url: node.publicUrl }],
      methods: pub.methods.map(({ examples: _, ...m }) => m),
    };
    faker = await testCoverage({
      openrpcDocument: withoutExamples,
      reporters: ['empty'],
      rules: [new JsonSchemaFakerRule()],
      transport,
      only: parameterless,
    });
  });
  after(() => node?.stop());

  it(`runs @open-rpc/test-coverage ${TOOL_VERSION} on Node ${process.versions.node}`, (t) => {
    assert.equal(TOOL_VERSION, '2.2.4');
    t.diagnostic(`documents loaded with @open-rpc/schema-utils-js ${LOADER_VERSION}`);
  });

  it(`the tool CLI's loader (@open-rpc/schema-utils-js ${CLI_LOADER_VERSION}) refuses OpenRPC 1.3.2, so its CLI cannot load our documents`, async () => {
    await assert.rejects(cliLoader.parseOpenRPCDocument(FILES.public), (e: Error) =>
      /meta-schema[\s\S]*\.openrpc[\s\S]*1\.2\.6/.test(e.message),
    );
  });

  it('ExamplesRule: one call per example pairing of every method of both documents', () => {
    for (const surface of ['public', 'admin'] as const) {
      const doc = documents[surface]!;
      const pairings = doc.methods.reduce((n, m) => n + (m.examples?.length ?? 0), 0);
      assert.equal(examples[surface].length, pairings, surface);
      assert.ok(
        doc.methods.every((m) => (m.examples?.length ?? 0) > 0),
        `${surface}: every method has examples`,
      );
      assert.deepEqual(
        [...new Set(examples[surface].map((c) => c.methodName))].sort(),
        doc.methods.map((m) => m.name).sort(),
      );
    }
  });

  it('ExamplesRule: every answer that is a result passes (by value or by the result schema)', (t) => {
    const all = [...examples.public, ...examples.admin];
    const results = all.filter((c) => c.error === undefined);
    const bad = results
      .filter((c) => c.valid !== true)
      .map((c) => `${c.methodName}/${exampleName(c)}: ${c.reason ?? String(c.requestError)}`);
    assert.deepEqual(bad, []);
    const byValue = results.filter((c) => JSON.stringify(c.result) === JSON.stringify(c.expectedResult)).length;
    t.diagnostic(
      `ExamplesRule: ${all.length} calls (public ${examples.public.length}, admin ${examples.admin.length}): ${all.filter((c) => c.valid).length} passed (${byValue} by value, ${results.length - byValue} by result schema), ${all.filter((c) => !c.valid).length} failed (declared errors on this chain, or -32001 of a not-implemented method)`,
    );
  });

  it('ExamplesRule: the only failures are the listed ones, each an error the method declares, and -32001 for not-implemented methods', () => {
    const notImplementedMethods = new Set(Object.keys(NOT_IMPLEMENTED).map((p) => p.split('/')[1]));
    const failed = [...examples.public, ...examples.admin].filter((c) => c.valid !== true);
    const keyOf = (c: ToolCall) => `${c.methodName}/${exampleName(c)}`;
    const pending = (c: ToolCall) => c.error?.code === -32001 && notImplementedMethods.has(c.methodName);
    const listed = failed.filter((c) => Object.hasOwn(EXPECTED_TOOL_FAILURES, keyOf(c)));
    assert.deepEqual(
      failed
        .filter((c) => !listed.includes(c) && !pending(c))
        .map((c) => `${keyOf(c)}: ${c.reason ?? String(c.requestError)}`),
      [],
      'unexpected tool failures',
    );
    assert.deepEqual(
      listed.map(keyOf).sort(),
      Object.keys(EXPECTED_TOOL_FAILURES).sort(),
      'update EXPECTED_TOOL_FAILURES: the list only shrinks',
    );
    for (const c of listed) {
      const key = keyOf(c);
      assert.ok(c.error !== undefined, `${key}: a tool failure that is not an error answer: ${c.reason}`);
      if (pending(c)) continue;
      assert.equal(c.error.code, EXPECTED_TOOL_FAILURES[key], key);
      const surface = docs.surfaceOf(c.methodName)!;
      assert.ok(
        docs.methods[surface][c.methodName]!.errors.includes(c.error.code),
        `${key}: error ${c.error.code} is not declared`,
      );
      assert.equal(docs.errors[surface].get(c.error.code)!.validateData(c.error.data), null, `${key}: error data`);
    }
  });

  it('JsonSchemaFakerRule: every parameterless public method answers a result valid against its result schema', (t) => {
    assert.ok(faker.length >= 15, `faker calls (${faker.length})`);
    assert.deepEqual(
      faker
        .filter((c) => c.valid !== true)
        .map((c) => `${c.methodName}: ${c.reason ?? JSON.stringify(c.error ?? c.requestError)}`),
      [],
    );
    t.diagnostic(`JsonSchemaFakerRule: ${faker.length} calls, ${faker.filter((c) => c.valid).length} passed, 0 failed`);
  });
});
