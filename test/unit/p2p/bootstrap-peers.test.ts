/** Bootstrap entries: ENRs become /ip4/…/tcp/…/p2p/<id> with the ENR key's peer id; bad entries are named. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { privateKeyFromRaw } from '@libp2p/crypto/keys';
import { peerIdFromPrivateKey } from '@libp2p/peer-id';
import { parseBootstrapPeer } from '../../../src/impl/p2p/bootstrap-peers.ts';
import { encodeEnr } from '../../../src/impl/p2p/enr.ts';

describe('parseBootstrapPeer', () => {
  it('turns an ENR into a multiaddr whose peer id is the libp2p id of the same key', () => {
    const secret = secp256k1.utils.randomSecretKey();
    const id = peerIdFromPrivateKey(privateKeyFromRaw(secret)).toString();
    const enr = encodeEnr(secret, { seq: 1n, ip: '127.0.0.1', tcp: 40400, udp: 40400 });
    assert.equal(parseBootstrapPeer(enr).toString(), `/ip4/127.0.0.1/tcp/40400/p2p/${id}`);
  });

  it('keeps a multiaddr with /p2p/', () => {
    const ma = '/ip4/127.0.0.1/tcp/1234/p2p/16Uiu2HAmCUuvs1dcuvr91EC2yHkwZ85beVTUkjzuj8jUrUq4tEAp';
    assert.equal(parseBootstrapPeer(` ${ma} `).toString(), ma);
  });

  it('refuses entries it cannot dial, naming them', () => {
    assert.throws(() => parseBootstrapPeer('/ip4/127.0.0.1/tcp/1234'), /lacks \/p2p/);
    assert.throws(() => parseBootstrapPeer('hello'), /hello: not a multiaddr or ENR/);
    const noTcp = encodeEnr(secp256k1.utils.randomSecretKey(), { seq: 1n, ip: '127.0.0.1', udp: 1 });
    assert.throws(() => parseBootstrapPeer(noTcp), /no IP and TCP port/);
    assert.throws(() => parseBootstrapPeer('enr:-IS4QHCY'), /bootstrap ENR/);
  });
});
