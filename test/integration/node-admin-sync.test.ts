/**
 * The admin side over the running node: nodeAdmin_pauseSync stops block production (GET
 * /status says `paused`, the block number stays), nodeAdmin_resumeSync restarts it.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NODE_BIN, chainFlags, ok, waitFor } from './node-harness.ts';
import { startNode, tempDir } from './server-process-harness.ts';

async function admin(url: string, method: string): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }) });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  assert.equal(body.error, undefined, JSON.stringify(body.error));
  return body.result;
}

describe('node process: sync pause and resume', { timeout: 60_000 }, () => {
  it('pausing freezes the chain and /status reports it; resuming continues', async () => {
    const node = await startNode(['--data-directory', '', '--build-empty-blocks', ...chainFlags(Math.floor(Date.now() / 1000))], { cwd: await tempDir(), node: NODE_BIN });
    try {
      await waitFor('a first block', async () => ((await ok<number>(node.publicUrl, 'node_getBlockNumber')) >= 1 ? true : undefined));
      assert.equal(await admin(node.adminUrl, 'nodeAdmin_pauseSync'), null);
      const status = (await (await fetch(`${node.publicUrl}/status`)).json()) as { syncState: string };
      assert.equal(status.syncState, 'paused');
      const frozen = await ok<number>(node.publicUrl, 'node_getBlockNumber');
      await new Promise((r) => setTimeout(r, 2500)); // more than two 1-second slots
      assert.equal(await ok<number>(node.publicUrl, 'node_getBlockNumber'), frozen);
      await admin(node.adminUrl, 'nodeAdmin_resumeSync');
      await waitFor('blocks again', async () => ((await ok<number>(node.publicUrl, 'node_getBlockNumber')) > frozen ? true : undefined), 10_000);
    } finally {
      assert.equal(await node.stop('SIGTERM'), 0);
    }
  });
});
