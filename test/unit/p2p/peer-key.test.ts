/** Peer key: created once with mode 0600, reloaded unchanged, ephemeral in memory, corrupt file refused. @module */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peerIdFromPrivateKey } from '@libp2p/peer-id';
import { loadOrCreatePeerKey, PEER_KEY_PATH } from '../../../src/impl/p2p/peer-key.ts';

describe('loadOrCreatePeerKey', () => {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-peer-key-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('creates <dataDirectory>/p2p/peer-key with mode 0600 and reloads the same secp256k1 key', async () => {
    const a = await loadOrCreatePeerKey(dir);
    assert.equal(a.privateKey.type, 'secp256k1');
    assert.equal(statSync(join(dir, PEER_KEY_PATH)).mode & 0o777, 0o600);
    const b = await loadOrCreatePeerKey(dir);
    assert.deepEqual(b.secret, a.secret);
    assert.equal(peerIdFromPrivateKey(b.privateKey).toString(), peerIdFromPrivateKey(a.privateKey).toString());
  });

  it("is ephemeral for '' and writes nothing", async () => {
    const a = await loadOrCreatePeerKey('');
    const b = await loadOrCreatePeerKey('');
    assert.notDeepEqual(a.secret, b.secret);
  });

  it('refuses a corrupt key file instead of replacing the identity', async () => {
    const bad = join(dir, 'bad');
    mkdirSync(join(bad, 'p2p'), { recursive: true });
    writeFileSync(join(bad, PEER_KEY_PATH), 'not a key\n');
    await assert.rejects(loadOrCreatePeerKey(bad), /not a 32-byte hex secp256k1 key/);
  });
});
