/** Peer penalty book: threshold, decay, ban expiry and the connection gater. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { peerIdFromString } from '@libp2p/peer-id';
import { PeerScoring } from '../../../src/impl/p2p/peer-scoring.ts';

const PEER = '16Uiu2HAmCUuvs1dcuvr91EC2yHkwZ85beVTUkjzuj8jUrUq4tEAp';

function clock() {
  const c = { t: 1_000_000, now: () => c.t };
  return c;
}

describe('PeerScoring', () => {
  it('bans on the fifth rejected message within a minute, not before', () => {
    const c = clock();
    const s = new PeerScoring({ now: c.now });
    for (let i = 0; i < 4; i++) {
      c.t += 10_000;
      assert.equal(s.penalize(PEER), false);
    }
    assert.equal(s.score(PEER), -40);
    c.t += 10_000;
    assert.equal(s.penalize(PEER), true);
    assert.equal(s.isBanned(PEER), true);
    assert.deepEqual(s.bannedPeers(), [PEER]);
  });

  it('old offences decay: two per minute are never banned (steady peak -40)', () => {
    const c = clock();
    const s = new PeerScoring({ now: c.now });
    for (let i = 0; i < 40; i++) {
      assert.equal(s.penalize(PEER), false, `offence ${i}`);
      c.t += 30_000;
    }
    assert.ok(s.score(PEER) >= -40);
  });

  it('a ban ends after its duration and the peer starts from zero', () => {
    const c = clock();
    const s = new PeerScoring({ now: c.now, banDurationMs: 60_000, banThreshold: -20 });
    s.penalize(PEER);
    assert.equal(s.penalize(PEER), true);
    c.t += 59_999;
    assert.equal(s.isBanned(PEER), true);
    c.t += 1;
    assert.equal(s.isBanned(PEER), false);
    assert.equal(s.score(PEER), 0);
  });

  it('the connection gater refuses only banned peers', async () => {
    const c = clock();
    const s = new PeerScoring({ now: c.now, banThreshold: -10 });
    const gater = s.connectionGater();
    const id = peerIdFromString(PEER);
    assert.equal(await gater.denyDialPeer!(id), false);
    s.penalize(PEER);
    assert.equal(await gater.denyDialPeer!(id), true);
    assert.equal(await gater.denyInboundEncryptedConnection!(id, undefined as never), true);
  });
});
