import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeJson } from '../../src/impl/encoding/bigint-json.ts';
import { SyncSwitch } from '../../src/impl/node-config/sync-control.ts';
import { RpcBlockSource } from '../../src/impl/sync/block-source.ts';
import type { BlockSource } from '../../src/impl/sync/block-source.ts';
import { Follower } from '../../src/impl/sync/follower.ts';
import { nextSlot, startRpcNode } from './rpc-public-harness.ts';
import { assertSameChain, buildBlocks, followerEngine, startProxy, waitFor } from './sync-harness.ts';

/** Counts getBlocks calls and their sizes. */
function counting(source: BlockSource) {
  const pages: number[] = [];
  const wrapped: BlockSource = {
    name: source.name,
    maxBlocksPerRequest: source.maxBlocksPerRequest,
    getTips: () => source.getTips(),
    getBlocks: async (from, limit) => {
      const b = await source.getBlocks(from, limit);
      pages.push(b.length);
      return b;
    },
    getCheckpoints: (from, limit) => source.getCheckpoints!(from, limit),
  };
  return { source: wrapped, pages };
}

describe('follower over RPC', () => {
  it('catches up 60 blocks in batches, verifies them, serves the same tips, blocks, roots, checkpoints and receipts', async (t) => {
    const proposer = await startRpcNode();
    t.after(() => proposer.close());
    const txs = await buildBlocks(proposer, 60);
    proposer.clock.advance(60_000); // proofs and L1 finality move on
    await nextSlot(proposer);
    const tips = await proposer.engine.chain.getL2Tips();
    assert.ok(
      tips.finalized.block.number > 0 &&
        tips.proven.block.number >= tips.finalized.block.number &&
        tips.checkpointed.block.number > 50,
    );

    const engine = await followerEngine();
    t.after(() => engine.stop());
    const { source, pages } = counting(new RpcBlockSource(proposer.url));
    const follower = new Follower({ engine, source, batchSize: 25 });
    await follower.start();
    await follower.stop(); // drive it by hand below
    const imported = await follower.syncNow();
    assert.equal(imported, tips.proposed.number);
    assert.deepEqual(pages, [25, 25, tips.proposed.number - 50]);
    assert.deepEqual(follower.status(), {
      state: 'caught-up',
      lastGoodBlock: tips.proposed.number,
      sourceTip: tips.proposed.number,
      behindBlocks: 0,
      lagSeconds: 0,
    });
    await assertSameChain(proposer.engine, engine, txs);
    assert.equal(engine.worldState.finalizedBlockNumber, tips.finalized.block.number);
  });

  it('keeps up in near real time, obeys pause/resume, re-syncs after a rollback, and a restarted follower resumes from its database', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'l2node-sync-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const proposer = await startRpcNode();
    t.after(() => proposer.close());
    const txs = await buildBlocks(proposer, 6);
    let engine = await followerEngine(dir);
    const sync = new SyncSwitch(20);
    let follower = new Follower({ engine, source: new RpcBlockSource(proposer.url), sync });
    await follower.start();
    t.after(() => follower.stop());
    // Caught up = the same tips (a step may have seen the source's tips just before its last block).
    const atTip = async () =>
      follower.status().state === 'caught-up' &&
      encodeJson(await engine.chain.getL2Tips()) === encodeJson(await proposer.engine.chain.getL2Tips());
    await waitFor(atTip, 10_000, 'initial catch-up');
    txs.push(...(await buildBlocks(proposer, 3)));
    await waitFor(atTip, 10_000, 'following new blocks');
    await assertSameChain(proposer.engine, engine, txs);

    await sync.pause();
    const paused = await engine.chain.getBlockNumber();
    txs.push(...(await buildBlocks(proposer, 4)));
    await new Promise((r) => setTimeout(r, 200)); // ten poll intervals
    assert.equal(await engine.chain.getBlockNumber(), paused);
    assert.equal(follower.status().state, 'paused');
    sync.resume();
    await waitFor(atTip, 10_000, 'catch-up after resume');

    await sync.pause();
    await engine.rollbackTo(paused - 3);
    assert.equal(await engine.chain.getBlockNumber(), paused - 3);
    sync.resume();
    await waitFor(atTip, 10_000, 're-sync after rollback');
    await assertSameChain(proposer.engine, engine, txs);

    await follower.stop();
    await engine.stop();
    txs.push(...(await buildBlocks(proposer, 5)));
    engine = await followerEngine(dir);
    t.after(() => engine.stop());
    const before = await engine.chain.getBlockNumber();
    assert.ok(before > 0);
    follower = new Follower({ engine, source: new RpcBlockSource(proposer.url) });
    await follower.start();
    await follower.stop();
    assert.equal(await follower.syncNow(), (await proposer.engine.chain.getBlockNumber()) - before);
    await assertSameChain(proposer.engine, engine, txs);
  });

  it('refuses a block whose note hash was changed in the wire JSON and stops at the last good block', async (t) => {
    const proposer = await startRpcNode();
    t.after(() => proposer.close());
    await buildBlocks(proposer, 12);
    const bad = 7;
    const proxy = await startProxy(proposer.url, (method, _params, result) => {
      if (method !== 'node_getBlocks') return result;
      for (const b of result)
        if (b.header.globalVariables.blockNumber === bad)
          b.body.txEffects[0].noteHashes[1] = '0x' + '0'.repeat(63) + '5';
      return result;
    });
    t.after(() => proxy.close());
    const engine = await followerEngine();
    t.after(() => engine.stop());
    const follower = new Follower({ engine, source: new RpcBlockSource(proxy.url), batchSize: 5 });
    assert.equal(await follower.syncNow(), bad - 1);
    const st = follower.status();
    assert.equal(st.state, 'stopped-on-mismatch');
    assert.equal(st.lastGoodBlock, bad - 1);
    assert.match(st.error!, /^block 7 refused: block 7 header does not match the world state: noteHashTree$/);
    assert.equal(await engine.chain.getBlockNumber(), bad - 1);
    assert.equal(await engine.chain.findBlock(bad), undefined);
    assert.equal(await follower.syncNow(), 0, 'stays stopped');
    // The untampered source is accepted from the same database: nothing of block 7 was left behind.
    const clean = new Follower({ engine, source: new RpcBlockSource(proposer.url) });
    assert.equal(await clean.syncNow(), 12 - (bad - 1));
    await assertSameChain(proposer.engine, engine);
  });
});
