/**
 * Checkpoints and tips over p2p: their bytes (the RPC wire JSON) round trip and refuse malformed
 * input; a follower on a P2pBlockSource takes the checkpoints and proof tips of the peer
 * furthest ahead, verified as over RPC; a tampered or malformed checkpoint stops it at the last
 * good one and costs the peer that served it.
 * @module
 */

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../../src/impl/chain/time.ts';
import type { Engine } from '../../../src/impl/engine.ts';
import { SyncSwitch } from '../../../src/impl/node-config/sync-control.ts';
import { blockRangeHandlerFor } from '../../../src/impl/p2p/block-sync.ts';
import {
  checkpointRangeHandlerFor,
  decodeCheckpointFromPeer,
  decodeTipsFromPeer,
  encodeCheckpointForPeers,
  encodeTipsForPeers,
} from '../../../src/impl/p2p/checkpoint-sync.ts';
import type { CheckpointRangeHandler } from '../../../src/impl/p2p/checkpoint-range-protocol.ts';
import { WireDecodeError } from '../../../src/impl/encoding/wire/blocks-decode.ts';
import { Follower } from '../../../src/impl/sync/follower.ts';
import { P2pBlockSource } from '../../../src/impl/sync/p2p-block-source.ts';
import type { BlockPeers } from '../../../src/impl/sync/p2p-block-source.ts';
import { devEngine, GENESIS, syntheticTx } from '../../integration/chain-helpers.ts';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const utf8 = (s: string) => new TextEncoder().encode(s);
const json = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b));

/** A proposer that built, sealed, proved and finalized several slots, and an empty engine of the same genesis. */
async function setup(t: { after(fn: () => Promise<void>): void }) {
  const clock = new ManualClock(Number(GENESIS) * 1000);
  const { engine: proposer, txSource } = await devEngine(clock);
  for (let slot = 1; slot <= 8; slot++) {
    txSource.add(syntheticTx(slot));
    clock.advance(4000);
    await proposer.tick();
  }
  const { engine } = await devEngine(new ManualClock(Number(GENESIS) * 1000));
  t.after(async () => {
    await proposer.stop();
    await engine.stop();
  });
  return { proposer, engine };
}

/** Peers served from engines' own handlers; `tamper` may change a peer's checkpoint answer. */
function peersOf(engines: Record<string, Engine>, tamper: Record<string, CheckpointRangeHandler> = {}) {
  const reports: [string, string][] = [];
  const peers: BlockPeers = {
    getPeers: () => Object.keys(engines),
    requestBlocks: async (peer, from, limit) => [...(await blockRangeHandlerFor(engines[peer]!.chain)(from, limit))],
    requestCheckpoints: async (peer, from, limit) =>
      (
        tamper[peer] ??
        checkpointRangeHandlerFor({ chain: engines[peer]!.chain, checkpoints: engines[peer]!.checkpoints })
      )(from, limit),
    reportInvalid: (peer, reason) => {
      reports.push([peer, reason]);
    },
  };
  return { peers, reports };
}

describe('checkpoints and tips on p2p', () => {
  it('tips and checkpoint bytes round-trip through the RPC wire decoders; malformed bytes are refused', async (t) => {
    const { proposer } = await setup(t);
    const tips = await proposer.chain.getL2Tips();
    assert.deepEqual(decodeTipsFromPeer(encodeTipsForPeers(tips)), tips);
    const [cp] = await proposer.checkpoints.checkpointsFrom(1, 1);
    const blocks = await proposer.chain.blocksFrom(cp!.startBlock, cp!.blockCount);
    const decoded = decodeCheckpointFromPeer(encodeCheckpointForPeers(cp!, blocks));
    assert.deepEqual(decoded, { checkpoint: cp, blocks });
    assert.throws(() => decodeTipsFromPeer(Uint8Array.of(0xff)), /tips bytes are not UTF-8 JSON/);
    assert.throws(() => decodeTipsFromPeer(utf8('{"proposed":1}')), WireDecodeError);
    assert.throws(() => decodeCheckpointFromPeer(utf8('[]')), WireDecodeError);
    const noBlocks = json(encodeCheckpointForPeers(cp!, blocks));
    noBlocks.checkpoint.blocks = [];
    assert.throws(
      () => decodeCheckpointFromPeer(utf8(JSON.stringify(noBlocks))),
      /checkpoint\.blocks must not have fewer than 1 items/,
    );
  });

  it('the handler serves the tips and checkpoints ≥ 1 from `from`, each with its blocks', async (t) => {
    const { proposer } = await setup(t);
    const handler = checkpointRangeHandlerFor({ chain: proposer.chain, checkpoints: proposer.checkpoints });
    const tips = await proposer.chain.getL2Tips();
    const all = await handler(1, 16);
    assert.deepEqual(decodeTipsFromPeer(all.tips), tips);
    assert.equal(all.checkpoints.length, tips.checkpointed.checkpoint.number);
    assert.deepEqual(
      all.checkpoints.map((c) => decodeCheckpointFromPeer(c).checkpoint.number),
      [...Array(all.checkpoints.length).keys()].map((i) => i + 1),
    );
    assert.deepEqual((await handler(0, 3)).checkpoints, []);
    assert.deepEqual((await handler(2, 0)).checkpoints, []);
    assert.deepEqual(
      (await handler(2, 1)).checkpoints.map((c) => decodeCheckpointFromPeer(c).checkpoint.number),
      [2],
    );
  });

  it('a follower takes blocks, checkpoints and capped proof tips from the peer furthest ahead; malformed tips cost their peer', async (t) => {
    const { proposer, engine } = await setup(t);
    const { engine: behind } = await devEngine(new ManualClock(Number(GENESIS) * 1000));
    t.after(() => behind.stop());
    const garbage: CheckpointRangeHandler = async () => ({ tips: utf8('not tips'), checkpoints: [] });
    const { peers, reports } = peersOf({ behind, garbage: proposer, ahead: proposer }, { garbage });
    const follower = new Follower({
      engine,
      source: new P2pBlockSource(peers),
      sync: new SyncSwitch(1000),
      batchSize: 3,
      logger: quiet,
    });
    const want = await proposer.chain.getL2Tips();
    assert.ok(
      want.proven.checkpoint.number >= 1 && want.finalized.checkpoint.number >= 1,
      JSON.stringify(want, (_, v) => (typeof v === 'bigint' ? String(v) : v)),
    );
    await follower.syncNow();
    assert.deepEqual(follower.status(), {
      state: 'caught-up',
      lastGoodBlock: want.proposed.number,
      sourceTip: want.proposed.number,
      behindBlocks: 0,
      lagSeconds: 0,
    });
    assert.deepEqual(await engine.chain.getL2Tips(), want);
    assert.deepEqual(
      await engine.checkpoints.checkpointsFrom(1, 50),
      await proposer.checkpoints.checkpointsFrom(1, 50),
    );
    assert.ok(
      reports.length > 0 && reports.every(([peer, reason]) => peer === 'garbage' && /malformed tips/.test(reason)),
      JSON.stringify(reports),
    );
  });

  it('a tampered checkpoint stops the follower at the last good checkpoint and costs the peer; so does a malformed one', async (t) => {
    const { proposer, engine } = await setup(t);
    const honest = checkpointRangeHandlerFor({ chain: proposer.chain, checkpoints: proposer.checkpoints });
    // Checkpoint 2's header claims another inHash (its hash is recomputed from the header, so only verification can tell).
    const tampered: CheckpointRangeHandler = async (from, limit) => {
      const a = await honest(from, limit);
      return {
        tips: a.tips,
        checkpoints: a.checkpoints.map((c) => {
          const w = json(c);
          if (w.checkpoint.number === 2) w.checkpoint.header.inHash = '0x' + '00'.repeat(31) + '05';
          return utf8(JSON.stringify(w));
        }),
      };
    };
    const { peers, reports } = peersOf({ liar: proposer }, { liar: tampered });
    const follower = new Follower({
      engine,
      source: new P2pBlockSource(peers),
      sync: new SyncSwitch(1000),
      logger: quiet,
    });
    await follower.syncNow();
    const st = follower.status();
    assert.equal(st.state, 'stopped-on-mismatch');
    assert.match(st.error!, /^checkpoint 2 refused: header does not match our blocks: inHash$/);
    assert.equal((await engine.chain.getL2Tips()).checkpointed.checkpoint.number, 1, 'checkpoint 1 verified and kept');
    assert.deepEqual(reports, [['liar', st.error]]);

    // A peer sending checkpoint bytes that do not decode: refused, penalised, nothing checkpointed.
    const { engine: fresh } = await devEngine(new ManualClock(Number(GENESIS) * 1000));
    t.after(() => fresh.stop());
    const broken = peersOf(
      { broken: proposer },
      { broken: async (from, limit) => ({ ...(await honest(from, limit)), checkpoints: [utf8('{')] }) },
    );
    const second = new Follower({
      engine: fresh,
      source: new P2pBlockSource(broken.peers),
      sync: new SyncSwitch(1000),
      logger: quiet,
    });
    await second.syncNow();
    assert.equal(second.status().state, 'stopped-on-mismatch');
    assert.match(second.status().error!, /checkpoint bytes are not UTF-8 JSON/);
    assert.equal((await fresh.chain.getL2Tips()).checkpointed.checkpoint.number, 0);
    assert.equal(broken.reports.length, 1);
    assert.match(broken.reports[0]![1], /^malformed checkpoint: /);
  });
});
