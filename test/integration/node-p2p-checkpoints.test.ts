/**
 * A follower over p2p only (`--sequencer=false`, bootstrapped to the proposer, no `--follow`)
 * takes checkpoints and proof tips from its peer through checkpoints-by-range, not only blocks:
 * its node_getL2Tips (proposed, checkpointed, proven, finalized) and node_getCheckpoints equal
 * the proposer's, and again after it restarts on its data directory while the chain moved on.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainFlags, NodeGroup, ok, p2pAddress, txFor, waitFor } from './node-harness.ts';
import { tempDir, type NodeProcess } from './server-process-harness.ts';

/** Sends txs to the proposer and waits until each is mined there. */
async function mine(proposer: NodeProcess, nullifiers: readonly bigint[]): Promise<void> {
  for (const nullifier of nullifiers) {
    const tx = await txFor(proposer.publicUrl, 0x1003n, nullifier);
    assert.equal(await ok(proposer.publicUrl, 'node_sendTx', tx.wire), null);
    await waitFor(`tx ${tx.hash.slice(0, 10)} mined`, async () =>
      (await ok(proposer.publicUrl, 'node_getTxReceipt', tx.hash)).status === 'mined' ? true : undefined,
    );
  }
}

/**
 * Waits until the proposer has sealed, proven and finalized everything it built, then until the
 * follower reports the very same tips; returns them.
 */
async function sameTips(proposer: NodeProcess, follower: NodeProcess): Promise<any> {
  const settled = await waitFor('the proposer finalizing its last block', async () => {
    const t = await ok(proposer.publicUrl, 'node_getL2Tips');
    return t.finalized.block.number === t.proposed.number && t.proposed.number > 0 ? t : undefined;
  });
  let last: unknown;
  try {
    return await waitFor("the p2p follower at the proposer's tips", async () => {
      const [p, f] = await Promise.all([
        ok(proposer.publicUrl, 'node_getL2Tips'),
        ok(follower.publicUrl, 'node_getL2Tips'),
      ]);
      last = { proposer: p, follower: f };
      return JSON.stringify(p) === JSON.stringify(f) && p.proposed.number === settled.proposed.number ? p : undefined;
    });
  } catch (err) {
    assert.fail(`${(err as Error).message}: ${JSON.stringify(last)}`);
  }
}

async function assertSameCheckpoints(proposer: NodeProcess, follower: NodeProcess, count: number): Promise<void> {
  const [p, f] = await Promise.all([
    ok(proposer.publicUrl, 'node_getCheckpoints', 1, count),
    ok(follower.publicUrl, 'node_getCheckpoints', 1, count),
  ]);
  assert.equal(p.length, count);
  assert.deepEqual(f, p);
}

describe('a follower over p2p only', { timeout: 60_000 }, () => {
  it("reports the proposer's tips (proposed, checkpointed, proven, finalized) and checkpoints, also after a restart", async () => {
    const genesis = Math.floor(Date.now() / 1000);
    const common = [...chainFlags(genesis), '--p2p-port', '0'];
    const nodes = new NodeGroup();
    const start = (args: string[]) => nodes.start(args);
    try {
      const proposer = await start(['--data-directory', '', '--p2p-enabled', ...common]);
      const followerArgs = [
        '--data-directory',
        await tempDir(),
        '--sequencer=false',
        '--p2p-bootstrap-peers',
        p2pAddress(proposer),
        ...common,
      ];
      let follower = await start(followerArgs);
      const status = (await (await fetch(`${follower.publicUrl}/status`)).json()) as { follow: { over: string } };
      assert.equal(status.follow.over, 'p2p');

      await mine(proposer, [0x8a0001n, 0x8a0011n, 0x8a0021n]);
      const tips = await sameTips(proposer, follower);
      assert.ok(
        tips.checkpointed.checkpoint.number >= 1 &&
          tips.proven.checkpoint.number >= 1 &&
          tips.finalized.checkpoint.number >= 1,
        JSON.stringify(tips),
      );
      await assertSameCheckpoints(proposer, follower, tips.checkpointed.checkpoint.number);

      // Restart on the same data directory after the chain moved on: it keeps what it had, then catches up on all of it.
      await nodes.stop(follower);
      await mine(proposer, [0x8b0001n, 0x8b0011n]);
      follower = await start(followerArgs);
      const kept = await ok(follower.publicUrl, 'node_getL2Tips');
      assert.ok(
        kept.proposed.number >= tips.proposed.number &&
          kept.checkpointed.checkpoint.number >= tips.checkpointed.checkpoint.number,
        JSON.stringify(kept),
      );
      assert.ok(kept.proven.checkpoint.number >= tips.proven.checkpoint.number, 'proof tips kept across the restart');
      const after = await sameTips(proposer, follower);
      assert.ok(after.checkpointed.checkpoint.number > tips.checkpointed.checkpoint.number, JSON.stringify(after));
      await assertSameCheckpoints(proposer, follower, after.checkpointed.checkpoint.number);
      assert.doesNotMatch(follower.stderr(), /stopped on a block that does not verify/);
    } finally {
      await nodes.stopAll();
    }
  });
});
