/** P2PService in one process: lifecycle, readiness and ENR, and a throwing validator costs the sender nothing. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { P2PService } from '../../../src/impl/p2p/p2p-service.ts';
import { decodeEnr, enrPeerId } from '../../../src/impl/p2p/index.ts';

const until = async (ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('P2PService', { timeout: 30_000 }, () => {
  it('is ready only between start and stop; the ENR is null outside', async () => {
    const s = new P2PService({ dataDirectory: '', port: 0, txValidator: async () => 'accept' });
    assert.equal(s.isReady(), false);
    assert.equal(s.getEncodedEnr(), null);
    await s.start();
    try {
      assert.equal(s.isReady(), true);
      assert.equal(enrPeerId(decodeEnr(s.getEncodedEnr()!)), s.getPeerId());
      await assert.rejects(s.start(), /cannot start/);
      assert.equal(
        await s.publishEncodedTx(new TextEncoder().encode('{}')),
        0,
        'publishing with no peers is not an error',
      );
    } finally {
      await s.stop();
    }
    assert.equal(s.isReady(), false);
    assert.equal(s.getEncodedEnr(), null);
    await s.stop(); // idempotent
  });

  it('fails to start on a taken port and releases what it opened', async () => {
    const a = new P2PService({ dataDirectory: '', port: 0, txValidator: async () => 'accept' });
    await a.start();
    try {
      const port = Number(a.getListenAddresses()[0]!.split('/')[4]);
      const b = new P2PService({ dataDirectory: '', port, txValidator: async () => 'accept' });
      await assert.rejects(b.start(), /EADDRINUSE|address already in use/i);
      assert.equal(b.isReady(), false);
      await b.stop();
    } finally {
      await a.stop();
    }
  });

  it('refuses a bad bootstrap entry at construction', () => {
    assert.throws(
      () =>
        new P2PService({
          dataDirectory: '',
          bootstrapPeers: ['/ip4/1.2.3.4/tcp/1'],
          txValidator: async () => 'accept',
        }),
      /lacks \/p2p/,
    );
  });

  it('a validator that throws means ignore: the message is dropped and the sender not penalised', async () => {
    let calls = 0;
    const a = new P2PService({ dataDirectory: '', port: 0, txValidator: async () => 'accept' });
    await a.start();
    const b = new P2PService({
      dataDirectory: '',
      port: 0,
      bootstrapPeers: a.getListenAddresses(),
      scoring: { banThreshold: -10 },
      txValidator: async () => {
        calls++;
        throw new Error('validator bug');
      },
    });
    await b.start();
    try {
      await until(() => a.getTxTopicPeers().length === 1 && b.getTxTopicPeers().length === 1);
      for (let i = 0; i < 3; i++) await a.publishEncodedTx(new TextEncoder().encode(`{"n":${i}}`));
      await until(() => calls === 3);
      assert.deepEqual(b.getBannedPeers(), []);
      assert.deepEqual(b.getPeers(), [a.getPeerId()]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
