/**
 * A node following another over RPC without p2p (`--follow <url>`): node_sendTx is validated
 * here and forwarded to the followed node (its refusal, or -32002 when it is down, is the
 * caller's answer, and the tx leaves this pool); admin pause/resume and rollback act on the
 * follower; a follower started with other chain flags than the followed node refuses to start,
 * naming the flag.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainFlags, NODE_BIN, ok, pendingCountIs, rpc, txFor, waitFor } from './node-harness.ts';
import { runNode, startNode, tempDir, type NodeProcess } from './server-process-harness.ts';

async function status(node: NodeProcess): Promise<any> {
  return (await fetch(`${node.publicUrl}/status`)).json();
}

async function admin(url: string, method: string, ...params: unknown[]): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  assert.equal(body.error, undefined, JSON.stringify(body.error));
  return body.result;
}

async function mined(node: NodeProcess, txHash: string): Promise<any> {
  return waitFor(`${txHash.slice(0, 10)} mined at ${node.publicUrl}`, async () => {
    const r = await ok(node.publicUrl, 'node_getTxReceipt', txHash);
    return r.status === 'mined' ? r : undefined;
  });
}

const importLines = (n: NodeProcess) =>
  n
    .stderr()
    .split('\n')
    .filter((l) => l.includes('"msg":"follower: imported blocks"')).length;

describe('node following over RPC (--follow, no p2p)', { timeout: 90_000 }, () => {
  it('forwards txs, obeys admin pause/resume and rollback, refuses other chain flags at start, reports a source that is down', async () => {
    const genesis = Math.floor(Date.now() / 1000);
    // No proofs during the test: nothing is finalized, so a rollback needs no force.
    const flags = [...chainFlags(genesis), '--proof-delay', '600'];
    const proposer = await startNode(['--data-directory', '', ...flags], { cwd: await tempDir(), node: NODE_BIN });
    let follower: NodeProcess | undefined;
    let proposerUp = true;
    try {
      follower = await startNode(['--data-directory', '', '--follow', proposer.publicUrl, ...flags], {
        cwd: await tempDir(),
        node: NODE_BIN,
      });
      const f = follower;
      assert.match(
        f.stderr(),
        /"msg":"chain".*"role":"follower","follow":\{"over":"rpc","source":"http:\/\/127\.0\.0\.1:\d+"\},"sequencer":false,"p2p":"disabled"/,
      );

      // Sent to the follower, forwarded to the proposer (no p2p), mined there and imported here.
      const tx1 = await txFor(f.publicUrl, 0x1003n, 0x5f0001n);
      assert.equal(await ok(f.publicUrl, 'node_sendTx', tx1.wire), null);
      assert.equal(
        (await ok(proposer.publicUrl, 'node_getTxByHash', tx1.hash)) !== null ||
          (await ok(proposer.publicUrl, 'node_getTxReceipt', tx1.hash)).status === 'mined',
        true,
        'the proposer had the tx when node_sendTx answered',
      );
      assert.deepEqual(await mined(f, tx1.hash), await mined(proposer, tx1.hash));
      await waitFor('caught up', async () => ((await status(f)).syncState === 'caught-up' ? true : undefined));
      assert.equal((await ok(f.publicUrl, 'node_getWorldStateSyncStatus')).treesAreSynched, true);

      // Other chain flags than the followed node: refused at start, naming the flag.
      const refused = async (extra: string[]) => {
        const r = await runNode(
          [
            '--port',
            '0',
            '--admin-port',
            '0',
            '--data-directory',
            '',
            ...flags,
            '--follow',
            proposer.publicUrl,
            ...extra,
          ],
          { cwd: await tempDir(), node: NODE_BIN },
        );
        assert.equal(r.code, 1, r.stderr);
        return r.stderr;
      };
      assert.match(
        await refused(['--l1-chain-id', '5']),
        /runs another chain: --l1-chain-id 5 \(followed node: 31337\)/,
      );
      assert.match(
        await refused(['--genesis-time', String(genesis - 7)]),
        /runs another chain: block 1 is in slot \d+ at \d+, which here starts at \d+: --genesis-time or --slot-duration differ/,
      );
      assert.match(
        await refused(['--follow', 'ftp://x']),
        /invalid value \\"ftp:\/\/x\\" for --follow: must be an http:\/\/ or https:\/\/ URL/,
      );

      // Paused: the proposer moves on, the follower stays (and says so); resumed: it catches up.
      assert.equal(await admin(f.adminUrl, 'nodeAdmin_pauseSync'), null);
      assert.equal((await status(f)).syncState, 'paused');
      assert.equal((await ok(f.publicUrl, 'node_getWorldStateSyncStatus')).treesAreSynched, false);
      const frozen = await ok<number>(f.publicUrl, 'node_getBlockNumber');
      const tx2 = await txFor(f.publicUrl, 0x1003n, 0x5f0011n);
      await ok(f.publicUrl, 'node_sendTx', tx2.wire);
      const r2 = await mined(proposer, tx2.hash);
      await new Promise((r) => setTimeout(r, 1500)); // three poll intervals
      assert.equal(await ok<number>(f.publicUrl, 'node_getBlockNumber'), frozen);
      assert.equal((await ok(f.publicUrl, 'node_getTxReceipt', tx2.hash)).status, 'pending');
      assert.equal(await admin(f.adminUrl, 'nodeAdmin_resumeSync'), null);
      assert.deepEqual(await mined(f, tx2.hash), r2);
      await pendingCountIs(f.publicUrl, 0); // the pool lets the imported tx go just after the batch's commit

      // Rollback to genesis: the blocks are unwound, then imported again from the proposer.
      const tip = await ok<number>(proposer.publicUrl, 'node_getBlockNumber');
      await waitFor('caught up', async () => ((await status(f)).follow.lastGoodBlock === tip ? true : undefined));
      const before = importLines(f);
      assert.equal(await admin(f.adminUrl, 'nodeAdmin_rollbackTo', 0), null);
      await waitFor('re-synced after the rollback', async () =>
        importLines(f) > before && (await status(f)).follow.lastGoodBlock === tip ? true : undefined,
      );
      assert.equal(
        await ok<number>(proposer.publicUrl, 'node_getBlockNumber'),
        tip,
        'the proposer built nothing meanwhile',
      );
      for (let n = 1; n <= tip; n++)
        assert.deepEqual(await ok(f.publicUrl, 'node_getBlock', n), await ok(proposer.publicUrl, 'node_getBlock', n));

      // The followed node is down: the tx is not taken (-32002) and leaves the follower's pool.
      assert.equal(await proposer.stop('SIGTERM'), 0);
      proposerUp = false;
      const tx3 = await txFor(f.publicUrl, 0x1003n, 0x5f0021n);
      const r = await rpc(f.publicUrl, 'node_sendTx', tx3.wire);
      assert.equal(r.error?.code, -32002);
      assert.match(r.error!.message, /^Node not ready: the followed node did not take the tx \(/);
      const receipt = await ok(f.publicUrl, 'node_getTxReceipt', tx3.hash);
      assert.equal(receipt.status, 'dropped');
      assert.match(receipt.error, /^not accepted by the followed node: Node not ready/);
      assert.equal(await ok(f.publicUrl, 'node_getPendingTxCount'), 0);
    } finally {
      if (follower !== undefined) assert.equal(await follower.stop('SIGTERM'), 0);
      if (proposerUp) assert.equal(await proposer.stop('SIGTERM'), 0);
    }
  });
});
