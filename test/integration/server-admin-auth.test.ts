/** Admin API key check, CORS and /status on a real server (SPEC §5, §1). */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createApiKeyAuth } from '../../src/server/auth.ts';
import { post, send, startTestServer } from './server-harness.ts';
import type { TestServer } from './server-harness.ts';

const KEY = 'a'.repeat(32) + 'b'.repeat(32);
const UNAUTHORIZED =
  '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Unauthorized: invalid or missing API key"}}';
const batch = [{ jsonrpc: '2.0', id: 0, method: 'test_echo', params: ['admin'] }];

let admin: TestServer;
let healthy = true;
before(async () => {
  const hash = createHash('sha256').update(KEY).digest('hex');
  admin = await startTestServer({
    auth: createApiKeyAuth(hash),
    health: () => ({ healthy, version: '4.0.0', syncState: 'syncing' }),
  });
});
after(() => admin.close());

describe('admin API key', () => {
  it('accepts the key in x-api-key', async () => {
    const res = await post(admin.url, batch, { 'x-api-key': KEY });
    assert.equal(res.status, 200);
    assert.equal(res.json()[0].result, 'admin');
  });

  it('accepts the key as Authorization: Bearer, scheme in any case', async () => {
    assert.equal((await post(admin.url, batch, { authorization: `Bearer ${KEY}` })).status, 200);
    assert.equal((await post(admin.url, batch, { authorization: `bearer ${KEY}` })).status, 200);
  });

  it('with both headers, x-api-key decides (docs/OPERATIONS.md), as in Aztec', async () => {
    assert.equal((await post(admin.url, batch, { 'x-api-key': KEY, authorization: 'Bearer wrong-key' })).status, 200);
    const res = await post(admin.url, batch, { 'x-api-key': 'wrong-key', authorization: `Bearer ${KEY}` });
    assert.equal(res.status, 401);
    assert.equal(res.text, UNAUTHORIZED);
  });

  it('a missing key is HTTP 401 with the exact Aztec body', async () => {
    const res = await post(admin.url, batch);
    assert.equal(res.status, 401);
    assert.equal(res.text, UNAUTHORIZED);
  });

  it('a wrong key, a key of another length and a non-Bearer scheme are all 401', async () => {
    const variants: Record<string, string>[] = [
      { 'x-api-key': KEY.replace('a', 'c') },
      { 'x-api-key': 'short' },
      { authorization: `Basic ${KEY}` },
      { authorization: KEY },
    ];
    for (const headers of variants) {
      const res = await post(admin.url, batch, headers);
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(res.text, UNAUTHORIZED);
    }
  });

  it('the hash is not the key: sending the stored hash is 401', async () => {
    const res = await post(admin.url, batch, { 'x-api-key': createHash('sha256').update(KEY).digest('hex') });
    assert.equal(res.status, 401);
  });

  it('401 comes before the body is read: a huge unsent body does not matter', { timeout: 5000 }, async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        admin.url,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '50000000' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
      req.write('[');
    });
    assert.equal(status, 401);
  });

  it('401 also for wrong HTTP methods and paths without a key', async () => {
    assert.equal((await send(admin.url, { method: 'GET' })).status, 401);
    assert.equal((await send(admin.url, { method: 'POST', path: '/other' })).status, 401);
  });

  it('the key never appears in the log', async () => {
    await post(admin.url, batch, { 'x-api-key': KEY });
    await post(admin.url, batch, { 'x-api-key': `${KEY}x` });
    assert.ok(admin.logLines.length > 0);
    assert.ok(admin.logLines.every((line) => !line.includes(KEY)));
  });
});

describe('GET /status', () => {
  it('is 200 with a small health body and needs no key', async () => {
    const res = await send(admin.url, { method: 'GET', path: '/status' });
    assert.equal(res.status, 200);
    const body = res.json();
    assert.equal(body.status, 'ok');
    assert.equal(body.version, '4.0.0');
    assert.equal(body.syncState, 'syncing');
    assert.equal(typeof body.uptimeSeconds, 'number');
  });

  it('is 503 when the health provider says unhealthy', async () => {
    healthy = false;
    try {
      const res = await send(admin.url, { method: 'GET', path: '/status' });
      assert.equal(res.status, 503);
      assert.equal(res.json().status, 'unavailable');
    } finally {
      healthy = true;
    }
  });

  it('is 503 when the health provider throws', async () => {
    const broken = await startTestServer({
      health: () => {
        throw new Error('db gone');
      },
    });
    try {
      assert.equal((await send(broken.url, { method: 'GET', path: '/status' })).status, 503);
    } finally {
      await broken.close();
    }
  });

  it('POST /status is 405', async () => {
    assert.equal((await send(admin.url, { method: 'POST', path: '/status' })).status, 405);
  });
});

describe('CORS', () => {
  const preflightFrom = (url: string, origin: string) =>
    send(url, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-api-key',
      },
    });

  it('by default no origin is allowed: a preflight is refused with 403 and no CORS header', async () => {
    const res = await preflightFrom(admin.url, 'https://evil.example');
    assert.equal(res.status, 403);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal(res.headers['access-control-allow-headers'], undefined);
    assert.equal(res.json().error.code, -32600);
    assert.match(res.json().error.message, /origin "https:\/\/evil.example" is not allowed/);
  });

  it('a request from a page of a foreign origin is refused before the key is checked', async () => {
    const res = await post(admin.url, batch, { 'x-api-key': KEY, origin: 'https://evil.example' });
    assert.equal(res.status, 403);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });

  it('callers without Origin (curl, SDKs) are served and get no CORS header', async () => {
    const res = await post(admin.url, batch, { 'x-api-key': KEY });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });

  it('a listed origin gets exactly itself back, never *, and no credentials header', async () => {
    const own = await startTestServer({ corsOrigins: ['https://app.example', 'http://localhost:4000'] });
    try {
      const pre = await preflightFrom(own.url, 'https://app.example');
      assert.equal(pre.status, 204);
      assert.equal(pre.headers['access-control-allow-origin'], 'https://app.example');
      assert.equal(pre.headers['vary'], 'Origin');
      assert.equal(pre.headers['access-control-allow-headers'], 'content-type, x-api-key, authorization');
      assert.match(String(pre.headers['access-control-allow-methods']), /POST/);
      assert.equal(pre.headers['access-control-allow-credentials'], undefined);
      const res = await post(own.url, batch, { origin: 'http://localhost:4000' });
      assert.equal(res.status, 200);
      assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:4000');
      assert.equal(res.headers['vary'], 'Origin');
      // Another origin, even one differing only in port, is refused.
      assert.equal((await preflightFrom(own.url, 'http://localhost:4001')).status, 403);
      assert.equal((await post(own.url, batch, { origin: 'https://app.example.evil.example' })).status, 403);
    } finally {
      await own.close();
    }
  });

  it('* answers every origin with * (the public port default), errors too', async () => {
    const any = await startTestServer({ corsOrigins: ['*'] });
    try {
      const pre = await preflightFrom(any.url, 'https://wallet.example');
      assert.equal(pre.status, 204);
      assert.equal(pre.headers['access-control-allow-origin'], '*');
      assert.equal(
        (await post(any.url, 'not json', { origin: 'https://wallet.example' })).headers['access-control-allow-origin'],
        '*',
      );
    } finally {
      await any.close();
    }
  });
});

describe('Host allow-list', () => {
  const withHost = (url: string, host: string | undefined, headers: Record<string, string> = {}) =>
    send(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(host === undefined ? {} : { host }), ...headers },
      body: JSON.stringify(batch),
    });

  it('the default serves the loopback names and the bound address, with or without port', async () => {
    for (const host of [
      'localhost',
      `localhost:${admin.port}`,
      '127.0.0.1',
      `127.0.0.1:${admin.port}`,
      '[::1]',
      `[::1]:${admin.port}`,
      'LOCALHOST.',
    ]) {
      assert.equal((await withHost(admin.url, host, { 'x-api-key': KEY })).status, 200, host);
    }
  });

  it('another Host is refused with 403 and a JSON-RPC error, before the key', async () => {
    for (const host of ['evil.example', `evil.example:${admin.port}`, '127.0.0.1.evil.example', '[::2]:1']) {
      const res = await withHost(admin.url, host);
      assert.equal(res.status, 403, host);
      const body = res.json();
      assert.equal(body.jsonrpc, '2.0');
      assert.equal(body.id, null);
      assert.equal(body.error.code, -32600);
      assert.match(body.error.message, /Host .* is not allowed on this port \(--vhosts\)/);
    }
    assert.equal(
      (await send(admin.url, { method: 'GET', path: '/status', headers: { host: 'evil.example' } })).status,
      403,
    );
    assert.equal((await send(admin.url, { method: 'OPTIONS', headers: { host: 'evil.example' } })).status, 403);
  });

  it('is refused before the body is read', async () => {
    // A declared body that never comes: the answer arrives anyway, so the body was not awaited.
    const res = await new Promise<{ status: number }>((resolve, reject) => {
      const req = request(
        admin.url,
        {
          method: 'POST',
          headers: { host: 'evil.example', 'content-type': 'application/json', 'content-length': '1000' },
        },
        (r) => {
          r.resume();
          resolve({ status: r.statusCode ?? 0 });
          req.destroy();
        },
      );
      req.once('error', reject);
      req.write('[');
    });
    assert.equal(res.status, 403);
  });

  it('a configured list replaces the default; * allows any', async () => {
    const named = await startTestServer({
      allowedHosts: ['node.example'],
      allowListFlags: { vhosts: '--admin-vhosts', corsOrigin: '--admin-cors-origin' },
    });
    const any = await startTestServer({ allowedHosts: ['*'] });
    try {
      assert.equal((await withHost(named.url, `node.example:${named.port}`)).status, 200);
      const refused = await withHost(named.url, '127.0.0.1');
      assert.equal(refused.status, 403);
      assert.match(refused.json().error.message, /--admin-vhosts/);
      assert.equal((await withHost(any.url, 'evil.example')).status, 200);
    } finally {
      await named.close();
      await any.close();
    }
  });
});
