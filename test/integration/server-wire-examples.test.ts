/**
 * The real Aztec 4.1.2 client's requests (test/wire/examples) against both generated method
 * tables: every request passes envelope, lookup and params validation, and the answer has the
 * shape that client requires (HTTP 200, an array of the same length, ids matching by position).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { adminMethods } from '../../src/generated/admin/methods.ts';
import { publicMethods } from '../../src/generated/public/methods.ts';
import { hashApiKey } from '../../src/config/admin-api-key.ts';
import { createApiKeyAuth } from '../../src/server/auth.ts';
import { createRpcServer } from '../../src/server/http.ts';
import type { RpcServer } from '../../src/server/http.ts';
import { silentLogger } from '../../src/server/logger.ts';
import { post } from './server-harness.ts';

const EXAMPLES = new URL('../../test/wire/examples/', import.meta.url);
const KEY = 'wire-example-key';
const limits = { maxBodyBytes: 1_048_576, maxBatchSize: 100 };

let publicServer: RpcServer;
let adminServer: RpcServer;
let publicUrl: string;
let adminUrl: string;
before(async () => {
  // No handlers: every valid call must reach dispatch and answer -32001.
  publicServer = createRpcServer({ methods: publicMethods, handlers: {}, limits, logger: silentLogger });
  adminServer = createRpcServer({
    methods: adminMethods,
    handlers: {},
    limits,
    logger: silentLogger,
    auth: createApiKeyAuth(hashApiKey(KEY)),
  });
  publicUrl = `http://127.0.0.1:${(await publicServer.listen(0, '127.0.0.1')).port}`;
  adminUrl = `http://127.0.0.1:${(await adminServer.listen(0, '127.0.0.1')).port}`;
});
after(() => Promise.all([publicServer.close(), adminServer.close()]));

const files = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('requests of the real 4.1.2 client', () => {
  it('there are examples for both surfaces', () => {
    assert.ok(files.some((f) => f.startsWith('node_')) && files.some((f) => f.startsWith('nodeAdmin_')));
  });

  for (const file of files) {
    it(`${file.replace(/\.json$/, '')}: accepted, answered as an id-matched array`, async () => {
      const { request } = JSON.parse(readFileSync(new URL(file, EXAMPLES), 'utf8')) as {
        request: { id: number; method: string }[];
      };
      const isAdmin = file.startsWith('nodeAdmin_');
      const res = await post(isAdmin ? adminUrl : publicUrl, request, isAdmin ? { 'x-api-key': KEY } : {});
      assert.equal(res.status, 200);
      const body = res.json() as { id: number; error?: { code: number; message: string } }[];
      assert.deepEqual(
        body.map((r) => r.id),
        request.map((r) => r.id),
      );
      for (const element of body) {
        assert.equal(element.error?.code, -32001, `${element.error?.message}`);
        assert.equal(typeof element.error?.message, 'string');
      }
    });
  }
});
