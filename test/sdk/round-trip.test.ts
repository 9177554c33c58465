/**
 * Types an SDK team generates with quicktype (Python, Go, Rust) parse every answer of a live node
 * and serialise it back unchanged (issue 18, docs/SDK.md). The answers: every fixture request
 * replayed against a node on the conformance chain (blocks with txs, public and private logs,
 * L1→L2 and L2→L1 messages, both ports), every document example's result and every error
 * example's data. Go is built with Debian's golang-go, Rust with `cargo build --offline` against
 * Debian's packaged serde crates (scripts/ensure-system-packages.sh installs them).
 * @module
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { loadFixtures } from '../../src/conformance/fixtures.ts';
import { postJson } from '../../src/conformance/http.ts';
import { CHAIN_FILE } from '../../src/conformance/chain/paths.ts';
import { startNode, type StartedNode } from '../../src/conformance/node-process.ts';
import { ROOT, tempDir } from '../unit/codegen/helpers.ts';
import { componentOf, quicktypeSource, resultTypes, topLevelTypes, type ResultType } from './quicktype-input.ts';
import { runGo, runPython, runRust, type Case, type Outcome } from './drivers.ts';

type Json = Record<string, any>;
type Doc = 'public' | 'admin';

const DOCS: Doc[] = ['public', 'admin'];
const docs = Object.fromEntries(
  await Promise.all(
    DOCS.map(async (d) => [d, JSON.parse(await readFile(join(ROOT, `openrpc.${d}.json`), 'utf8'))] as const),
  ),
) as Record<Doc, Json>;
const results = Object.fromEntries(DOCS.map((d) => [d, resultTypes(docs[d])])) as Record<Doc, Map<string, ResultType>>;

/** The recorded values, each with where it came from. */
const recorded: (Case & { readonly from: string })[] = [];
const seen = new Set<string>();

/** Records an answer of `method` (a result) or of error `code` (its data), once per distinct value. */
function record(
  doc: Doc,
  from: string,
  answer: { method: string; result?: unknown; error?: { code: number; data?: unknown } },
): void {
  let type: string | undefined;
  let value: unknown;
  if (answer.error !== undefined) {
    if (answer.error.data === undefined) return;
    type = componentOf((docs[doc]['x-error-data'] as Json)[String(answer.error.code)]);
    assert.ok(type !== undefined, `${from}: error ${answer.error.code} carries data but x-error-data names no schema`);
    value = answer.error.data;
  } else {
    const result = results[doc].get(answer.method);
    assert.ok(result !== undefined, `${from}: ${answer.method} is a method of openrpc.${doc}.json`);
    if (answer.result === null && result.nullable) return; // null: every SDK's nil/None/Option
    type = result.name;
    value = answer.result;
  }
  const key = `${doc}/${type}/${JSON.stringify(value)}`;
  if (seen.has(key)) return;
  seen.add(key);
  recorded.push({ doc, type, value, from });
}

/** Follows a local `$ref` (`#/components/examples/…`). */
function resolve(doc: Json, node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((at: Json, key: string) => at[key], doc);
}

describe('quicktype types round-trip every recorded answer', () => {
  let node: StartedNode;
  let dir: string;
  const sources: Record<'python' | 'go' | 'rust', Record<string, string>> = { python: {}, go: {}, rust: {} };
  const types = Object.fromEntries(DOCS.map((d) => [d, topLevelTypes(docs[d])])) as Record<string, string[]>;

  before(async () => {
    dir = await tempDir('sdk-round-trip');
    node = await startNode(['--import-chain', CHAIN_FILE]);
    for (const fixture of loadFixtures()) {
      if (fixture.flags.has('state-changing') || fixture.requests.length !== 1) continue;
      const request = JSON.parse(fixture.requests[0]) as Json;
      if (Array.isArray(request) || typeof request.method !== 'string') continue;
      const target = fixture.targets[0];
      const response = await postJson(
        target === 'admin' ? node.adminUrl : node.publicUrl,
        fixture.requests[0],
        target === 'admin' ? node.apiKey : undefined,
      );
      if (response.status !== 200) continue;
      const answer = JSON.parse(response.body) as Json;
      const doc: Doc = target === 'admin' ? 'admin' : 'public';
      if (results[doc].has(request.method)) record(doc, `live ${fixture.path}`, { method: request.method, ...answer });
    }
    for (const doc of DOCS) {
      for (const m of docs[doc].methods as Json[]) {
        for (const raw of m.examples ?? []) {
          const x = resolve(docs[doc], raw);
          if (x.result)
            record(doc, `example ${m.name}/${x.name}`, { method: m.name, result: resolve(docs[doc], x.result).value });
        }
        for (const x of m['x-error-examples'] ?? [])
          record(doc, `error example ${m.name}/${x.name}`, { method: m.name, error: x.error });
      }
    }
    for (const lang of ['python', 'go', 'rust'] as const) {
      for (const doc of DOCS) {
        const options: Record<string, string> =
          lang === 'go'
            ? { package: doc }
            : lang === 'rust'
              ? { visibility: 'public', 'skip-serializing-none': 'true' }
              : {};
        sources[lang][doc] = await quicktypeSource(docs[doc], lang, options);
      }
    }
  });
  after(async () => {
    await node?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('recorded answers from a live node on a chain with txs, logs and messages, for nearly every method', (t) => {
    const live = recorded.filter((c) => c.from.startsWith('live '));
    const liveTypes = new Set(live.map((c) => `${c.doc}/${c.type}`));
    for (const name of [
      'L2Block',
      'TxReceipt',
      'IndexedTxEffect',
      'GetPublicLogsResponse',
      'GetLogsByTagsResult',
      'L1ToL2MessageWitness',
      'L2ToL1Messages',
      'NodeAdminConfig',
      'InvalidParamsErrorData',
    ]) {
      assert.ok(
        [...liveTypes].some((t) => t.endsWith(`/${name}`)),
        `a live answer of type ${name}`,
      );
    }
    const methods = new Set(live.map((c) => c.from.split('/')[1]));
    assert.ok(methods.size >= 55, `live answers of ${methods.size} methods`);
    assert.ok(recorded.length >= 150, `${recorded.length} distinct values`);
    t.diagnostic(
      `${recorded.length} distinct values (${live.length} live) of ${new Set(recorded.map((c) => `${c.doc}/${c.type}`)).size} types; live answers of ${methods.size} methods`,
    );
  });

  const check = (lang: string, outcomes: readonly Outcome[]): void => {
    assert.equal(outcomes.length, recorded.length);
    const failures = recorded.flatMap((c, i) => {
      const o = outcomes[i];
      if ('error' in o) return [`${c.from} (${c.doc} ${c.type}): ${o.error}`];
      try {
        assert.deepStrictEqual(o.value, c.value);
        return [];
      } catch (e) {
        return [`${c.from} (${c.doc} ${c.type}): ${(e as Error).message.split('\n').slice(0, 12).join('\n')}`];
      }
    });
    assert.deepEqual(failures, [], `${lang}: every value parses and serialises back unchanged`);
  };

  it('Python (quicktype, classes with from_dict/to_dict)', async () => {
    check('python', await runPython(join(dir, 'python'), sources.python, types, recorded));
  });

  it('Go (quicktype, encoding/json; Debian golang-go)', async () => {
    check('go', await runGo(join(dir, 'go'), sources.go, types, recorded));
  });

  it('Rust (quicktype, serde; cargo build --offline against Debian crates)', async () => {
    check('rust', await runRust(join(dir, 'rust'), sources.rust, types, recorded));
  });

  it('null means absent in request objects: the node answers as if the member were left out', async () => {
    const call = async (url: string, method: string, params: unknown[], key?: string) =>
      JSON.parse((await postJson(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), key)).body) as Json;
    const absent = await call(node.publicUrl, 'node_getPublicLogs', [{ fromBlock: 1 }]);
    const nulls = await call(node.publicUrl, 'node_getPublicLogs', [
      { fromBlock: 1, toBlock: null, txHash: null, afterLog: null, contractAddress: null, tag: null },
    ]);
    assert.ok(absent.result !== undefined, JSON.stringify(absent));
    assert.deepEqual(nulls, absent);
    const before = await call(node.adminUrl, 'nodeAdmin_getConfig', [], node.apiKey);
    const set = await call(
      node.adminUrl,
      'nodeAdmin_setConfig',
      [{ maxTxsPerBlock: null, coinbase: null, slashValidatorsAlways: null }],
      node.apiKey,
    );
    assert.equal(set.error, undefined, JSON.stringify(set));
    assert.deepEqual(
      await call(node.adminUrl, 'nodeAdmin_getConfig', [], node.apiKey),
      before,
      'nulls changed nothing',
    );
    const wrong = await call(node.publicUrl, 'node_getPublicLogs', [{ fromBlock: '5' }]);
    assert.equal(
      wrong.error?.message,
      'params[0] (filter): fromBlock must be integer',
      'a non-null wrong value still names the rule',
    );
  });
});
