/**
 * The admin side over the running node: nodeAdmin_pauseSync stops block production (GET
 * /status says `paused`, the block number stays), nodeAdmin_resumeSync restarts it.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NODE_BIN, chainFlags, ok, txFor, waitFor } from './node-harness.ts';
import { startNode, tempDir } from './server-process-harness.ts';

async function admin(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  assert.equal(body.error, undefined, JSON.stringify(body.error));
  return body.result;
}

describe('node process: sync pause and resume', { timeout: 60_000 }, () => {
  it('pausing freezes the chain and /status reports it; resuming continues', async () => {
    const node = await startNode(
      ['--data-directory', '', '--build-empty-blocks', ...chainFlags(Math.floor(Date.now() / 1000))],
      { cwd: await tempDir(), node: NODE_BIN },
    );
    try {
      await waitFor('a first block', async () =>
        (await ok<number>(node.publicUrl, 'node_getBlockNumber')) >= 1 ? true : undefined,
      );
      assert.equal(await admin(node.adminUrl, 'nodeAdmin_pauseSync'), null);
      const status = (await (await fetch(`${node.publicUrl}/status`)).json()) as { syncState: string };
      assert.equal(status.syncState, 'paused');
      const frozen = await ok<number>(node.publicUrl, 'node_getBlockNumber');
      await new Promise((r) => setTimeout(r, 2500)); // more than two 1-second slots
      assert.equal(await ok<number>(node.publicUrl, 'node_getBlockNumber'), frozen);
      await admin(node.adminUrl, 'nodeAdmin_resumeSync');
      await waitFor(
        'blocks again',
        async () => ((await ok<number>(node.publicUrl, 'node_getBlockNumber')) > frozen ? true : undefined),
        10_000,
      );
    } finally {
      assert.equal(await node.stop('SIGTERM'), 0);
    }
  });
});

describe('node process: rollback re-admits the unwound txs', { timeout: 60_000 }, () => {
  it('a mined tx is pending again after nodeAdmin_rollbackTo(block before it), then mined again', async () => {
    // Nothing finalizes during the test (long proof delay), so the rollback needs no force.
    const flags = chainFlags(Math.floor(Date.now() / 1000) - 5).map((f, i, all) =>
      all[i - 1] === '--proof-delay' ? '100000' : f,
    );
    const node = await startNode(['--data-directory', '', ...flags], { cwd: await tempDir(), node: NODE_BIN });
    try {
      const url = node.publicUrl;
      const minedIn = async (hash: string) => {
        const r = await ok(url, 'node_getTxReceipt', hash);
        return r.status === 'pending' || r.status === 'dropped'
          ? undefined
          : (r as { blockNumber: number; blockHash: string });
      };
      const a = await txFor(url, 0x1002n, 0x5011ba0001n);
      await ok(url, 'node_sendTx', a.wire);
      const first = await waitFor('tx mined', () => minedIn(a.hash), 10_000);
      assert.equal(await admin(node.adminUrl, 'nodeAdmin_pauseSync'), null);
      assert.equal(await admin(node.adminUrl, 'nodeAdmin_rollbackTo', [first.blockNumber - 1]), null);
      // The rollback resumes sync, so the re-admitted tx may already be in a new block: pending, or mined elsewhere.
      const now = await ok(url, 'node_getTxReceipt', a.hash);
      if (now.status === 'pending') {
        // Listed as pending, unless a block mined it between the two reads (then its receipt says so).
        const listed = (await ok<{ txHash: string }[]>(url, 'node_getPendingTxs')).some((t) => t.txHash === a.hash);
        if (!listed) assert.ok((await minedIn(a.hash)) !== undefined, 'left the pool only by being mined');
      }
      // Without the re-admission the tx would be unknown to chain and pool: 'dropped'.
      else assert.notEqual(now.status, 'dropped');
      const again = await waitFor('tx mined again', () => minedIn(a.hash), 10_000);
      assert.ok(again.blockNumber >= first.blockNumber);
    } finally {
      assert.equal(await node.stop('SIGTERM'), 0);
    }
  });
});
