/**
 * The node process in memory (`--data-directory ''`: a working chain, nothing written) and two
 * nodes over p2p: a tx sent to a node that does not build blocks is gossiped to one that does,
 * goes through its validation into its pool and is mined there, and the first node, following
 * over p2p, sees it mined; both publish an ENR.
 * @module
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { NODE_BIN, chainFlags, ok, txFor, waitFor } from './node-harness.ts';
import { startNode, tempDir, type NodeProcess } from './server-process-harness.ts';

const PAYER = 0x1003n;

async function status(node: NodeProcess): Promise<any> {
  return (await fetch(`${node.publicUrl}/status`)).json();
}

describe('node process without a disk, and with p2p', { timeout: 120_000 }, () => {
  it("--data-directory '' runs the chain in memory and writes nothing", async () => {
    const cwd = await tempDir();
    const node = await startNode(['--data-directory', '', ...chainFlags(Math.floor(Date.now() / 1000))], {
      cwd,
      node: NODE_BIN,
    });
    try {
      await waitFor('the funded accounts', async () => (/1003\s+\d+\n/.test(node.stdout()) ? true : undefined), 5000);
      assert.match(node.stderr(), /"dataDirectory":"\(in memory\)","database":"sqlite :memory:"/);
      const tx = await txFor(node.publicUrl, PAYER, 0x3e3e0001n);
      await ok(node.publicUrl, 'node_sendTx', tx.wire);
      const r = await waitFor('mined', async () => {
        const receipt = await ok(node.publicUrl, 'node_getTxReceipt', tx.hash);
        return receipt.status === 'mined' ? receipt : undefined;
      });
      assert.equal((await ok(node.publicUrl, 'node_getTxEffect', tx.hash)).l2BlockNumber, r.blockNumber);
    } finally {
      assert.equal(await node.stop('SIGTERM'), 0);
    }
    assert.deepEqual(await readdir(cwd), []);
  });

  it('a tx sent to a non-sequencing peer is gossiped, validated and mined by the sequencing one', async () => {
    const genesis = Math.floor(Date.now() / 1000);
    const p2pFlags = ['--data-directory', '', '--p2p-enabled', '--p2p-port', '0', ...chainFlags(genesis)];
    const a = await startNode(p2pFlags, { cwd: await tempDir(), node: NODE_BIN });
    let b: NodeProcess | undefined;
    try {
      const chainLine = await waitFor(
        'the chain log line',
        async () =>
          a
            .stderr()
            .split('\n')
            .find((l) => l.includes('"msg":"chain"')),
        5000,
      );
      const listen: string[] = JSON.parse(chainLine).p2p.listen;
      assert.ok(listen.length > 0 && listen[0]!.includes('/p2p/'), 'the start log names the p2p addresses');
      b = await startNode([...p2pFlags, '--sequencer=false', '--p2p-bootstrap-peers', listen[0]!], {
        cwd: await tempDir(),
        node: NODE_BIN,
      });
      for (const n of [a, b]) assert.match(await ok(n.publicUrl, 'node_getEncodedEnr'), /^enr:/);
      assert.equal((await ok(a.publicUrl, 'node_getNodeInfo')).enr, await ok(a.publicUrl, 'node_getEncodedEnr'));
      const bNode = b;
      await waitFor('a gossip mesh', async () =>
        (await status(a)).p2p.txTopicPeers >= 1 && (await status(bNode)).p2p.txTopicPeers >= 1 ? true : undefined,
      );

      const tx = await txFor(b.publicUrl, PAYER, 0x9e9e0001n);
      await ok(b.publicUrl, 'node_sendTx', tx.wire);
      const atA = await waitFor('mined at the sequencing node', async () => {
        const r = await ok(a.publicUrl, 'node_getTxReceipt', tx.hash);
        return r.status === 'mined' ? r : undefined;
      });
      assert.ok(atA.blockNumber >= 1);
      // b builds no blocks: it follows a over p2p (the announcement wakes it) and sees the tx mined in a's block.
      const atB = await waitFor('mined at the following node', async () => {
        const r = await ok(bNode.publicUrl, 'node_getTxReceipt', tx.hash);
        return r.status === 'mined' ? r : undefined;
      });
      assert.deepEqual(atB, atA);
      const st = await status(b);
      assert.equal(st.sequencer, false);
      assert.equal(st.p2p.running, true);
      assert.equal(st.follow.over, 'p2p');
    } finally {
      if (b !== undefined) assert.equal(await b.stop('SIGTERM'), 0);
      assert.equal(await a.stop('SIGTERM'), 0);
    }
  });
});
