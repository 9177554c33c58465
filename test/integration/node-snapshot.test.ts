/**
 * `--snapshot` on real processes (bin/l2node.js, HTTP): node A (1-second slots, empty blocks)
 * builds a few blocks, is paused, and writes a snapshot with nodeAdmin_startSnapshotUpload (with
 * its admin API key); a second upload while the first runs is -32051. Node B starts from that
 * snapshot on an empty data directory with --sequencer=false and serves the same chain: the tip
 * recorded in snapshot.json, the same proposed/checkpointed tips and blocks as A. A data
 * directory that already has a database ignores --snapshot (warning) and keeps its chain; one
 * with other files refuses to start.
 * @module
 */
import assert from 'node:assert/strict';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { NODE_BIN, chainFlags, ok, startChainNode, waitFor } from './node-harness.ts';
import { printedKey, runNode, startNode, tempDir } from './server-process-harness.ts';

type RpcReply = { result?: unknown; error?: { code: number; message: string } };

async function adminCall(url: string, key: string, body: unknown): Promise<RpcReply | RpcReply[]> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  return res.json() as Promise<RpcReply | RpcReply[]>;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('node process: starting from a snapshot', { timeout: 120_000 }, () => {
  it("node B restored from node A's snapshot serves A's chain at snapshot time", async () => {
    const genesis = Math.floor(Date.now() / 1000) - 1;
    const flagsWithKey = chainFlags(genesis).filter((f) => f !== '--no-admin-api-key');
    const a = await startNode(
      ['--data-directory', join(await tempDir(), 'a'), ...flagsWithKey, '--build-empty-blocks'],
      { cwd: await tempDir(), node: NODE_BIN },
    );
    const snapDir = join(await tempDir(), 'snap');
    const bData = join(await tempDir(), 'b');
    let b: Awaited<ReturnType<typeof startChainNode>> | undefined;
    try {
      const key = await waitFor('the admin key banner', async () => printedKey(a.stdout()));
      await waitFor('a few blocks on A', async () =>
        (await ok<number>(a.publicUrl, 'node_getBlockNumber')) >= 3 ? true : undefined,
      );
      // Paused, A's chain stands still: the snapshot's recorded tip is A's tip.
      assert.equal(
        (
          (await adminCall(a.adminUrl, key, {
            jsonrpc: '2.0',
            id: 1,
            method: 'nodeAdmin_pauseSync',
            params: [],
          })) as RpcReply
        ).error,
        undefined,
      );
      await new Promise((r) => setTimeout(r, 300)); // a step already running finishes
      const tipsA = await ok(a.publicUrl, 'node_getL2Tips');
      // Whole blocks (header, archive, body): equal blocks have equal hashes.
      const blocksA: unknown[] = [];
      for (let n = 1; n <= tipsA.proposed.number; n++) blocksA.push(await ok(a.publicUrl, 'node_getBlock', n));
      assert.ok(blocksA.every((blk) => blk !== null));
      // Two uploads in one batch: the second arrives while the first is running.
      const replies = (await adminCall(a.adminUrl, key, [
        { jsonrpc: '2.0', id: 1, method: 'nodeAdmin_startSnapshotUpload', params: [snapDir] },
        { jsonrpc: '2.0', id: 2, method: 'nodeAdmin_startSnapshotUpload', params: [join(snapDir, 'second')] },
      ])) as (RpcReply & { id: number })[];
      const first = replies.find((r) => r.id === 1)!,
        second = replies.find((r) => r.id === 2)!;
      assert.equal(first.error, undefined, JSON.stringify(first.error));
      assert.equal(second.error?.code, -32051, JSON.stringify(second));
      assert.equal(second.error?.message, 'Snapshot upload already in progress');
      const metaFile = join(snapDir, 'snapshot.json');
      await waitFor('snapshot.json', async () => ((await exists(metaFile)) ? true : undefined));
      // The call returns at once, so the outcome is logged: finished here; failed for a target that is not a directory.
      await waitFor('the finished upload logged', async () =>
        /"msg":"snapshot upload finished"/.test(a.stderr()) ? true : undefined,
      );
      const notADirectory = (await adminCall(a.adminUrl, key, {
        jsonrpc: '2.0',
        id: 3,
        method: 'nodeAdmin_startSnapshotUpload',
        params: ['/dev/null/snap'],
      })) as RpcReply;
      assert.equal(notADirectory.error, undefined, JSON.stringify(notADirectory));
      await waitFor('the failed upload logged', async () =>
        /"msg":"snapshot upload failed".*"directory":"\/dev\/null\/snap"/.test(a.stderr()) ? true : undefined,
      );
      // A kernel pseudo-filesystem is refused up front (mkdir under /proc can block forever).
      const proc = (await adminCall(a.adminUrl, key, {
        jsonrpc: '2.0',
        id: 4,
        method: 'nodeAdmin_startSnapshotUpload',
        params: ['/proc/snap'],
      })) as RpcReply;
      assert.equal(proc.error?.code, -32602, JSON.stringify(proc));
      assert.equal(
        proc.error?.message,
        'params[0] (location): a snapshot location must be on a storage filesystem, not under /proc',
      );
      const meta = JSON.parse(await readFile(metaFile, 'utf8')) as {
        node: { latestBlock: number; latestBlockHash: string };
      };
      assert.equal(meta.node.latestBlock, tipsA.proposed.number);
      assert.equal(meta.node.latestBlockHash, tipsA.proposed.hash);

      b = await startChainNode(bData, genesis, ['--snapshot', pathToFileURL(snapDir).href, '--sequencer=false']);
      assert.match(b.stderr(), /snapshot restored/);
      const tipsB = await ok(b.publicUrl, 'node_getL2Tips');
      assert.deepEqual(tipsB.proposed, { number: meta.node.latestBlock, hash: meta.node.latestBlockHash });
      assert.deepEqual(tipsB.checkpointed, tipsA.checkpointed);
      for (let n = 1; n <= tipsA.proposed.number; n++)
        assert.deepEqual(await ok(b.publicUrl, 'node_getBlock', n), blocksA[n - 1], `block ${n}`);
      assert.deepEqual(
        await ok(b.publicUrl, 'node_getBlockHeader', 0),
        await ok(a.publicUrl, 'node_getBlockHeader', 0),
        'genesis',
      );
      // --sequencer=false: B stays on A's chain (no block of its own).
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(await ok<number>(b.publicUrl, 'node_getBlockNumber'), meta.node.latestBlock);
      assert.equal(await b.stop('SIGTERM'), 0);
      b = undefined;

      // A restart with the same flags: the data directory has a database now, --snapshot is ignored.
      b = await startChainNode(bData, genesis, ['--snapshot', snapDir, '--sequencer=false']);
      assert.match(b.stderr(), /already has a database; starting from it, --snapshot ignored/);
      assert.deepEqual((await ok(b.publicUrl, 'node_getL2Tips')).proposed, tipsB.proposed);
    } finally {
      if (b !== undefined) assert.equal(await b.stop('SIGTERM'), 0);
      assert.equal(await a.stop('SIGTERM'), 0);
    }

    // A data directory with other files but no database: refused, exit 1, nothing restored.
    const cData = join(await tempDir(), 'c');
    await mkdir(cData);
    await writeFile(join(cData, 'notes.txt'), 'x');
    const refused = await runNode(
      ['--port', '0', '--admin-port', '0', '--data-directory', cData, ...chainFlags(genesis), '--snapshot', snapDir],
      { cwd: await tempDir(), node: NODE_BIN },
    );
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /has no database but is not empty/);
    assert.equal(await exists(join(cData, 'l2node.sqlite')), false);
  });
});
