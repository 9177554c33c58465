/**
 * Seeded property-based fuzz of every method of the three documents against one real node process
 * (bin/l2node.js on the conformance chain): batches of generated calls mixing fitting, boundary and
 * hostile params and envelopes. Property: every answer is a well-formed JSON-RPC response for its
 * request, none is -32603, a successful result fits its result schema, unknown methods stay -32601
 * and extra positional params -32602; the node answers every batch and is still up at the end.
 * The seed is printed (L2NODE_FUZZ_SEED replays it); a failure shrinks to a minimal batch.
 * @module
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { CHAIN_FILE } from '../../src/conformance/chain/paths.ts';
import { postJson, rawRequest } from '../../src/conformance/http.ts';
import { startNode, type StartedNode } from '../../src/conformance/node-process.ts';
import { adminMethods } from '../../src/generated/admin/methods.ts';
import { devMethods } from '../../src/generated/dev/methods.ts';
import { publicMethods } from '../../src/generated/public/methods.ts';
import type { MethodDescriptor } from '../../src/generated/runtime/method-table.ts';
import { hostile, SchemaArbitraries, toJsonText } from './fuzz-arbitraries.ts';

type Json = Record<string, unknown>;

/**
 * Batches per run (L2NODE_FUZZ_RUNS) of 1 to 100 calls (the node's batch limit), about 46 on average:
 * 500 batches send some 23 000 calls. Lengths vary so that a failure shrinks to a batch of one call.
 */
const RUNS = Number(process.env.L2NODE_FUZZ_RUNS ?? 500);
const BATCH = 100;
const MIN_CALLS = Number(process.env.L2NODE_FUZZ_MIN_CALLS ?? 20_000);
const SEED = Number(process.env.L2NODE_FUZZ_SEED ?? Date.now() % 2 ** 31);

const DOCUMENTS = {
  public: JSON.parse(readFileSync(new URL('../../openrpc.public.json', import.meta.url), 'utf8')) as Json,
  admin: JSON.parse(readFileSync(new URL('../../openrpc.admin.json', import.meta.url), 'utf8')) as Json,
  dev: JSON.parse(readFileSync(new URL('../../openrpc.dev.json', import.meta.url), 'utf8')) as Json,
};
const TABLES: Record<string, Readonly<Record<string, MethodDescriptor>>> = {
  public: publicMethods,
  admin: { ...adminMethods, ...devMethods },
};

/** What one generated call expects beyond the common property. */
type Expect = 'any' | 'method-not-found' | 'invalid-params' | 'invalid-request';

/** One generated request object and what it expects. */
interface Call {
  readonly method: unknown;
  readonly params?: unknown;
  readonly envelope?: Json;
  readonly expect: Expect;
}

const OMIT = Symbol('omit');

function methodCalls(doc: Json, arbs: SchemaArbitraries): fc.Arbitrary<Call>[] {
  return (doc.methods as Json[]).map((m) => {
    const params = ((m.params ?? []) as Json[]).map((p) => ({
      required: p.required === true,
      schema: (p.schema ?? {}) as Json,
    }));
    const each = params.map((p) =>
      p.required ? arbs.value(p.schema) : fc.oneof(arbs.value(p.schema), fc.constant(null), fc.constant(OMIT)),
    );
    const positional = (each.length === 0 ? fc.constant([] as unknown[]) : fc.tuple(...each)).map((values) => {
      const out = values.map((v) => (v === OMIT ? null : v));
      while (out.length > 0 && values[out.length - 1] === OMIT) out.pop();
      return out;
    });
    const name = String(m.name);
    return fc.oneof(
      { weight: 12, arbitrary: positional.map((p): Call => ({ method: name, params: p, expect: 'any' })) },
      {
        weight: 1,
        arbitrary: fc.tuple(positional, hostile).map(
          ([p, extra]): Call => ({
            method: name,
            params: [...p, ...Array(params.length - p.length).fill(null), extra ?? 0],
            expect: 'invalid-params',
          }),
        ),
      },
      {
        weight: 1,
        arbitrary: fc
          .oneof(fc.constant(undefined), hostile)
          .map((p): Call => ({ method: name, params: p, expect: 'any' })),
      },
    );
  });
}

/** Envelopes that are not a call of a known method. */
const strayCalls: fc.Arbitrary<Call> = fc.oneof(
  fc
    .constantFrom(
      'node_noSuchMethod',
      'nodeAdmin_noSuchMethod',
      'getBlockNumber',
      'node_',
      'rpc.discover',
      '__proto__',
      'constructor',
      'node_getBlockNumber ',
    )
    .map((method): Call => ({ method, params: [], expect: 'method-not-found' })),
  fc
    .constantFrom<Json>(
      { jsonrpc: '1.0' },
      { method: 5 },
      { method: '' },
      { id: { x: 1 } },
      { id: [1] },
      { jsonrpc: null },
    )
    .map((envelope): Call => ({ method: 'node_getBlockNumber', params: [], envelope, expect: 'invalid-request' })),
);

/** The 32-byte values the node holds (hashes, nullifiers, addresses), read from its own answers. */
async function knownValues(node: StartedNode): Promise<string[]> {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string' && /^0x[0-9a-f]{64}$/.test(v)) found.add(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
  };
  const calls = [
    ['node_getBlocks', [1, 20]],
    ['node_getL2Tips', []],
    ['node_getPendingTxs', []],
    ['node_getProtocolContractAddresses', []],
    ['node_getNodeInfo', []],
  ];
  const body = JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params })));
  walk(JSON.parse((await postJson(node.publicUrl, body)).body));
  return [...found].slice(0, 500);
}

function isValidId(id: unknown): boolean {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** Why one answer breaks the property, or undefined. */
function problem(
  call: Call,
  request: Json,
  answer: unknown,
  table: Readonly<Record<string, MethodDescriptor>>,
): string | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return 'not a response object';
  const a = answer as Json;
  if (a.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  const id = isValidId(request.id) ? request.id : null;
  if (!Object.hasOwn(a, 'id') || a.id !== id) return `id ${JSON.stringify(a.id)} is not ${JSON.stringify(id)}`;
  if (Object.hasOwn(a, 'result') === Object.hasOwn(a, 'error')) return 'not exactly one of result and error';
  if (Object.hasOwn(a, 'error')) {
    const e = a.error as Json;
    if (typeof e !== 'object' || e === null || !Number.isInteger(e.code) || typeof e.message !== 'string')
      return 'malformed error object';
    if (e.code === -32603) return '-32603 Internal error';
    const wanted = { 'method-not-found': -32601, 'invalid-params': -32602, 'invalid-request': -32600, any: undefined }[
      call.expect
    ];
    if (wanted !== undefined && e.code !== wanted) return `error ${String(e.code)} where ${wanted} was expected`;
    return undefined;
  }
  if (call.expect !== 'any') return `a result where ${call.expect} was expected`;
  const why = table[String(request.method)]?.validateResult(a.result);
  return why === null || why === undefined ? undefined : `result does not fit its schema: ${why}`;
}

describe('fuzz: every method of the three documents, generated calls', () => {
  let node: StartedNode;
  let arbitraries: Record<'public' | 'admin', fc.Arbitrary<Call>>;
  before(async () => {
    // A body of 100 generated calls can pass the 1 MiB default; the limit itself is tested elsewhere.
    node = await startNode(['--import-chain', CHAIN_FILE, '--max-body-bytes', String(64 * 1024 * 1024)]);
    const known = await knownValues(node);
    const of = (...docs: Json[]) =>
      fc.oneof(
        { weight: 19, arbitrary: fc.oneof(...docs.flatMap((d) => methodCalls(d, new SchemaArbitraries(d, known)))) },
        { weight: 1, arbitrary: strayCalls },
      );
    arbitraries = { public: of(DOCUMENTS.public), admin: of(DOCUMENTS.admin, DOCUMENTS.dev) };
  });
  after(() => node?.stop());

  it(`${RUNS} batches of up to ${BATCH} calls: well-formed answers, never -32603, the node stays up`, async (t) => {
    t.diagnostic(`fuzz seed ${SEED} (replay with L2NODE_FUZZ_SEED=${SEED})`);
    const batch = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.tuple(
          fc.constant('public' as const),
          fc.array(arbitraries.public, { minLength: 1, maxLength: BATCH, size: 'max' }),
        ),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(
          fc.constant('admin' as const),
          fc.array(arbitraries.admin, { minLength: 1, maxLength: BATCH, size: 'max' }),
        ),
      },
    );
    let calls = 0;
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(batch, async ([port, batchCalls]) => {
        const requests = batchCalls.map(
          (c, i): Json => ({
            jsonrpc: '2.0',
            id: i,
            method: c.method,
            ...(c.params === undefined ? {} : { params: c.params }),
            ...c.envelope,
          }),
        );
        const res = await postJson(
          port === 'public' ? node.publicUrl : node.adminUrl,
          toJsonText(requests),
          node.apiKey,
        );
        calls += requests.length;
        assert.equal(res.status, 200, `HTTP ${res.status}: ${res.body.slice(0, 300)}`);
        const answers = JSON.parse(res.body) as unknown[];
        assert.ok(
          Array.isArray(answers) && answers.length === requests.length,
          `${requests.length} requests, answer ${res.body.slice(0, 300)}`,
        );
        for (const a of answers as Json[]) {
          const key = a.error === undefined ? 'result' : String((a.error as Json).code);
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        }
        batchCalls.forEach((c, i) => {
          const why = problem(c, requests[i]!, answers[i], TABLES[port]!);
          assert.equal(
            why,
            undefined,
            `${String(requests[i]!.method)}: ${why}\nrequest: ${toJsonText(requests[i]).slice(0, 2000)}\nanswer: ${JSON.stringify(answers[i]).slice(0, 2000)}`,
          );
        });
      }),
      { seed: SEED, numRuns: RUNS, verbose: 1 },
    );
    t.diagnostic(
      `${calls} calls sent; answers: ${[...outcomes]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
    assert.ok(calls >= MIN_CALLS, `only ${calls} calls sent`);
    for (const url of [node.publicUrl, node.adminUrl]) {
      const status = await rawRequest(`${url}/status`, { method: 'GET' });
      assert.equal(status.status, 200, `${url}/status after the fuzz: ${status.body}`);
    }
  });

  it('the x-aztec-* version headers are on both ports, on answers and errors', async () => {
    for (const [url, key] of [
      [node.publicUrl, undefined],
      [node.adminUrl, node.apiKey],
      [node.adminUrl, 'wrong'],
    ] as const) {
      const res = await postJson(url, '{"jsonrpc":"2.0","id":1,"method":"node_getChainId","params":[]}', key);
      assert.equal(res.headers['x-aztec-l1chainid'], '31337', url);
      assert.equal(res.headers['x-aztec-rollupversion'], '1', url);
      assert.match(String(res.headers['x-aztec-l1rollupaddress']), /^0x[0-9a-f]{40}$/, url);
      assert.equal(res.headers['x-aztec-packageversion'], '4.0.0', url);
    }
    const info = JSON.parse(
      (await postJson(node.publicUrl, '{"jsonrpc":"2.0","id":1,"method":"node_getNodeInfo","params":[]}')).body,
    ).result;
    const res = await rawRequest(`${node.publicUrl}/status`, { method: 'GET' });
    assert.equal(res.headers['x-aztec-l1rollupaddress'], info.l1ContractAddresses.rollupAddress);
    assert.equal(res.headers['x-aztec-l1chainid'], String(info.l1ChainId));
  });
});
