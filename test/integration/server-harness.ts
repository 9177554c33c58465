/**
 * Test harness for the JSON-RPC server: a tiny hand-written method table, a server on a free
 * port, and raw HTTP helpers.
 * @module
 */
import { request } from 'node:http';
import { BlockNotYetSynced } from '../../src/impl/world-state/errors.ts';
import type { RpcServerOptions } from '../../src/server/http.ts';
import { createRpcServer } from '../../src/server/http.ts';
import { createLogger } from '../../src/server/logger.ts';
import type { MethodDescriptor } from '../../src/server/types.ts';

type ParamSpec = { name: string; required: boolean };

function method(
  name: string,
  handler: string,
  params: ParamSpec[],
  validateParams: MethodDescriptor['validateParams'] = () => null,
): MethodDescriptor {
  return {
    name,
    handler,
    params,
    validateParams,
    validateResult: () => null,
    errors: [],
    deprecated: false,
    extension: false,
  };
}

/** A small method table standing in for the generated one. */
export const testMethods: Record<string, MethodDescriptor> = {
  test_echo: method('test_echo', 'echo', [{ name: 'value', required: true }]),
  test_args: method('test_args', 'args', [
    { name: 'first', required: true },
    { name: 'second', required: false },
    { name: 'third', required: false },
  ]),
  test_limit: method('test_limit', 'limit', [{ name: 'limit', required: true }], (params) =>
    typeof params[0] === 'number' && params[0] <= 100 ? null : 'params[0] (limit): must be <= 100',
  ),
  test_void: method('test_void', 'doNothing', []),
  test_notSynced: method('test_notSynced', 'notSynced', []),
  test_crash: method('test_crash', 'crash', []),
  test_bigint: method('test_bigint', 'bigint', []),
  test_missing: method('test_missing', 'notBuiltYet', []),
  test_slow: method('test_slow', 'slow', [{ name: 'ms', required: true }]),
  test_rendezvous: method('test_rendezvous', 'rendezvous', [{ name: 'count', required: true }]),
};

/** Records which handlers ran, to prove validation happens before them. */
export const calls: string[] = [];

/** test_slow calls that have started (a test can wait until its request is being handled). */
export const slowStarted: number[] = [];

/** test_rendezvous calls running now, and the most that ever ran at the same time. */
export const rendezvous = { running: 0, maxRunning: 0 };

/** Handlers for `testMethods`; `notBuiltYet` is deliberately absent. */
export const testHandlers = {
  async echo(value: unknown) {
    calls.push('echo');
    return value;
  },
  async args(...args: unknown[]) {
    return { count: args.length, undefinedAt: args.map((a, i) => (a === undefined ? i : -1)).filter((i) => i >= 0) };
  },
  async limit(limit: number) {
    calls.push('limit');
    return limit;
  },
  async doNothing() {},
  async notSynced() {
    throw new BlockNotYetSynced(7, 3); // a domain error: the server maps it (rpc/wire-errors.ts)
  },
  async crash() {
    throw new Error('secret internal detail at /srv/engine.ts:42');
  },
  async bigint() {
    return 1n;
  },
  async slow(ms: number) {
    slowStarted.push(ms);
    await new Promise((resolve) => setTimeout(resolve, ms));
    return ms;
  },
  /** Waits until `count` calls run at once (at most 5 s, which is what a one-by-one run would take); returns that most. */
  async rendezvous(count: number) {
    rendezvous.running++;
    rendezvous.maxRunning = Math.max(rendezvous.maxRunning, rendezvous.running);
    const end = Date.now() + 5000;
    while (rendezvous.maxRunning < count && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 5));
    rendezvous.running--;
    return rendezvous.maxRunning;
  },
};

/** A server started for one test. */
export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly logLines: string[];
  close(graceMs?: number): Promise<void>;
}

/** Starts a server with the test table on 127.0.0.1 and a free port. */
export async function startTestServer(overrides: Partial<RpcServerOptions> = {}): Promise<TestServer> {
  const logLines: string[] = [];
  const server = createRpcServer({
    methods: testMethods,
    handlers: testHandlers,
    limits: { maxBodyBytes: 1_048_576, maxBatchSize: 100 },
    logger: createLogger('debug', (line) => void logLines.push(line)),
    ...overrides,
  });
  const { port } = await server.listen(0, '127.0.0.1');
  return { url: `http://127.0.0.1:${port}`, port, logLines, close: (graceMs) => server.close(graceMs) };
}

/** An HTTP answer. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  json(): any;
}

/** POSTs JSON (or raw text) and returns the full answer. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return send(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text });
}

/** Sends any request through node:http (no client-side rewriting). */
export function send(
  url: string,
  options: { method: string; headers?: Record<string, string>; body?: string | Buffer; path?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(options.path ?? '/', url);
    const req = request(target, { method: options.method, headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
