/**
 * The protocol suite: HTTP- and JSON-RPC-level cases that fixtures cannot express (status codes,
 * headers, batches, auth). Runs before the method fixtures. Every case is method-agnostic: the
 * calls it makes may answer a result or any error; only the framing is judged.
 * @module
 */
import { readFileSync } from 'node:fs';
import { isObject } from './check.ts';
import { postJson, rawRequest } from './http.ts';
import type { Endpoints, RawResponse } from './http.ts';

/** Options of the protocol suite. */
export interface ProtocolOptions {
  /** The largest body the node accepts; the 413 case sends one byte more. */
  readonly maxBodyBytes: number;
  /** The largest batch; the over-limit case sends one more. */
  readonly maxBatchSize: number;
}

/** One protocol case: resolves with '' when it holds, else the reason. */
export interface ProtocolCase {
  readonly name: string;
  run(endpoints: Endpoints, options: ProtocolOptions): Promise<string>;
}

/** A call that any node serves on the public port (the answer's content is not judged). */
const call = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'node_getChainId', params: [] });
const adminCall = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'nodeAdmin_getConfig', params: [] });

/** The exact 401 answer, from the admin document's `x-security.onFailure`. */
const UNAUTHORIZED = (
  JSON.parse(readFileSync(new URL('../../openrpc.admin.json', import.meta.url), 'utf8')) as {
    'x-security': { onFailure: { httpStatus: number; response: unknown } };
  }
)['x-security'].onFailure;

/** Every protocol case, in the order they run. */
export const PROTOCOL_CASES: readonly ProtocolCase[] = [
  wholeBody('parse-error', '{"jsonrpc":"2.0","id":1,', -32700),
  wholeBody('invalid-request-not-an-object', '42', -32600),
  {
    name: 'invalid-request-wrong-version',
    run: async (e) => {
      const answer = parse(
        (await postJson(e.publicUrl, JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'node_getChainId', params: [] })))
          .body,
      );
      // JSON-RPC 2.0 §5: the id is echoed when it could be read, else null; both are right here.
      return answerProblem(answer, 7, -32600) === '' ? '' : answerProblem(answer, null, -32600);
    },
  },
  single(
    'invalid-request-bad-id',
    { jsonrpc: '2.0', id: { a: 1 }, method: 'node_getChainId', params: [] },
    null,
    -32600,
  ),
  wholeBody('empty-batch', '[]', -32600),
  {
    name: 'batch-over-limit',
    run: async (e, o) =>
      expectWholeBody(
        await postJson(e.publicUrl, JSON.stringify(Array.from({ length: o.maxBatchSize + 1 }, (_, i) => call(i)))),
        -32600,
      ),
  },
  {
    name: 'batch-at-limit',
    run: async (e, o) => {
      const ids = Array.from({ length: o.maxBatchSize }, (_, i) => i);
      return expectBatch(
        await postJson(e.publicUrl, JSON.stringify(ids.map(call))),
        ids.map((id) => ({ id })),
      );
    },
  },
  {
    name: 'mixed-batch-errors-and-notifications',
    run: async (e) => {
      const body = [
        call(1),
        { jsonrpc: '2.0', method: 'node_getChainId', params: [] },
        { jsonrpc: '2.0', id: 'x', method: 'node_noSuchMethod', params: [] },
        5,
        { jsonrpc: '2.0', id: 3, method: 'node_getBlocks', params: [0, 1] },
      ];
      // Answers come in request order, notifications skipped: the Aztec client matches them by position.
      return expectBatch(await postJson(e.publicUrl, JSON.stringify(body)), [
        { id: 1 },
        { id: 'x', code: -32601 },
        { id: null, code: -32600 },
        { id: 3, code: -32602 },
      ]);
    },
  },
  single('id-zero', call(0), 0),
  single('id-string', call('req-1'), 'req-1'),
  single('id-null', call(null), null),
  {
    name: 'notification-204',
    run: async (e) =>
      expectEmpty(
        await postJson(e.publicUrl, JSON.stringify({ jsonrpc: '2.0', method: 'node_getChainId', params: [] })),
      ),
  },
  {
    name: 'all-notification-batch-204',
    run: async (e) =>
      expectEmpty(
        await postJson(
          e.publicUrl,
          JSON.stringify([
            { jsonrpc: '2.0', method: 'node_getChainId' },
            { jsonrpc: '2.0', method: 'node_nope' },
          ]),
        ),
      ),
  },
  {
    name: 'wrong-content-type-415',
    run: async (e) =>
      expectStatus(
        await rawRequest(e.publicUrl, { body: JSON.stringify(call(1)), headers: { 'content-type': 'text/plain' } }),
        415,
      ),
  },
  {
    name: 'wrong-http-method-405',
    run: async (e) => expectStatus(await rawRequest(e.publicUrl, { method: 'GET' }), 405),
  },
  {
    name: 'body-too-large-413',
    run: async (e, o) => {
      // A valid request padded with spaces: a node that ignores the limit answers 200 and fails here.
      const text = JSON.stringify(call(1));
      return expectStatus(
        await rawRequest(e.publicUrl, {
          body: text + ' '.repeat(o.maxBodyBytes + 1 - text.length),
          headers: { 'content-type': 'application/json' },
        }),
        413,
      );
    },
  },
  {
    name: 'public-method-on-admin-port',
    run: async (e) => expectSingle(await postJson(e.adminUrl, JSON.stringify(call(4)), e.apiKey), 4, -32601),
  },
  {
    name: 'admin-method-on-public-port',
    run: async (e) => expectSingle(await postJson(e.publicUrl, JSON.stringify(adminCall(4))), 4, -32601),
  },
  {
    name: 'admin-no-key-401',
    run: async (e) => expectUnauthorized(await postJson(e.adminUrl, JSON.stringify(adminCall(1)))),
  },
  {
    name: 'admin-wrong-key-401',
    run: async (e) =>
      expectUnauthorized(await postJson(e.adminUrl, JSON.stringify(adminCall(1)), `${'0'.repeat(63)}1`)),
  },
  {
    name: 'admin-key-x-api-key',
    run: async (e) =>
      needsKey(e) || expectSingle(await postJson(e.adminUrl, JSON.stringify(adminCall(2)), e.apiKey), 2),
  },
  {
    name: 'admin-key-authorization-bearer',
    run: async (e) =>
      needsKey(e) ||
      expectSingle(
        await rawRequest(e.adminUrl, {
          body: JSON.stringify(adminCall(2)),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${e.apiKey}` },
        }),
        2,
      ),
  },
  {
    name: 'status-public-no-key',
    run: async (e) => expectStatusPage(await rawRequest(new URL('/status', e.publicUrl).href, { method: 'GET' })),
  },
  {
    name: 'status-admin-no-key',
    run: async (e) => expectStatusPage(await rawRequest(new URL('/status', e.adminUrl).href, { method: 'GET' })),
  },
  { name: 'cors-preflight-public', run: async (e) => expectPreflight(await preflight(e.publicUrl)) },
  // The admin port answers no browser page unless its operator names the page's origin (--admin-cors-origin).
  {
    name: 'cors-preflight-admin-foreign-origin',
    run: async (e) => expectNoAllowOrigin(await preflight(e.adminUrl, 'https://evil.example')),
  },
  {
    name: 'host-foreign-admin-403',
    run: async (e) =>
      expectStatus(
        await rawRequest(e.adminUrl, {
          body: JSON.stringify(adminCall(1)),
          headers: { 'content-type': 'application/json', host: 'evil.example' },
        }),
        403,
      ),
  },
];

function wholeBody(name: string, body: string, code: number): ProtocolCase {
  return { name, run: async (e) => expectWholeBody(await postJson(e.publicUrl, body), code) };
}

function single(name: string, request: unknown, id: unknown, code?: number): ProtocolCase {
  return { name, run: async (e) => expectSingle(await postJson(e.publicUrl, JSON.stringify(request)), id, code) };
}

/** A whole-body rejection: HTTP 400, one error object, id null (the real Aztec server's shape). */
function expectWholeBody(res: RawResponse, code: number): string {
  if (res.status !== 400) return `expected HTTP 400, got ${res.status} ${res.body.slice(0, 200)}`;
  return answerProblem(parse(res.body), null, code);
}

function expectSingle(res: RawResponse, id: unknown, code?: number): string {
  if (res.status === 401) return `HTTP 401: ${res.body.slice(0, 200)}`;
  if (res.status !== 200 && !(code !== undefined && res.status === 400))
    return `expected HTTP 200, got ${res.status} ${res.body.slice(0, 200)}`;
  return answerProblem(parse(res.body), id, code);
}

function expectBatch(res: RawResponse, expected: readonly { id: unknown; code?: number }[]): string {
  if (res.status !== 200) return `expected HTTP 200, got ${res.status} ${res.body.slice(0, 200)}`;
  const body = parse(res.body);
  if (!Array.isArray(body)) return `expected an array of ${expected.length} answers, got ${res.body.slice(0, 200)}`;
  if (body.length !== expected.length) return `expected ${expected.length} answers, got ${body.length}`;
  for (const [i, x] of expected.entries()) {
    const problem = answerProblem(body[i], x.id, x.code);
    if (problem !== '') return `answer [${i}]: ${problem}`;
  }
  return '';
}

/** '' when `answer` is a response with `id` and, when `code` is given, that error code. */
function answerProblem(answer: unknown, id: unknown, code?: number): string {
  if (!isObject(answer)) return `expected a response object, got ${JSON.stringify(answer)?.slice(0, 200)}`;
  if (answer.jsonrpc !== '2.0') return `jsonrpc: expected "2.0", got ${JSON.stringify(answer.jsonrpc)}`;
  if (!Object.is(answer.id, id)) return `id: expected ${JSON.stringify(id)}, got ${JSON.stringify(answer.id)}`;
  const error = isObject(answer.error) ? answer.error : undefined;
  if (Object.hasOwn(answer, 'result') === (error !== undefined))
    return 'a response carries exactly one of result and error';
  if (code === undefined) return '';
  if (error === undefined) return `expected error ${code}, got result ${JSON.stringify(answer.result)?.slice(0, 200)}`;
  if (error.code !== code) return `expected error ${code}, got ${error.code} ${JSON.stringify(error.message)}`;
  return typeof error.message === 'string' && error.message !== '' ? '' : 'error.message must be a non-empty string';
}

function expectEmpty(res: RawResponse): string {
  if (res.status !== 204) return `expected HTTP 204, got ${res.status} ${res.body.slice(0, 200)}`;
  return res.body === '' ? '' : `expected no body, got ${res.body.slice(0, 200)}`;
}

/** An HTTP-level refusal: the status, and a JSON body with `error.message` (the Aztec client reads it). */
function expectStatus(res: RawResponse, status: number): string {
  if (res.status !== status) return `expected HTTP ${status}, got ${res.status} ${res.body.slice(0, 200)}`;
  const body = parse(res.body);
  return isObject(body) && isObject(body.error) && typeof body.error.message === 'string'
    ? ''
    : `expected a JSON body with error.message, got ${res.body.slice(0, 200)}`;
}

function expectUnauthorized(res: RawResponse): string {
  if (res.status !== UNAUTHORIZED.httpStatus)
    return `expected HTTP ${UNAUTHORIZED.httpStatus}, got ${res.status} ${res.body.slice(0, 200)}`;
  const body = parse(res.body);
  return JSON.stringify(body) === JSON.stringify(UNAUTHORIZED.response)
    ? ''
    : `expected body ${JSON.stringify(UNAUTHORIZED.response)}, got ${res.body.slice(0, 300)}`;
}

function expectStatusPage(res: RawResponse): string {
  if (res.status !== 200 && res.status !== 503)
    return `expected HTTP 200 (or 503 while unhealthy) without a key, got ${res.status}`;
  return isObject(parse(res.body)) ? '' : `expected a JSON object, got ${res.body.slice(0, 200)}`;
}

function preflight(url: string, origin = 'https://example.org'): Promise<RawResponse> {
  return rawRequest(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, x-api-key',
    },
  });
}

function expectPreflight(res: RawResponse): string {
  if (res.status !== 200 && res.status !== 204) return `expected HTTP 204 (or 200), got ${res.status}`;
  const origin = res.headers['access-control-allow-origin'];
  if (origin !== '*' && origin !== 'https://example.org')
    return `access-control-allow-origin: expected * or the origin, got ${JSON.stringify(origin)}`;
  const methods = String(res.headers['access-control-allow-methods'] ?? '').toUpperCase();
  if (!methods.includes('POST')) return `access-control-allow-methods lacks POST: ${JSON.stringify(methods)}`;
  const headers = String(res.headers['access-control-allow-headers'] ?? '').toLowerCase();
  for (const h of ['content-type', 'x-api-key'])
    if (!headers.includes(h) && headers !== '*')
      return `access-control-allow-headers lacks ${h}: ${JSON.stringify(headers)}`;
  return '';
}

function expectNoAllowOrigin(res: RawResponse): string {
  const origin = res.headers['access-control-allow-origin'];
  return origin === undefined
    ? ''
    : `a foreign origin got access-control-allow-origin ${JSON.stringify(origin)} (HTTP ${res.status})`;
}

function needsKey(e: Endpoints): string {
  return e.apiKey === undefined ? 'needs --api-key (the admin key of the node under test)' : '';
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
