/**
 * The node as a process against a hostile web page (docs/OPERATIONS.md "Browser safety and hostile
 * callers"): origin and Host allow-lists on both ports with their defaults and when configured (the
 * start refusals of --no-admin-api-key with an open admin port are in server-process.test.ts).
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { post, send } from './server-harness.ts';
import type { RawResponse } from './server-harness.ts';
import { startNode, tempDir } from './server-process-harness.ts';
import type { NodeProcess } from './server-process-harness.ts';

const adminCall = [{ jsonrpc: '2.0', id: 0, method: 'nodeAdmin_getConfig', params: [] }];
const publicCall = [{ jsonrpc: '2.0', id: 0, method: 'node_getChainId', params: [] }];

function preflight(url: string, origin: string): Promise<RawResponse> {
  return send(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, x-api-key',
    },
  });
}

function withHost(url: string, host: string, body: unknown): Promise<RawResponse> {
  return post(url, body, { host });
}

describe('default flags (no key, to show that the lists alone stop a page)', () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNode(['--data-directory', '', '--no-admin-api-key', '--sequencer=false'], {
      cwd: await tempDir(),
    });
  });
  after(() => node.stop());

  it('a preflight from a foreign origin on the admin port gets no allow-origin', async () => {
    const res = await preflight(node.adminUrl, 'https://evil.example');
    assert.equal(res.status, 403);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal(res.headers['access-control-allow-headers'], undefined);
    assert.match(res.json().error.message, /--admin-cors-origin/);
    // Nor does the page's POST run (a simple request without preflight is refused the same way).
    const call = await post(node.adminUrl, [{ jsonrpc: '2.0', id: 0, method: 'nodeAdmin_pauseSync', params: [] }], {
      origin: 'https://evil.example',
    });
    assert.equal(call.status, 403);
    const status = (await send(node.adminUrl, { method: 'GET', path: '/status' })).json();
    assert.notEqual(status.syncState, 'paused', 'the refused nodeAdmin_pauseSync did not run');
  });

  it('the public port keeps answering every origin with *', async () => {
    const res = await preflight(node.publicUrl, 'https://wallet.example');
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(
      (await post(node.publicUrl, publicCall, { origin: 'https://wallet.example' })).headers[
        'access-control-allow-origin'
      ],
      '*',
    );
  });

  it('Host: evil.example is refused with 403 on both ports (bound to loopback); localhost, 127.0.0.1 and [::1] work', async () => {
    for (const [url, body] of [
      [node.adminUrl, adminCall],
      [node.publicUrl, publicCall],
    ] as const) {
      const port = new URL(url).port;
      for (const host of ['evil.example', `evil.example:${port}`]) {
        const res = await withHost(url, host, body);
        assert.equal(res.status, 403, `${url} ${host}`);
        assert.equal(res.json().error.code, -32600);
        assert.equal(res.json().id, null);
      }
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
        const res = await withHost(url, host, body);
        assert.equal(res.status, 200, `${url} ${host}`);
        assert.ok('result' in res.json()[0], `${url} ${host}: ${res.text}`);
      }
    }
  });
});

describe('configured lists', () => {
  let node: NodeProcess;
  const docs = 'http://127.0.0.1:4000';
  before(async () => {
    node = await startNode(
      [
        '--data-directory',
        '',
        '--no-admin-api-key',
        '--sequencer=false',
        '--admin-cors-origin',
        docs,
        '--vhosts',
        'rpc.example',
        '--admin-vhosts',
        'admin.example,127.0.0.1',
      ],
      { cwd: await tempDir() },
    );
  });
  after(() => node.stop());

  it('a configured origin gets exactly that origin back on the admin port, never *', async () => {
    const pre = await preflight(node.adminUrl, docs);
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], docs);
    assert.equal(pre.headers['access-control-allow-credentials'], undefined);
    assert.match(String(pre.headers['access-control-allow-headers']), /x-api-key/);
    const res = await post(node.adminUrl, adminCall, { origin: docs });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], docs);
    assert.equal((await preflight(node.adminUrl, 'https://evil.example')).status, 403);
  });

  it('configured Host lists replace the defaults', async () => {
    assert.equal((await withHost(node.publicUrl, 'rpc.example:8080', publicCall)).status, 200);
    assert.equal((await withHost(node.publicUrl, 'localhost', publicCall)).status, 403);
    assert.equal((await withHost(node.adminUrl, 'admin.example', adminCall)).status, 200);
    assert.equal((await withHost(node.adminUrl, 'rpc.example', adminCall)).status, 403);
  });
});
