/**
 * Issue 9's "done when": three node processes form one chain. A proposer (sequencer and p2p on,
 * 1-second slots) and two followers bootstrapped to it over p2p — one following over p2p
 * (`--sequencer=false`), one over the proposer's RPC (`--follow`). Txs sent to the followers
 * reach the proposer by gossip and are mined; both followers reach the same tips, blocks, tree
 * roots, witnesses and receipts; a stopped follower restarts on its data directory and catches
 * up; and a `--follow` follower behind a proxy that alters one field of one block stops at the
 * last good block, with the error in GET /status and node_getWorldStateSyncStatus.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startProxy } from './sync-harness.ts';
import { chainFlags, hex, NodeGroup, ok, p2pAddress, pendingCountIs, txFor, waitFor } from './node-harness.ts';
import { tempDir, type NodeProcess } from './server-process-harness.ts';

async function status(node: NodeProcess): Promise<any> {
  return (await fetch(`${node.publicUrl}/status`)).json();
}

async function minedEverywhere(nodes: readonly NodeProcess[], txHash: string): Promise<any[]> {
  return waitFor(`tx ${txHash.slice(0, 10)} mined on every node`, async () => {
    const receipts = await Promise.all(nodes.map((n) => ok(n.publicUrl, 'node_getTxReceipt', txHash)));
    return receipts.every((r) => r.status === 'mined') ? receipts : undefined;
  });
}

/** Blocks 1..tip, the world-state status and a nullifier witness at the tip, as a node serves them. */
async function snapshot(node: NodeProcess, tip: number, nullifier: string) {
  const blocks = [];
  for (let n = 1; n <= tip; n++) blocks.push(await ok(node.publicUrl, 'node_getBlock', n));
  const sync = await ok(node.publicUrl, 'node_getWorldStateSyncStatus');
  const witness = await ok(node.publicUrl, 'node_getNullifierMembershipWitness', tip, nullifier);
  const archivePath = await ok(node.publicUrl, 'node_getArchiveSiblingPath', tip, '1');
  return { blocks, latest: [sync.latestBlockNumber, sync.latestBlockHash], witness, archivePath };
}

describe('three node processes form one chain', { timeout: 90_000 }, () => {
  it('a proposer and two followers (p2p and --follow): txs via followers mined, same chain everywhere, restart catches up, a tampered block is refused', async () => {
    const genesis = Math.floor(Date.now() / 1000);
    const common = [...chainFlags(genesis), '--p2p-port', '0'];
    const nodes = new NodeGroup();
    const start = (args: string[]) => nodes.start(args);
    const stop = (n: NodeProcess) => nodes.stop(n);
    let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
    try {
      const proposer = await start(['--data-directory', '', '--p2p-enabled', ...common]);
      const boot = ['--p2p-bootstrap-peers', p2pAddress(proposer)];
      const p2pDir = await tempDir();
      const p2pArgs = ['--data-directory', p2pDir, '--sequencer=false', ...boot, ...common];
      let [viaP2p, viaRpc] = await Promise.all([
        start(p2pArgs),
        start(['--data-directory', '', '--follow', proposer.publicUrl, ...boot, ...common]),
      ]);
      const followers = () => [viaP2p, viaRpc];
      assert.equal((await status(viaP2p)).follow.over, 'p2p');
      assert.deepEqual(
        [(await status(viaRpc)).follow.over, (await status(viaRpc)).follow.source],
        ['rpc', proposer.publicUrl],
      );
      for (const f of followers()) {
        assert.equal(await ok(f.publicUrl, 'node_isReady'), true);
        assert.equal((await status(f)).sequencer, false);
      }
      // Txs go to the proposer by gossip: wait until both followers are in its tx topic mesh.
      await waitFor('gossip mesh', async () =>
        (await status(proposer)).p2p.txTopicPeers >= 2 &&
        (await status(viaP2p)).p2p.txTopicPeers >= 1 &&
        (await status(viaRpc)).p2p.txTopicPeers >= 1
          ? true
          : undefined,
      );

      // Txs built for funded dev accounts, sent to the followers only.
      const sent: string[] = [];
      for (let i = 0; i < 3; i++) {
        const tx = await txFor(viaP2p.publicUrl, 0x1003n, 0x7a0001n + BigInt(i) * 16n);
        assert.equal(await ok(viaP2p.publicUrl, 'node_sendTx', tx.wire), null);
        sent.push(tx.hash);
      }
      for (let i = 0; i < 2; i++) {
        const tx = await txFor(viaRpc.publicUrl, 0x1002n, 0x7b0001n + BigInt(i) * 16n);
        await ok(viaRpc.publicUrl, 'node_sendTx', tx.wire);
        sent.push(tx.hash);
      }
      for (const h of sent) {
        const [atProposer, ...atFollowers] = await minedEverywhere([proposer, ...followers()], h);
        for (const r of atFollowers) assert.deepEqual(r, atProposer, `receipt of ${h}`);
      }
      // The followers' pools let the mined txs go.
      // (Just after the batch's commit that made the receipts 'mined'.)
      for (const f of followers()) await pendingCountIs(f.publicUrl, 0);

      const assertSameChain = async () => {
        const tip = await ok<number>(proposer.publicUrl, 'node_getBlockNumber');
        // The --follow follower mirrors all tips (checkpoints and proof tips come over RPC); over p2p only blocks travel.
        const tips = await waitFor('the --follow follower at the same tips', async () => {
          const [p, r] = await Promise.all([
            ok(proposer.publicUrl, 'node_getL2Tips'),
            ok(viaRpc.publicUrl, 'node_getL2Tips'),
          ]);
          return JSON.stringify(p) === JSON.stringify(r) && p.proposed.number === tip ? p : undefined;
        });
        await waitFor('the p2p follower at the same proposed tip', async () => {
          const t = await ok(viaP2p.publicUrl, 'node_getL2Tips');
          return JSON.stringify(t.proposed) === JSON.stringify(tips.proposed) ? true : undefined;
        });
        const effect = await ok(proposer.publicUrl, 'node_getTxEffect', sent[0]);
        const nullifier = effect.data.nullifiers[0];
        const expected = await snapshot(proposer, tip, nullifier);
        assert.equal(expected.blocks.length, tip);
        for (const f of followers()) {
          assert.deepEqual(await snapshot(f, tip, nullifier), expected);
          const sync = await ok(f.publicUrl, 'node_getWorldStateSyncStatus');
          assert.equal(sync.treesAreSynched, true);
          const st = await status(f);
          assert.equal(st.syncState, 'caught-up');
          assert.equal(st.follow.lastGoodBlock, tip);
        }
        return tip;
      };
      const firstTip = await assertSameChain();

      // Stop the p2p follower; the chain moves on; it restarts on its data directory and catches up.
      await stop(viaP2p);
      const more: string[] = [];
      for (let i = 0; i < 2; i++) {
        const tx = await txFor(viaRpc.publicUrl, 0x1002n, 0x7c0001n + BigInt(i) * 16n);
        await ok(viaRpc.publicUrl, 'node_sendTx', tx.wire);
        more.push(tx.hash);
        await minedEverywhere([proposer, viaRpc], tx.hash);
      }
      viaP2p = await start(p2pArgs);
      assert.equal(
        (await ok(viaP2p.publicUrl, 'node_getBlockNumber')) >= firstTip,
        true,
        'the restarted follower kept its blocks',
      );
      for (const h of more) await minedEverywhere([proposer, ...followers()], h);
      const secondTip = await assertSameChain();
      assert.ok(secondTip > firstTip);

      // A --follow follower behind a proxy that alters one note hash of block 2: it stops at block 1.
      const bad = 2;
      proxy = await startProxy(proposer.publicUrl, (method, _params, result) => {
        if (method !== 'node_getBlocks' || !Array.isArray(result)) return result;
        for (const b of result)
          if (b.header.globalVariables.blockNumber === bad) b.body.txEffects[0].noteHashes[0] = hex(0x5n);
        return result;
      });
      const tampered = await start(['--data-directory', '', '--follow', proxy.url, ...chainFlags(genesis)]);
      const st = await waitFor('the tampered block refused', async () => {
        const s = await status(tampered);
        return s.syncState === 'stopped-on-mismatch' ? s : undefined;
      });
      assert.equal(st.follow.lastGoodBlock, bad - 1);
      assert.match(st.follow.error, /^block 2 refused: block 2 header does not match the world state: noteHashTree$/);
      assert.equal(st.latestBlockNumber, bad - 1);
      const sync = await ok(tampered.publicUrl, 'node_getWorldStateSyncStatus');
      assert.equal(sync.latestBlockNumber, bad - 1);
      assert.equal(sync.treesAreSynched, false);
      assert.deepEqual(
        await ok(tampered.publicUrl, 'node_getBlock', bad - 1),
        await ok(proposer.publicUrl, 'node_getBlock', bad - 1),
      );
      assert.equal(await ok(tampered.publicUrl, 'node_getBlock', bad), null);
      assert.match(tampered.stderr(), /"level":"error","msg":"follower: stopped on a block that does not verify"/);
    } finally {
      await proxy?.close();
      await nodes.stopAll();
    }
  });
});
