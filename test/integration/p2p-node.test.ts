/** A p2p node process: persisted identity across restarts, its ENR, block announcements and block range requests. @module */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { P2PRunner } from './p2p-harness.ts';
import { decodeEnr, enrPeerId } from '../../src/impl/p2p/index.ts';

const runners: P2PRunner[] = [];
async function spawnNode(config: Record<string, unknown>): Promise<P2PRunner> {
  const r = await P2PRunner.start({ dataDirectory: '', port: 0, ...config });
  runners.push(r);
  return r;
}
async function meshed(a: P2PRunner, b: P2PRunner): Promise<void> {
  await a.until((i) => i.txTopicPeers.includes(b.peerId));
  await b.until((i) => i.txTopicPeers.includes(a.peerId));
}

describe('identity', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-p2p-'));
  after(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a restart with the same data directory keeps the peer id; the key file is 0600', async () => {
    const first = await spawnNode({ dataDirectory: dir });
    await first.stop();
    const keyFile = join(dir, 'p2p', 'peer-key');
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.match(readFileSync(keyFile, 'utf8'), /^[0-9a-f]{64}\n$/);
    const second = await spawnNode({ dataDirectory: dir });
    assert.equal(second.peerId, first.peerId);
    const other = await spawnNode({ dataDirectory: '' });
    assert.notEqual(other.peerId, first.peerId, "'' gives an ephemeral key");
  });

  it('the ENR carries the peer key, loopback IP and the bound TCP port', async () => {
    const r = await spawnNode({});
    const enr = decodeEnr(r.enr!);
    assert.equal(enrPeerId(enr), r.peerId);
    assert.equal(enr.ip, '127.0.0.1');
    assert.equal(`/ip4/127.0.0.1/tcp/${enr.tcp}/p2p/${r.peerId}`, r.addrs[0]);
  });
});

describe('blocks', { timeout: 60_000 }, () => {
  after(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
  });

  it('an announced block reaches onBlock at the peer; a range request returns the served blocks', async () => {
    const a = await spawnNode({ tip: 10 });
    const b = await spawnNode({ bootstrapPeers: [a.enr] });
    await meshed(a, b);
    await a.call('publishBlock', { blockNumber: 11, text: 'block-11' });
    const got = await b.waitFor((e) => e.ev === 'block');
    assert.deepEqual([got.from, got.blockNumber, got.text], [a.peerId, 11, 'block-11']);
    assert.deepEqual(await b.call('requestBlocks', { peer: a.peerId, from: 4, limit: 3 }), [
      'block-4',
      'block-5',
      'block-6',
    ]);
    assert.deepEqual(
      await b.call('requestBlocks', { peer: a.peerId, from: 9, limit: 5 }),
      ['block-9', 'block-10'],
      'stops at the tip',
    );
    assert.deepEqual(await b.call('requestBlocks', { peer: a.peerId, from: 50, limit: 5 }), []);
    await assert.rejects(
      b.call('requestBlocks', { peer: a.peerId, from: 0, limit: 65 }),
      /status 1/,
      'limit above 64 is refused',
    );
  });
});
