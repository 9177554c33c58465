/**
 * One writer (a full node) and two read-only processes (`--role rpc`) on the same Postgres
 * database: txs sent through a reader are forwarded to the writer and mined; all three answer
 * the same tips, blocks, receipts and witnesses; pending txs and counts on a reader are the
 * writer's (read from the database); a state-changing admin call on a reader is -32053.
 * The readers connect with `default_transaction_read_only=on`, so any write of theirs fails.
 * Needs a server: `bash scripts/postgres-start.sh` (fails, saying so, without one).
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshPostgresDatabase, testDatabaseUrl } from '../unit/store/engines.ts';
import { chainFlags, hex, NODE_BIN, ok, pendingCountIs, rpc, txFor, waitFor } from './node-harness.ts';
import { runNode, startNode, tempDir, type NodeProcess } from './server-process-harness.ts';

/** The same URL, every transaction of its sessions read-only (a write fails with SQLSTATE 25006). */
function readOnlyUrl(url: string): string {
  const u = new URL(url);
  u.searchParams.set('options', '-c default_transaction_read_only=on');
  return u.toString();
}

async function adminCall(node: NodeProcess, method: string, ...params: unknown[]) {
  const res = await fetch(node.adminUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
}

/** Waits until every node gives the same answer to `method(params)`; returns it. */
async function sameEverywhere(nodes: NodeProcess[], method: string, ...params: unknown[]): Promise<unknown> {
  let last = '';
  return waitFor(`${method}(${JSON.stringify(params)}) equal on all nodes (last: ${last.slice(0, 300)})`, async () => {
    const answers = await Promise.all(nodes.map((n) => ok(n.publicUrl, method, ...params)));
    last = JSON.stringify(answers);
    return answers.every((a) => JSON.stringify(a) === JSON.stringify(answers[0])) ? answers[0] : undefined;
  });
}

describe("read-only RPC processes on the writer's Postgres database (--role rpc)", { timeout: 120_000 }, () => {
  it('forwards txs to the writer, answers like the writer once mined, and refuses state-changing admin calls', async () => {
    const db = await freshPostgresDatabase(testDatabaseUrl(), 'l2node_readers');
    const genesis = Math.floor(Date.now() / 1000);
    const flags = chainFlags(genesis);
    const nodes: NodeProcess[] = [];
    try {
      const cwd = await tempDir();
      // Before the writer made the chain, a reader refuses to start (it writes no genesis).
      const early = await runNode(
        [
          '--port',
          '0',
          '--admin-port',
          '0',
          '--data-directory',
          '',
          '--role',
          'rpc',
          '--database-url',
          readOnlyUrl(db.url),
          '--writer-url',
          'http://127.0.0.1:9',
          ...flags,
        ],
        { cwd, node: NODE_BIN },
      );
      assert.equal(early.code, 1, early.stderr);
      assert.match(
        early.stderr,
        /database schema version 0 is older than this l2node's|the database holds no chain yet/,
      );

      const writer = await startNode(['--data-directory', '', '--database-url', db.url, ...flags], {
        cwd: await tempDir(),
        node: NODE_BIN,
      });
      nodes.push(writer);
      const readerArgs = [
        '--data-directory',
        '',
        '--role',
        'rpc',
        '--database-url',
        readOnlyUrl(db.url),
        '--writer-url',
        writer.publicUrl,
        ...flags,
      ];
      const r1 = await startNode(readerArgs, { cwd: await tempDir(), node: NODE_BIN });
      nodes.push(r1);
      const r2 = await startNode(readerArgs, { cwd: await tempDir(), node: NODE_BIN });
      nodes.push(r2);
      assert.match(r1.stderr(), /"msg":"chain".*"role":"reader".*"sequencer":false,"p2p":"disabled"/);
      const status = (await (await fetch(`${r1.publicUrl}/status`)).json()) as Record<string, unknown>;
      assert.equal(status.status, 'ok', JSON.stringify(status));
      assert.equal(status.role, 'rpc');

      // Refused configurations, each named.
      const refused = async (extra: string[]) => {
        const r = await runNode(['--port', '0', '--admin-port', '0', '--data-directory', '', ...flags, ...extra], {
          cwd,
          node: NODE_BIN,
        });
        assert.equal(r.code, 1, r.stderr);
        return r.stderr;
      };
      assert.match(
        await refused(['--role', 'rpc', '--writer-url', writer.publicUrl]),
        /--role rpc needs --database-url/,
      );
      assert.match(await refused(['--role', 'rpc', '--database-url', db.url]), /--role rpc needs --writer-url/);
      assert.match(
        await refused(['--role', 'reader']),
        /invalid value \\"reader\\" for --role: must be one of full, rpc/,
      );

      // A malformed tx is refused by the reader itself; a good one is forwarded and pending everywhere at once.
      const bad = await rpc(r1.publicUrl, 'node_sendTx', { txHash: '0x01' });
      assert.equal(bad.error?.code, -32602, JSON.stringify(bad));
      // The writer builds nothing while these are compared, so both resends meet the same pool
      // (were tx1 mined between them, the second would rightly be 'Existing nullifier').
      assert.equal((await adminCall(writer, 'nodeAdmin_pauseSync')).error, undefined);
      const tx1 = await txFor(r1.publicUrl, 0x1003n, 0x7e0001n);
      const tx2 = await txFor(r2.publicUrl, 0x1002n, 0x7e0002n);
      assert.equal(await ok(r1.publicUrl, 'node_sendTx', tx1.wire), null);
      assert.equal(await ok(r2.publicUrl, 'node_sendTx', tx2.wire), null);
      // The writer's answer is the reader's answer (the same tx again: a duplicate is the writer's call).
      const again = await rpc(r2.publicUrl, 'node_sendTx', tx1.wire);
      const direct = await rpc(writer.publicUrl, 'node_sendTx', tx1.wire);
      assert.deepEqual(again.error ?? again.result, direct.error ?? direct.result);
      assert.equal((await adminCall(writer, 'nodeAdmin_resumeSync')).error, undefined);

      // Mined: the same receipts, tips, blocks and witnesses from all three.
      for (const tx of [tx1, tx2]) {
        await waitFor(`${tx.hash.slice(0, 10)} mined`, async () =>
          (await ok(writer.publicUrl, 'node_getTxReceipt', tx.hash)).status === 'mined' ? true : undefined,
        );
        const receipt = (await sameEverywhere(nodes, 'node_getTxReceipt', tx.hash)) as {
          status: string;
          blockNumber: number;
        };
        assert.equal(receipt.status, 'mined');
      }
      const tip = (await sameEverywhere(nodes, 'node_getBlockNumber')) as number;
      assert.ok(tip >= 1);
      await sameEverywhere(nodes, 'node_getL2Tips');
      for (let n = 1; n <= tip; n++) await sameEverywhere(nodes, 'node_getBlock', n);
      const w = (await sameEverywhere(nodes, 'node_getNullifierMembershipWitness', tip, hex(0x7e0001n))) as unknown;
      assert.notEqual(w, null);
      assert.notEqual(await sameEverywhere(nodes, 'node_getNoteHashMembershipWitness', tip, hex(0x7e0002n)), null);
      await sameEverywhere(nodes, 'node_getWorldStateSyncStatus');
      assert.deepEqual(await sameEverywhere(nodes, 'node_getPendingTxCount'), 0);

      // Pending txs come from the database: a tx the writer holds (none built while paused) is seen by both readers.
      assert.equal((await adminCall(writer, 'nodeAdmin_pauseSync')).error, undefined);
      const tx3 = await txFor(r1.publicUrl, 0x1001n, 0x7e0003n);
      assert.equal(await ok(r1.publicUrl, 'node_sendTx', tx3.wire), null);
      for (const r of [r1, r2]) {
        assert.equal(await ok(r.publicUrl, 'node_getPendingTxCount'), 1);
        assert.equal(((await ok(r.publicUrl, 'node_getPendingTxs')) as unknown[]).length, 1);
        assert.equal(((await ok(r.publicUrl, 'node_getTxByHash', tx3.hash)) as { txHash: string }).txHash, tx3.hash);
        assert.equal((await ok(r.publicUrl, 'node_getTxReceipt', tx3.hash)).status, 'pending');
      }
      assert.deepEqual(
        await ok(r1.publicUrl, 'node_getMaxPriorityFees'),
        await ok(writer.publicUrl, 'node_getMaxPriorityFees'),
      );
      assert.equal((await adminCall(writer, 'nodeAdmin_resumeSync')).error, undefined);
      await waitFor('tx3 mined on a reader', async () =>
        (await ok(r2.publicUrl, 'node_getTxReceipt', tx3.hash)).status === 'mined' ? true : undefined,
      );
      // The block's txs left the pool in the block's own transaction: the count agrees with the receipt.
      await pendingCountIs(r2.publicUrl, 0);

      // Admin on a reader: reads work, state-changing methods are READ_ONLY_NODE.
      assert.equal((await adminCall(r1, 'nodeAdmin_getConfig')).error, undefined);
      for (const [method, params] of [
        ['nodeAdmin_pauseSync', []],
        ['nodeAdmin_resumeSync', []],
        ['nodeAdmin_setConfig', [{ maxPendingTxCount: 5 }]],
        ['nodeAdmin_rollbackTo', [0]],
        ['nodeAdmin_startSnapshotUpload', ['file:///tmp/x']],
        ['nodeAdmin_reloadKeystore', []],
      ] as const) {
        const res = await adminCall(r1, method, ...params);
        assert.equal(res.error?.code, -32053, `${method}: ${JSON.stringify(res)}`);
        assert.equal(res.error?.message, 'Node is read-only');
      }
      // The readers logged no failed refresh (a write on their read-only sessions would have failed).
      for (const r of [r1, r2]) assert.doesNotMatch(r.stderr(), /database is not reachable|read-only transaction/);
    } finally {
      for (const n of nodes.reverse()) await n.stop();
      await db.drop();
    }
  });
});
