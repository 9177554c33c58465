/** Topic names, content message ids, the tx message and the block announcement frame. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  blockTopic,
  contentMessageId,
  decodeBlockAnnouncement,
  encodeBlockAnnouncement,
  encodeTxMessage,
  parseTxMessage,
  txTopic,
} from '../../../src/impl/p2p/gossip-messages.ts';
import { decodeTx, toWireTx } from '../../../src/impl/tx/index.ts';
import { loadVector, vectorFiles } from '../tx/helpers/vectors.ts';

describe('topics and ids', () => {
  it('names carry the network, version and encoding', () => {
    assert.equal(txTopic('31337-1'), '/l2node/31337-1/tx/1/json');
    assert.equal(blockTopic('dev'), '/l2node/dev/block/1/bin');
  });
  it('the message id depends on topic and content only', () => {
    const d = Uint8Array.of(1, 2, 3);
    assert.deepEqual(contentMessageId('t', d), contentMessageId('t', Uint8Array.of(1, 2, 3)));
    assert.notDeepEqual(contentMessageId('t', d), contentMessageId('u', d));
    assert.equal(contentMessageId('t', d).length, 20);
  });
});

describe('tx message', () => {
  it('is the Tx wire JSON: a vector tx survives encode, parse and decodeTx', () => {
    const v = loadVector(vectorFiles()[0]!);
    const tx = decodeTx(v.wire);
    const wire = parseTxMessage(encodeTxMessage(tx));
    assert.deepEqual(wire, v.wire);
    assert.equal(decodeTx(wire).txHash, tx.txHash);
    assert.deepEqual(toWireTx(decodeTx(wire)), v.wire);
  });
  it('non-JSON and invalid UTF-8 parse to undefined', () => {
    assert.equal(parseTxMessage(new TextEncoder().encode('{nope')), undefined);
    assert.equal(parseTxMessage(Uint8Array.of(0x22, 0xff, 0x22)), undefined);
  });
});

describe('block announcement', () => {
  const a = { blockNumber: 2 ** 40 + 5, blockHash: new Uint8Array(32).fill(9), block: Uint8Array.of(1, 2, 3) };
  it('round trips', () => {
    const bytes = encodeBlockAnnouncement(a);
    assert.equal(bytes.length, 41 + 3);
    assert.deepEqual(decodeBlockAnnouncement(bytes), a);
  });
  it('rejects short frames, unknown versions and numbers beyond 2^53', () => {
    const bytes = encodeBlockAnnouncement(a);
    assert.equal(decodeBlockAnnouncement(bytes.subarray(0, 40)), undefined);
    assert.equal(decodeBlockAnnouncement(Uint8Array.of(2, ...bytes.subarray(1))), undefined);
    const big = bytes.slice();
    big.fill(0xff, 1, 9);
    assert.equal(decodeBlockAnnouncement(big), undefined);
    assert.throws(() => encodeBlockAnnouncement({ ...a, blockHash: new Uint8Array(31) }), /32 bytes/);
  });
});
