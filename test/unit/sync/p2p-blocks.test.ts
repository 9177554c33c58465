import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import blockExample from '../../../test/wire/examples/node_getBlock.json' with { type: 'json' };
import {
  blockAnnouncement,
  blockRangeHandlerFor,
  decodeAnnouncement,
  decodeBlockFromPeer,
  encodeBlockForPeers,
} from '../../../src/impl/p2p/block-sync.ts';
import { fromWireBlock, WireDecodeError } from '../../../src/impl/encoding/wire/blocks-decode.ts';
import { P2pBlockSource } from '../../../src/impl/sync/p2p-block-source.ts';

const block = fromWireBlock(blockExample.response.result);

describe('blocks on p2p', () => {
  it('block bytes round-trip through the wire JSON decoder', () => {
    assert.deepEqual(decodeBlockFromPeer(encodeBlockForPeers(block)), block);
    assert.throws(() => decodeBlockFromPeer(new Uint8Array([0xff, 0xfe])), /not UTF-8 JSON/);
    assert.throws(() => decodeBlockFromPeer(new TextEncoder().encode('{"archive":1}')), WireDecodeError);
  });

  it('an announcement must carry the block it names; the hook rejects a mismatch and wakes the follower on a valid one', async () => {
    const a = blockAnnouncement(block);
    assert.deepEqual(decodeAnnouncement(a), block);
    const wrongHash = { ...a, blockHash: new Uint8Array(32).fill(1) };
    const wrongNumber = { ...a, blockNumber: a.blockNumber + 1 };
    assert.throws(() => decodeAnnouncement(wrongHash), /does not match its bytes/);
    const source = new P2pBlockSource({ getPeers: () => [], requestBlocks: async () => [] });
    let woken = 0;
    source.onNewBlock = () => woken++;
    assert.equal(await source.onAnnouncement(wrongHash), 'reject');
    assert.equal(await source.onAnnouncement(wrongNumber), 'reject');
    assert.equal(woken, 0);
    assert.equal(await source.onAnnouncement(a), 'accept');
    assert.equal(woken, 1);
    await assert.rejects(source.getBlocks(1, 10), /no peer to sync from/);
  });

  it('asks the peers in turn until one has blocks: a peer behind (empty answer) or failing is passed over', async () => {
    const asked: string[] = [];
    const answers: Record<string, () => Uint8Array[]> = {
      behind: () => [],
      down: () => {
        throw new Error('stream reset');
      },
      ahead: () => [encodeBlockForPeers(block)],
    };
    const source = new P2pBlockSource({
      getPeers: () => ['behind', 'down', 'ahead'],
      requestBlocks: async (peer) => (asked.push(peer), answers[peer]!()),
    });
    assert.deepEqual(await source.getBlocks(1, 10), [block]);
    assert.deepEqual(asked, ['behind', 'down', 'ahead']);
    // The next call starts at the next peer in turn.
    asked.length = 0;
    assert.deepEqual(await source.getBlocks(1, 10), [block]);
    assert.deepEqual(asked, ['down', 'ahead']);
    // Every peer that answered had nothing: caught up (empty); none answered: the failure.
    const none = new P2pBlockSource({
      getPeers: () => ['behind', 'down'],
      requestBlocks: async (peer) => answers[peer]!(),
    });
    assert.deepEqual(await none.getBlocks(1, 10), []);
    const dead = new P2pBlockSource({ getPeers: () => ['down'], requestBlocks: async (peer) => answers[peer]!() });
    await assert.rejects(dead.getBlocks(1, 10), /stream reset/);
  });

  it('the range handler serves existing blocks from number 1 and nothing for 0', async () => {
    const asked: [number, number][] = [];
    const handler = blockRangeHandlerFor({
      blocksFrom: async (f, l) => {
        asked.push([f, l]);
        return [block];
      },
    });
    assert.deepEqual(await handler(0, 5), []);
    assert.deepEqual((await handler(1, 5)).map(decodeBlockFromPeer), [block]);
    assert.deepEqual(asked, [[1, 5]]);
  });
});
