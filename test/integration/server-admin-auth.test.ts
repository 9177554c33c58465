/** Admin API key check, CORS and /status on a real server (SPEC §5, §1). */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createApiKeyAuth } from '../../src/server/auth.ts';
import { post, send, startTestServer } from './server-harness.ts';
import type { TestServer } from './server-harness.ts';

const KEY = 'a'.repeat(32) + 'b'.repeat(32);
const UNAUTHORIZED = '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Unauthorized: invalid or missing API key"}}';
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

  it('a missing key is HTTP 401 with the exact Aztec body', async () => {
    const res = await post(admin.url, batch);
    assert.equal(res.status, 401);
    assert.equal(res.text, UNAUTHORIZED);
  });

  it('a wrong key, a key of another length and a non-Bearer scheme are all 401', async () => {
    const variants: Record<string, string>[] = [{ 'x-api-key': KEY.replace('a', 'c') }, { 'x-api-key': 'short' }, { authorization: `Basic ${KEY}` }, { authorization: KEY }];
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
      const req = request(admin.url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '50000000' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
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
    const broken = await startTestServer({ health: () => { throw new Error('db gone'); } });
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
  it('answers a preflight without a key, allowing the key headers', async () => {
    const res = await send(admin.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://wallet.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['access-control-allow-headers'], 'content-type, x-api-key, authorization');
    assert.match(String(res.headers['access-control-allow-methods']), /POST/);
  });

  it('every answer carries Access-Control-Allow-Origin, also errors', async () => {
    assert.equal((await post(admin.url, batch)).headers['access-control-allow-origin'], '*');
    assert.equal((await post(admin.url, batch, { 'x-api-key': KEY })).headers['access-control-allow-origin'], '*');
  });

  it('the origin is configurable', async () => {
    const own = await startTestServer({ corsOrigin: 'https://app.example' });
    try {
      const res = await post(own.url, batch);
      assert.equal(res.headers['access-control-allow-origin'], 'https://app.example');
      assert.equal(res.headers['vary'], 'Origin');
    } finally {
      await own.close();
    }
  });
});
