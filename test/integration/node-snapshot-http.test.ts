/**
 * Snapshots over HTTP on real processes (bin/l2node.js): node A (1-second slots, empty blocks)
 * builds a few blocks, is paused, and uploads a snapshot with nodeAdmin_startSnapshotUpload to
 * a local PUT/GET server (URL with credentials and a query string, neither of which may reach
 * the log); a refused PUT is logged as a failed upload with its status. Node B starts with
 * `--snapshot http://127.0.0.1:<port>/snap/` on an empty data directory and serves A's tip.
 * @module
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startSnapshotHttpServer } from '../unit/admin/snapshot-http-server.ts';
import { NODE_BIN, chainFlags, ok, startChainNode, waitFor } from './node-harness.ts';
import { printedKey, startNode, tempDir } from './server-process-harness.ts';

type RpcReply = { result?: unknown; error?: { code: number; message: string } };

async function adminCall(url: string, key: string, method: string, params: unknown[]): Promise<RpcReply> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  assert.equal(res.status, 200);
  return res.json() as Promise<RpcReply>;
}

const PASSWORD = 'n0t-for-logs';
const SIGNATURE = 'X-Signature=deadbeefsig';

describe('node process: snapshot over HTTP', { timeout: 120_000 }, () => {
  it("node A uploads to an HTTP server; node B started with --snapshot http://… serves A's tip", async () => {
    const server = await startSnapshotHttpServer();
    const genesis = Math.floor(Date.now() / 1000) - 1;
    const flagsWithKey = chainFlags(genesis).filter((f) => f !== '--no-admin-api-key');
    const a = await startNode(
      ['--data-directory', join(await tempDir(), 'a'), ...flagsWithKey, '--build-empty-blocks'],
      { cwd: await tempDir(), node: NODE_BIN },
    );
    let b: Awaited<ReturnType<typeof startChainNode>> | undefined;
    try {
      const key = await waitFor('the admin key banner', async () => printedKey(a.stdout()));
      await waitFor('a few blocks on A', async () =>
        (await ok<number>(a.publicUrl, 'node_getBlockNumber')) >= 3 ? true : undefined,
      );
      assert.equal((await adminCall(a.adminUrl, key, 'nodeAdmin_pauseSync', [])).error, undefined);
      await new Promise((r) => setTimeout(r, 300)); // a step already running finishes
      const tipsA = await ok(a.publicUrl, 'node_getL2Tips');

      const target = `${server.origin.replace('http://', `http://uploader:${PASSWORD}@`)}/snap/?${SIGNATURE}`;
      const started = await adminCall(a.adminUrl, key, 'nodeAdmin_startSnapshotUpload', [target]);
      assert.equal(started.error, undefined, JSON.stringify(started.error));
      await waitFor('the finished upload logged', async () =>
        /"msg":"snapshot upload finished"/.test(a.stderr()) ? true : undefined,
      );
      assert.ok(
        a.stderr().includes(`"directory":"${server.origin}/snap/"`),
        'the log names the URL without credentials or query',
      );
      assert.deepEqual(
        server.seen.filter((r) => r.method === 'PUT').map((r) => r.url),
        [`/snap/l2node.sqlite?${SIGNATURE}`, `/snap/snapshot.json?${SIGNATURE}`],
      );
      const meta = JSON.parse(server.files.get('/snap/snapshot.json')!.toString('utf8')) as {
        node: { latestBlock: number; latestBlockHash: string };
      };
      assert.deepEqual({ number: meta.node.latestBlock, hash: meta.node.latestBlockHash }, tipsA.proposed);

      // A store that refuses the PUT: the call still returns at once, the log has the status.
      server.behaviour = 'forbid-put';
      assert.equal(
        (await adminCall(a.adminUrl, key, 'nodeAdmin_startSnapshotUpload', [`${server.origin}/other/?${SIGNATURE}`]))
          .error,
        undefined,
      );
      await waitFor('the failed upload logged', async () =>
        /"msg":"snapshot upload failed".*HTTP 403/.test(a.stderr()) ? true : undefined,
      );
      // Object-store schemes are not spoken: a presigned https URL is the way there.
      assert.equal(
        (await adminCall(a.adminUrl, key, 'nodeAdmin_startSnapshotUpload', ['s3://bucket/snap'])).error?.code,
        -32602,
      );
      assert.ok(!a.stderr().includes(PASSWORD) && !a.stderr().includes('deadbeefsig'), "no secret in A's log");
      server.behaviour = 'store';

      b = await startChainNode(join(await tempDir(), 'b'), genesis, [
        '--snapshot',
        `${server.origin}/snap/`,
        '--sequencer=false',
      ]);
      assert.match(b.stderr(), /"msg":"snapshot restored"/);
      const tipsB = await ok(b.publicUrl, 'node_getL2Tips');
      assert.deepEqual(tipsB.proposed, tipsA.proposed);
      assert.deepEqual(tipsB.checkpointed, tipsA.checkpointed);
      for (let n = 1; n <= tipsA.proposed.number; n++)
        assert.deepEqual(
          await ok(b.publicUrl, 'node_getBlock', n),
          await ok(a.publicUrl, 'node_getBlock', n),
          `block ${n}`,
        );
    } finally {
      if (b !== undefined) assert.equal(await b.stop('SIGTERM'), 0);
      assert.equal(await a.stop('SIGTERM'), 0);
      await server.close();
    }
  });
});
