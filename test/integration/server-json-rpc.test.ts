/** JSON-RPC 2.0 framing over HTTP on a real server: singles, batches, notifications, every protocol error. */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { calls, post, rendezvous, send, slowStarted, startTestServer } from './server-harness.ts';
import type { TestServer } from './server-harness.ts';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

const call = (id: unknown, method: string, params?: unknown[]) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});

describe('single requests', () => {
  it('answers with the result and echoes a numeric id, including 0', async () => {
    const res = await post(server.url, call(0, 'test_echo', ['hi']));
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.deepEqual(res.json(), { jsonrpc: '2.0', id: 0, result: 'hi' });
  });

  it('echoes string and null ids exactly', async () => {
    assert.deepEqual((await post(server.url, call('abc-1', 'test_echo', [1]))).json(), {
      jsonrpc: '2.0',
      id: 'abc-1',
      result: 1,
    });
    assert.deepEqual((await post(server.url, call(null, 'test_echo', [2]))).json(), {
      jsonrpc: '2.0',
      id: null,
      result: 2,
    });
  });

  it('sends "result": null for a void handler', async () => {
    const res = await post(server.url, call(3, 'test_void', []));
    assert.equal(res.text, '{"jsonrpc":"2.0","id":3,"result":null}');
  });

  it('treats absent params as []', async () => {
    assert.deepEqual((await post(server.url, call(4, 'test_void'))).json().result, null);
  });

  it('answers an error with HTTP 200 (documented in docs/OPERATIONS.md)', async () => {
    const res = await post(server.url, call(5, 'node_nope', []));
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), {
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32601, message: 'Method not found: node_nope' },
    });
  });

  it('a single notification gets HTTP 204 and no body', async () => {
    const res = await post(server.url, { jsonrpc: '2.0', method: 'test_echo', params: [1] });
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
  });
});

describe('batches', () => {
  it('answers in request order, mixing results, errors and skipped notifications', async () => {
    const res = await post(server.url, [
      call(0, 'test_slow', [60]),
      { jsonrpc: '2.0', method: 'test_echo', params: ['notification'] },
      call(1, 'test_echo', ['fast']),
      call(2, 'nodeAdmin_getConfig', []),
      { jsonrpc: '2.0', method: 'does_not_exist' },
      call(3, 'test_limit', [101]),
      call('x', 'test_notSynced', []),
    ]);
    assert.equal(res.status, 200);
    const body = res.json();
    assert.deepEqual(
      body.map((r: { id: unknown }) => r.id),
      [0, 1, 2, 3, 'x'],
    );
    assert.equal(body[0].result, 60);
    assert.equal(body[1].result, 'fast');
    assert.equal(body[2].error.code, -32601);
    assert.equal(body[3].error.code, -32602);
    assert.deepEqual(body[4].error, {
      code: -32010,
      message: 'Block 7 not yet synced (world state is at block 3)',
      data: { requested: 7, latest: 3 },
    });
  });

  it('runs batch elements concurrently', async () => {
    // Each call waits until all three run at once: run one by one, the first would give up after 5 s seeing only itself.
    // (Not a wall-clock bound: on a loaded machine three 150 ms calls can take over 400 ms even when concurrent.)
    rendezvous.maxRunning = 0;
    const res = await post(server.url, [
      call(0, 'test_rendezvous', [3]),
      call(1, 'test_rendezvous', [3]),
      call(2, 'test_rendezvous', [3]),
    ]);
    assert.deepEqual(
      res.json().map((r: { result: unknown }) => r.result),
      [3, 3, 3],
      'the three batch elements ran at the same time',
    );
    assert.equal(rendezvous.maxRunning, 3);
  });

  it('an all-notification batch gets HTTP 204 and no body', async () => {
    const res = await post(server.url, [
      { jsonrpc: '2.0', method: 'test_echo', params: [1] },
      { jsonrpc: '2.0', method: 'unknown_method' },
    ]);
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
  });

  it('an empty batch is -32600 with HTTP 400', async () => {
    const res = await post(server.url, []);
    assert.equal(res.status, 400);
    assert.deepEqual(res.json(), {
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: empty batch' },
    });
  });

  it('a batch over the limit is -32600 worded like the real server, HTTP 400', async () => {
    const res = await post(
      server.url,
      Array.from({ length: 101 }, (_, i) => call(i, 'test_void', [])),
    );
    assert.equal(res.status, 400);
    assert.deepEqual(res.json().error, {
      code: -32600,
      message: 'Invalid Request: Batch request exceeds maximum allowed size of 100',
    });
  });

  it('a batch of exactly the limit is served', async () => {
    const res = await post(
      server.url,
      Array.from({ length: 100 }, (_, i) => call(i, 'test_echo', [i])),
    );
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.json().map((r: { result: number }) => r.result),
      Array.from({ length: 100 }, (_, i) => i),
    );
  });

  it('invalid elements get -32600 with id null while the others are served', async () => {
    const res = await post(server.url, [
      1,
      call(0, 'test_echo', ['ok']),
      { jsonrpc: '2.0', id: {}, method: 'test_echo' },
    ]);
    const body = res.json();
    assert.equal(res.status, 200);
    assert.deepEqual([body[0].id, body[0].error.code], [null, -32600]);
    assert.equal(body[1].result, 'ok');
    assert.deepEqual([body[2].id, body[2].error.code], [null, -32600]);
  });
});

describe('protocol errors', () => {
  it('-32700 for a body that is not JSON, HTTP 400, id null', async () => {
    const res = await post(server.url, '{"jsonrpc":"2.0",');
    assert.equal(res.status, 400);
    const body = res.json();
    assert.equal(body.id, null);
    assert.equal(body.error.code, -32700);
    assert.match(body.error.message, /^Parse error: /);
  });

  it('-32600 for a wrong jsonrpc version, a missing method, and a non-object body', async () => {
    assert.equal((await post(server.url, { jsonrpc: '1.0', id: 1, method: 'test_void' })).json().error.code, -32600);
    const noMethod = (await post(server.url, { jsonrpc: '2.0', id: 2 })).json();
    assert.deepEqual([noMethod.id, noMethod.error.code], [2, -32600]);
    const scalar = await post(server.url, '42');
    assert.deepEqual([scalar.status, scalar.json().error.code], [400, -32600]);
  });

  it('-32601 for an unknown method and for inherited property names', async () => {
    for (const name of ['node_unknown', 'toString', '__proto__', 'constructor']) {
      assert.equal((await post(server.url, call(1, name, []))).json().error.code, -32601, name);
    }
  });

  it('-32602 carries the validator message naming the parameter, and the handler never runs', async () => {
    calls.length = 0;
    const res = await post(server.url, call(1, 'test_limit', [101]));
    assert.deepEqual(res.json().error, {
      code: -32602,
      message: 'params[0] (limit): must be <= 100',
      data: { index: 0, param: 'limit', rule: 'must be <= 100' },
    });
    assert.deepEqual(calls, []);
  });

  it('-32602 for a missing required param, too many params, and by-name params', async () => {
    assert.equal(
      (await post(server.url, call(1, 'test_echo', []))).json().error.message,
      'params[0] (value): is required',
    );
    assert.equal((await post(server.url, call(1, 'test_echo', [1, 2]))).json().error.code, -32602);
    assert.equal(
      (await post(server.url, { jsonrpc: '2.0', id: 1, method: 'test_echo', params: { value: 1 } })).json().error.code,
      -32602,
    );
  });

  it('-32603 hides the cause on the wire and logs the stack', async () => {
    const res = await post(server.url, call(9, 'test_crash', []));
    assert.equal(res.text, '{"jsonrpc":"2.0","id":9,"error":{"code":-32603,"message":"Internal error"}}');
    const logged = server.logLines.find((l) => l.includes('secret internal detail'));
    assert.ok(logged, 'the cause is logged');
    assert.match(JSON.parse(logged).err.stack, /at /);
  });

  it('-32603 for a result that cannot be serialized', async () => {
    assert.equal((await post(server.url, call(1, 'test_bigint', []))).json().error.code, -32603);
  });

  it('-32001 NOT_IMPLEMENTED when the method exists but its handler does not', async () => {
    assert.deepEqual((await post(server.url, call(1, 'test_missing', []))).json().error, {
      code: -32001,
      message: 'Method not implemented: test_missing',
      data: { method: 'test_missing' },
    });
  });
});

describe('optional params', () => {
  it('absent and null optionals both reach the handler as omitted', async () => {
    assert.deepEqual((await post(server.url, call(1, 'test_args', ['a']))).json().result, {
      count: 1,
      undefinedAt: [],
    });
    assert.deepEqual((await post(server.url, call(1, 'test_args', ['a', null]))).json().result, {
      count: 1,
      undefinedAt: [],
    });
    assert.deepEqual((await post(server.url, call(1, 'test_args', ['a', null, 'c']))).json().result, {
      count: 3,
      undefinedAt: [1],
    });
  });

  it('null for a required param is passed to the validator, not dropped', async () => {
    assert.deepEqual((await post(server.url, call(1, 'test_echo', [null]))).json(), {
      jsonrpc: '2.0',
      id: 1,
      result: null,
    });
  });
});

describe('HTTP framing', () => {
  it('405 with a JSON error body for GET /', async () => {
    const res = await send(server.url, { method: 'GET' });
    assert.equal(res.status, 405);
    assert.equal(res.headers['allow'], 'POST, OPTIONS');
    assert.equal(typeof res.json().error.message, 'string');
  });

  it('415 with a JSON error body for a non-JSON content type', async () => {
    const res = await send(server.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    assert.equal(res.status, 415);
    assert.match(res.json().error.message, /application\/json/);
  });

  it('accepts a charset parameter on the content type', async () => {
    const res = await post(server.url, call(1, 'test_echo', [1]), {
      'content-type': 'application/json; charset=utf-8',
    });
    assert.equal(res.status, 200);
  });

  it('404 with a JSON error body for another path', async () => {
    const res = await send(server.url, {
      method: 'POST',
      path: '/rpc',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 404);
    assert.equal(typeof res.json().error.message, 'string');
  });
});

describe('body size limit', () => {
  let small: TestServer;
  before(async () => {
    small = await startTestServer({ limits: { maxBodyBytes: 1000, maxBatchSize: 100 } });
  });
  after(() => small.close());

  it('413 with error.message when Content-Length is over the limit, and the server stays up', async () => {
    const res = await post(small.url, call(1, 'test_echo', ['x'.repeat(2000)]));
    assert.equal(res.status, 413);
    assert.match(res.json().error.message, /1000 bytes/);
    assert.equal((await post(small.url, call(2, 'test_echo', ['ok']))).json().result, 'ok');
  });

  it('413 when a chunked body without Content-Length grows over the limit', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(small.url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('["');
      // Counted chunks, not a time window: a stalled event loop must not end the body before it passes the limit.
      let chunks = 0;
      const timer = setInterval(() => {
        if (++chunks < 10) req.write('x'.repeat(400));
        else {
          clearInterval(timer);
          req.end('"]');
        }
      }, 5);
      req.on('close', () => clearInterval(timer));
    });
    assert.equal(status, 413);
    assert.equal((await post(small.url, call(3, 'test_echo', ['still up']))).json().result, 'still up');
  });

  it('a body at the limit is served', async () => {
    const filler = 'y'.repeat(1000 - JSON.stringify(call(1, 'test_echo', [''])).length);
    const res = await post(small.url, call(1, 'test_echo', [filler]));
    assert.equal(res.status, 200);
  });
});

describe('graceful close', () => {
  it('finishes an in-flight request, then stops accepting', async () => {
    const own = await startTestServer();
    slowStarted.length = 0;
    const inFlight = post(own.url, call(1, 'test_slow', [200]));
    // Closed once the request is in its handler (a fixed 50 ms could close before it even connected).
    for (
      const end = Date.now() + 10_000;
      slowStarted.length === 0;
      await new Promise((resolve) => setTimeout(resolve, 5))
    ) {
      assert.ok(Date.now() < end, 'the request reached its handler');
    }
    const closed = own.close(5000);
    assert.equal((await inFlight).json().result, 200);
    await closed;
    await assert.rejects(post(own.url, call(2, 'test_void', [])), /ECONNREFUSED/);
  });
});
