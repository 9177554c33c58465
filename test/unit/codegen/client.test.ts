/**
 * The generated client (small test documents) against a tiny node:http JSON-RPC server:
 * batching, id matching, JsonRpcError, HTTP errors and the admin API key header.
 * @module
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeMini } from './helpers.ts';

interface Call {
  jsonrpc: string;
  id: number;
  method: string;
  params: unknown[];
}
interface Seen {
  body: unknown;
  headers: IncomingHttpHeaders;
}

/** Answers each request with `reply(body)`; records bodies and headers. */
function rpcServer(reply: (body: any) => { status?: number; body: unknown }) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(text);
      seen.push({ body, headers: req.headers });
      const answer = reply(body);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  return { server, seen };
}

/** A node that answers getBlockNumber with 5, getBlock(n) with null, sendTx with an error. */
function answer(call: Call): object {
  if (call.method === 'node_getBlockNumber') return { jsonrpc: '2.0', id: call.id, result: 5 };
  if (call.method === 'node_sendTx')
    return {
      jsonrpc: '2.0',
      id: call.id,
      error: { code: -32020, message: 'Transaction rejected', data: { code: 'LOW_PRIORITY_FEE' } },
    };
  if (call.method === 'nodeAdmin_getConfig') return { jsonrpc: '2.0', id: call.id, result: { coinbase: '0x00' } };
  return { jsonrpc: '2.0', id: call.id };
}

describe('generated client.ts', () => {
  let dir: string;
  let pub: any;
  let admin: any;
  const servers: Server[] = [];
  const listen = async (reply: (body: any) => { status?: number; body: unknown }) => {
    const { server, seen } = rpcServer(reply);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, seen };
  };
  const batchReply = (body: Call[]) => ({ body: body.map(answer) });

  before(async () => {
    dir = await writeMini();
    pub = await import(pathToFileURL(join(dir, 'src/generated/public/client.ts')).href);
    admin = await import(pathToFileURL(join(dir, 'src/generated/admin/client.ts')).href);
  });
  after(async () => {
    for (const s of servers) s.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('calls made in the same tick go out as one batch, ids from 0, params positional', async () => {
    const { url, seen } = await listen(batchReply);
    const node = pub.createNodeClient(url);
    const [n, block, blocks] = await Promise.all([
      node.getBlockNumber(),
      node.getBlock('latest'),
      node.getLogsByTags(['0x01'], undefined),
    ]);
    assert.equal(n, 5);
    assert.equal(block, null);
    assert.equal(blocks, null);
    assert.equal(seen.length, 1);
    assert.deepEqual(seen[0].body, [
      { jsonrpc: '2.0', id: 0, method: 'node_getBlockNumber', params: [] },
      { jsonrpc: '2.0', id: 1, method: 'node_getBlock', params: ['latest'] },
      { jsonrpc: '2.0', id: 2, method: 'node_getLogsByTags', params: [['0x01']] },
    ]);
    assert.equal(seen[0].headers['content-type'], 'application/json');
  });

  it('batch: false sends one plain request per call; maxBatchSize splits batches', async () => {
    const single = await listen((body: Call) => ({ body: answer(body) }));
    assert.equal(await pub.createNodeClient(single.url, { batch: false }).getBlockNumber(), 5);
    assert.deepEqual(single.seen[0].body, { jsonrpc: '2.0', id: 0, method: 'node_getBlockNumber', params: [] });
    const split = await listen(batchReply);
    const node = pub.createNodeClient(split.url, { maxBatchSize: 2 });
    await Promise.all([node.getBlockNumber(), node.getBlockNumber(), node.getBlockNumber()]);
    assert.deepEqual(
      split.seen.map((s) => (s.body as Call[]).length),
      [2, 1],
    );
  });

  it('a JSON-RPC error rejects only its own call, as JsonRpcError with code, message and data', async () => {
    const { url } = await listen(batchReply);
    const node = pub.createNodeClient(url);
    const [ok, failed] = await Promise.allSettled([
      node.getBlockNumber(),
      node.sendTx({ data: 'AA', kind: 'private' }),
    ]);
    assert.deepEqual(ok, { status: 'fulfilled', value: 5 });
    assert.equal(failed.status, 'rejected');
    const error = (failed as PromiseRejectedResult).reason;
    assert.ok(error instanceof pub.JsonRpcError);
    assert.equal(error.code, -32020);
    assert.equal(error.message, 'Transaction rejected');
    assert.deepEqual(error.data, { code: 'LOW_PRIORITY_FEE' });
    assert.equal(error.is(-32020), true);
    assert.equal(error.is(-32010), false);
  });

  it('responses are matched by id when the server reorders them; a missing id is an id mismatch', async () => {
    const reordered = await listen((body: Call[]) => ({ body: body.map(answer).reverse().slice(0, 1) }));
    const node = pub.createNodeClient(reordered.url);
    const [first, second] = await Promise.allSettled([node.getBlockNumber(), node.getBlock(1)]);
    assert.equal(first.status, 'rejected');
    assert.match((first as PromiseRejectedResult).reason.message, /RPC id mismatch/);
    assert.deepEqual(second, { status: 'fulfilled', value: null });
  });

  it("HTTP non-2xx rejects every call with the body's error.message and code", async () => {
    const { url } = await listen(() => ({
      status: 401,
      body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Unauthorized' } },
    }));
    const node = pub.createNodeClient(url);
    const results = await Promise.allSettled([node.getBlockNumber(), node.getBlock(1)]);
    for (const r of results) {
      assert.equal(r.status, 'rejected');
      assert.equal((r as PromiseRejectedResult).reason.code, -32000);
      assert.equal((r as PromiseRejectedResult).reason.message, 'Unauthorized');
    }
  });

  it('the admin client sends x-api-key on every request', async () => {
    const { url, seen } = await listen(batchReply);
    const client = admin.createNodeAdminClient(url, { apiKey: 'secret-key' });
    assert.deepEqual(await client.getConfig(), { coinbase: '0x00' });
    assert.equal(await client.rollbackTo(3), undefined);
    assert.deepEqual(
      seen.map((s) => s.headers['x-api-key']),
      ['secret-key', 'secret-key'],
    );
  });
});
