import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { P2PService } from '../../src/impl/p2p/index.ts';
import { SyncSwitch } from '../../src/impl/node-config/sync-control.ts';
import { Follower } from '../../src/impl/sync/follower.ts';
import { P2pBlockSource } from '../../src/impl/sync/p2p-block-source.ts';
import { ALL_TREE_IDS } from '../../src/impl/world-state/constants.ts';
import { followerEngine, waitFor } from './sync-harness.ts';

const RUNNER = fileURLToPath(new URL('./sync-p2p-proposer.ts', import.meta.url));
const hex = (x: bigint | { root: bigint; nextAvailableLeafIndex: number }) =>
  typeof x === 'bigint'
    ? '0x' + x.toString(16)
    : { root: '0x' + x.root.toString(16), nextAvailableLeafIndex: x.nextAvailableLeafIndex };

describe('follower over p2p (two processes)', () => {
  it('catches up 70 blocks over blocks-by-range in batches of 64, then follows block announcements', {
    timeout: 90_000,
  }, async (t) => {
    const child = spawn(process.execPath, [RUNNER], { stdio: ['pipe', 'pipe', 'inherit'] });
    t.after(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const events: any[] = [];
    createInterface({ input: child.stdout! }).on('line', (l) => events.push(JSON.parse(l)));
    const next = async (ev: string) => {
      await waitFor(() => events.some((e) => e.ev === ev), 30_000, ev);
      return events.splice(
        events.findIndex((e) => e.ev === ev),
        1,
      )[0];
    };
    const ready = await next('ready');
    child.stdin!.write(JSON.stringify({ cmd: 'build', n: 70 }) + '\n');
    const built = await next('built');
    assert.equal(built.tip, 70);

    const engine = await followerEngine();
    t.after(() => engine.stop());
    const source: P2pBlockSource = new P2pBlockSource({
      getPeers: (): string[] => p2p.getPeers(),
      requestBlocks: (p, f, l) => p2p.requestBlocks(p, f, l),
    });
    const p2p: P2PService = new P2PService({
      dataDirectory: '',
      port: 0,
      bootstrapPeers: ready.addrs,
      redialIntervalMs: 200,
      txValidator: async () => 'ignore',
      onBlock: source.onAnnouncement,
    });
    await p2p.start();
    t.after(() => p2p.stop());
    await waitFor(() => p2p.getPeers().length > 0, 15_000, 'peer connection');
    // A poll interval far beyond the test: after the catch-up, only announcements can move it.
    const follower = new Follower({ engine, source, sync: new SyncSwitch(600_000) });
    source.onNewBlock = () => follower.wake();
    const pages: number[] = [];
    const get = source.getBlocks.bind(source);
    source.getBlocks = async (f: number, l: number) => {
      const b = await get(f, l);
      pages.push(b.length);
      return b;
    };
    await follower.start();
    t.after(() => follower.stop());
    await waitFor(() => follower.status().state === 'caught-up', 30_000, 'catch-up');
    assert.deepEqual(pages, [64, 6]);
    const same = async (b: any) => {
      assert.equal(await engine.chain.getBlockNumber(), b.tip);
      assert.equal(hex((await engine.chain.findBlock(b.tip))!.hash), b.hash);
      assert.deepEqual(
        await Promise.all(ALL_TREE_IDS.map(async (id) => hex(await engine.worldState.getTreeSnapshot(id, b.tip)))),
        b.roots,
      );
    };
    await same(built);

    child.stdin!.write(JSON.stringify({ cmd: 'build', n: 3, announce: true }) + '\n');
    const more = await next('built');
    assert.equal(more.tip, 73);
    await waitFor(async () => (await engine.chain.getBlockNumber()) === 73, 20_000, 'announced blocks');
    await same(more);
    assert.equal(follower.status().state, 'caught-up');
    child.stdin!.write(JSON.stringify({ cmd: 'stop' }) + '\n');
    await waitFor(() => child.exitCode !== null, 10_000, 'proposer exit');
  });
});
