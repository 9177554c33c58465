/**
 * Proposal and attestation frames: round trips, malformed frames refused, and over a real libp2p
 * pair a peer whose proposals the hook refuses is scored down and banned while good ones arrive.
 * @module
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeAttestation,
  decodeProposal,
  encodeAttestation,
  encodeProposal,
  type CheckpointProposal,
} from '../../../src/impl/p2p/consensus-messages.ts';
import { P2PService } from '../../../src/impl/p2p/p2p-service.ts';

const sig = Uint8Array.from({ length: 65 }, (_, i) => i + 1);
const proposal: CheckpointProposal = {
  slot: 42,
  blockNumber: 7,
  blockHash: (1n << 255n) + 5n,
  archive: 0x1234n,
  proposer: '0x' + 'ab'.repeat(20),
  signature: sig,
};

const until = async (ok: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('consensus frames', () => {
  it('proposal: 166 bytes, round trip, wrong size / version refused', () => {
    const bytes = encodeProposal(proposal);
    assert.equal(bytes.length, 166);
    assert.deepEqual(decodeProposal(bytes), proposal);
    assert.equal(decodeProposal(bytes.subarray(1)), undefined);
    const v2 = bytes.slice();
    v2[0] = 2;
    assert.equal(decodeProposal(v2), undefined);
    assert.throws(() => encodeProposal({ ...proposal, proposer: '0x12' }), /20-byte address/);
    assert.throws(() => encodeProposal({ ...proposal, signature: sig.subarray(1) }), /65 bytes/);
  });

  it('attestation: 146 bytes, round trip, slot above 2^53 refused', () => {
    const a = {
      slot: 3,
      archive: 9n,
      proposer: '0x' + '01'.repeat(20),
      attester: '0x' + 'fe'.repeat(20),
      signature: sig,
    };
    const bytes = encodeAttestation(a);
    assert.equal(bytes.length, 146);
    assert.deepEqual(decodeAttestation(bytes), a);
    const huge = bytes.slice();
    huge.fill(0xff, 1, 9);
    assert.equal(decodeAttestation(huge), undefined);
  });
});

describe('consensus topics on P2PService', { timeout: 30_000 }, () => {
  it('delivers accepted proposals; a peer sending refused ones is scored down and banned', async () => {
    const received: CheckpointProposal[] = [];
    const a = new P2PService({ dataDirectory: '', port: 0, txValidator: async () => 'accept' });
    await a.start();
    const b = new P2PService({
      dataDirectory: '',
      port: 0,
      bootstrapPeers: a.getListenAddresses(),
      txValidator: async () => 'accept',
      onProposal: async (p) => {
        received.push(p);
        return p.slot === 42 ? 'accept' : 'reject';
      },
      onAttestation: async () => 'accept',
    });
    await b.start();
    try {
      await until(() => a.getTxTopicPeers().length === 1);
      // Subscriptions to every topic travel together: once b is in a's tx topic, it is in the proposal topic too.
      assert.equal(await a.publishProposal(proposal), 1);
      await until(() => received.length > 0);
      assert.deepEqual(received[0], proposal);
      for (let slot = 1; slot <= 5; slot++) await a.publishProposal({ ...proposal, slot });
      await until(() => b.getBannedPeers().includes(a.getPeerId()));
      assert.equal(received.filter((p) => p.slot !== 42).length, 5, 'each refused proposal was judged');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
