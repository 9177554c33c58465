/**
 * A follower meeting a reorg of its source (issue: "the same guarantees for followers that
 * unwind"): node A sequences, node B follows it over RPC. A is rolled back and builds another
 * block at the same height; B unwinds to the last block both hold and imports A's new chain, and
 * its pool follows in the unwind's own transaction: a tx anchored in the unwound block is dropped
 * with the reason, a tx mined in it is pending again and then mined in A's new block.
 * @module
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { publicMethods } from '../../src/generated/public/methods.ts';
import { TX_ERROR } from '../../src/impl/tx/index.ts';
import { createRpcServer } from '../../src/server/http.ts';
import { silentLogger } from '../../src/server/logger.ts';
import { clockAtSlot, inProcessConfig, openInProcessNode, SLOT_SECONDS, txAnchoredAt } from './in-process-node.ts';
import { waitFor } from './node-harness.ts';

describe('a follower whose source reorganises', () => {
  it('unwinds to the shared block, drops the tx anchored in the unwound block, re-mines the unwound tx, and never shows a tx mined and pending', async () => {
    const clock = clockAtSlot(1);
    const a = await openInProcessNode(
      inProcessConfig({ dataDirectory: mkdtempSync(join(tmpdir(), 'reorg-a-')) }, ['--build-empty-blocks']),
      clock,
    );
    const server = createRpcServer({
      methods: publicMethods,
      handlers: a.node.publicHandlers,
      limits: { maxBodyBytes: 16_000_000, maxBatchSize: 100 },
      logger: silentLogger,
    });
    const { port } = await server.listen(0, '127.0.0.1');
    const b = await openInProcessNode(
      inProcessConfig({ dataDirectory: mkdtempSync(join(tmpdir(), 'reorg-b-')) }, [
        '--follow',
        `http://127.0.0.1:${port}`,
        '--sequencer-polling-interval-ms',
        '50',
      ]),
      clock,
    );
    const slot = async () => {
      clock.advance(SLOT_SECONDS * 1000);
      await a.node.step();
    };
    const tipOf = (n: typeof a) => n.node.publicHandlers.getBlockNumber!();
    const hashAt = async (n: typeof a, k: number) =>
      (await n.node.publicHandlers.getBlockHeader!(k)) === null
        ? undefined
        : (await n.node.engine.chain.findBlock(k))!.hash;
    const synced = (k: number) =>
      waitFor(`B at A's block ${k}`, async () =>
        (await tipOf(b)) === k && (await hashAt(b, k)) === (await hashAt(a, k)) ? true : undefined,
      );
    try {
      await a.node.step();
      await slot();
      await b.node.start();
      await synced(await tipOf(a));
      const tip = await tipOf(a);
      // U: sent through B (B's pool holds it and forwards it to A), mined in A's next block.
      const u = await txAnchoredAt(b, { anchor: tip, payer: 0x1001n, nullifiers: [0x0a1n] });
      await b.node.publicHandlers.sendTx!(u.wire as never);
      await slot();
      const minedIn = tip + 1;
      await synced(minedIn);
      assert.equal((await b.node.publicHandlers.getTxReceipt!(u.hash)).blockNumber, minedIn);
      // T: anchored at the block U is in, pending on both.
      const t = await txAnchoredAt(b, { anchor: minedIn, payer: 0x1002n, nullifiers: [0x0b1n] });
      await a.admin.pauseSync!();
      await b.node.publicHandlers.sendTx!(t.wire as never);
      assert.equal((await b.node.publicHandlers.getTxReceipt!(t.hash)).status, 'pending');
      const oldHash = await hashAt(b, minedIn);

      // A reorganises: back to the block before U's, then a new block at that height (with U again, not T).
      await a.admin.rollbackTo!(tip, false);
      await slot();
      assert.equal(await tipOf(a), minedIn);
      assert.notEqual(await hashAt(a, minedIn), oldHash);
      await synced(minedIn);

      assert.deepEqual(await b.node.publicHandlers.getTxReceipt!(t.hash), {
        txHash: t.hash,
        status: 'dropped',
        error: TX_ERROR.BLOCK_HEADER,
      });
      const again = await b.node.publicHandlers.getTxReceipt!(u.hash);
      assert.equal(again.status, 'mined');
      assert.equal(again.blockHash, '0x' + (await hashAt(a, minedIn))!.toString(16).padStart(64, '0'));
      assert.equal(await b.node.publicHandlers.getPendingTxCount!(), 0);
      assert.deepEqual(await b.node.publicHandlers.getPendingTxs!(), []);
      assert.equal(
        b.node.followStatus()?.state === 'stopped-on-mismatch',
        false,
        JSON.stringify(b.node.followStatus()),
      );
    } finally {
      await b.node.stop();
      await server.close(0);
      await a.node.stop();
    }
  });
});
