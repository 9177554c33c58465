import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../../src/impl/chain/time.ts';
import { SyncSwitch } from '../../../src/impl/node-config/sync-control.ts';
import { RpcBlockSource } from '../../../src/impl/sync/block-source.ts';
import type { BlockSource } from '../../../src/impl/sync/block-source.ts';
import { Follower } from '../../../src/impl/sync/follower.ts';
import { devEngine, GENESIS, syntheticTx } from '../../integration/chain-helpers.ts';

describe('Follower', () => {
  it('logs and retries when the source is down, then catches up; stays syncing meanwhile', async (t) => {
    const clock = new ManualClock(Number(GENESIS) * 1000);
    const { engine: proposer, txSource } = await devEngine(clock);
    const { engine } = await devEngine(new ManualClock(Number(GENESIS) * 1000));
    t.after(async () => {
      await proposer.stop();
      await engine.stop();
    });
    for (let i = 1; i <= 3; i++) {
      txSource.add(syntheticTx(i));
      clock.advance(4000);
      await proposer.tick();
    }
    let down = true;
    const source: BlockSource = {
      name: 'in-process',
      maxBlocksPerRequest: 2,
      getTips: async () => {
        if (down) throw new Error('connect ECONNREFUSED');
        return proposer.chain.getL2Tips();
      },
      getBlocks: (from, limit) => proposer.chain.blocksFrom(from, limit),
    };
    const warnings: string[] = [];
    const logger = {
      info: () => {},
      error: () => {},
      warn: (_m: string, f?: Record<string, unknown>) => {
        warnings.push(String(f?.err));
      },
    };
    const follower = new Follower({ engine, source, sync: new SyncSwitch(20), logger });
    await assert.rejects(follower.syncNow(), /ECONNREFUSED/);
    await follower.start();
    t.after(() => follower.stop());
    // Two failed polls (20 ms apart), waited for: a fixed 100 ms could pass with one poll on a stalled event loop.
    for (const end = Date.now() + 5000; warnings.length < 2 && Date.now() < end; )
      await new Promise((r) => setTimeout(r, 10));
    assert.ok(warnings.length >= 2 && warnings.every((w) => w === 'connect ECONNREFUSED'), warnings.join());
    const { lagSeconds, ...down0 } = follower.status();
    assert.deepEqual(down0, { state: 'syncing', lastGoodBlock: 0 });
    assert.ok(lagSeconds > 0, "never at the source's tip yet: the lag counts from the start");
    down = false;
    const end = Date.now() + 5000;
    while (follower.status().state !== 'caught-up' && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(follower.status(), {
      state: 'caught-up',
      lastGoodBlock: 3,
      sourceTip: 3,
      behindBlocks: 0,
      lagSeconds: 0,
    });
  });

  it('an RPC source that never answers fails the call after its timeout', async (t) => {
    const server = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    t.after(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );
    const source = new RpcBlockSource(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 100);
    const started = Date.now();
    await assert.rejects(source.getTips(), /node_getL2Tips from http:\/\/127\.0\.0\.1:\d+: no answer within 100 ms/);
    assert.ok(
      Date.now() - started < 10_000,
      'the 100 ms timeout, not the 30 s default (a loose bound: a loaded machine is slow)',
    );
  });
});
