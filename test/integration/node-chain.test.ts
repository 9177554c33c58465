/**
 * The running node as a user meets it (bin/l2node.js, real process, HTTP): a real-format tx for
 * a funded dev account goes pending, is mined, and every read agrees about it (receipt, effect,
 * block, tips, nullifier witness, the fee payer's FeeJuice balance); SIGTERM exits 0, and a
 * restart on the same directory continues the same chain with the pending txs still pending.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROTOCOL_CONTRACT_ADDRESSES, feeJuiceBalanceLeafSlot } from '../../src/impl/chain/protocol.ts';
import { DEV_FUNDING } from '../../src/impl/engine.ts';
import { deriveStorageSlotInMap } from '../../src/impl/world-state/slots.ts';
import { hex, ok, pendingCountIs, rpc, startChainNode, txFor, waitFor } from './node-harness.ts';
import { tempDir } from './server-process-harness.ts';

/** Pays the fees (0x1001, the default fee recipient, would pay itself). */
const PAYER = 0x1002n;
const receiptStatus = async (url: string, hash: string) => (await ok(url, 'node_getTxReceipt', hash)).status as string;

describe('node process: a local chain over JSON-RPC', { timeout: 120_000 }, () => {
  it('mines a sent tx, answers consistently, and continues the same chain after SIGTERM and restart', async () => {
    const dir = await tempDir();
    const genesis = Math.floor(Date.now() / 1000) - 5;
    // Two txs per block: a single tx stays pending until a second one arrives.
    const extra = ['--min-txs-per-block', '2'];
    let node = await startChainNode(dir, genesis, extra);
    try {
      const url = node.publicUrl;
      await waitFor(
        'the funded accounts on stdout',
        async () => (/1003\s+\d+\n/.test(node.stdout()) ? true : undefined),
        5000,
      );
      assert.match(node.stdout(), /Funded dev accounts[^\n]*\n(.*\n)*.*0x0{60}1002\s+1000000000000000000000000000000/);
      const status = await fetch(`${url}/status`);
      assert.equal(status.status, 200);
      const body = (await status.json()) as {
        syncState: string;
        database: { state: string };
        latestBlockNumber: number;
      };
      assert.equal(body.syncState, 'syncing');
      assert.equal(body.database.state, 'connected');
      assert.equal(await ok(url, 'node_isReady'), true);
      assert.equal(await ok(url, 'node_getEncodedEnr'), null);

      const a = await txFor(url, PAYER, 0xa11ce0001n);
      assert.deepEqual(await ok(url, 'node_isValidTx', a.wire), { result: 'valid' });
      assert.equal(await ok(url, 'node_sendTx', a.wire), null);
      assert.equal(await receiptStatus(url, a.hash), 'pending');
      assert.equal(await ok(url, 'node_getPendingTxCount'), 1);
      assert.equal((await ok(url, 'node_getTxByHash', a.hash)).txHash, a.hash);
      const again = await rpc(url, 'node_sendTx', a.wire);
      assert.equal(again.error, undefined, 'the same tx again is accepted idempotently');
      assert.equal(await ok(url, 'node_getPendingTxCount'), 1);

      const b = await txFor(url, PAYER, 0xb0b0001n);
      await ok(url, 'node_sendTx', b.wire);
      const mined = await waitFor('tx a mined', async () => {
        const r = await ok(url, 'node_getTxReceipt', a.hash);
        return r.status === 'mined' || r.status === 'proven' || r.status === 'finalized' || r.status === 'checkpointed'
          ? r
          : undefined;
      });
      const blockNumber: number = mined.blockNumber;
      assert.ok(blockNumber >= 1);
      assert.ok((await ok<number>(url, 'node_getBlockNumber')) >= blockNumber);
      await pendingCountIs(url, 0); // the pool lets the mined txs go just after the block's commit
      const tips = await ok(url, 'node_getL2Tips');
      assert.ok(tips.proposed.number >= blockNumber);

      const effect = await ok(url, 'node_getTxEffect', a.hash);
      assert.equal(effect.l2BlockNumber, blockNumber);
      assert.ok(effect.data.nullifiers.includes(hex(0xa11ce0001n)));
      const block = await ok(url, 'node_getBlock', blockNumber);
      const hashesInBlock = block.body.txEffects.map((e: { txHash: string }) => e.txHash);
      assert.ok(
        hashesInBlock.includes(a.hash) && hashesInBlock.includes(b.hash),
        `block ${blockNumber} holds both txs`,
      );

      const witness = await ok(url, 'node_getNullifierMembershipWitness', blockNumber, hex(0xa11ce0001n));
      assert.equal(witness.leafPreimage.leaf.nullifier, hex(0xa11ce0001n));

      // The payer's FeeJuice balance: funding minus both fees, the same through storage, witness and the tx effects.
      const fees = block.body.txEffects.reduce(
        (sum: bigint, e: { transactionFee: string }) => sum + BigInt(e.transactionFee),
        0n,
      );
      assert.ok(fees > 0n);
      const storage = await ok(
        url,
        'node_getPublicStorageAt',
        blockNumber,
        hex(PROTOCOL_CONTRACT_ADDRESSES.feeJuice),
        hex(deriveStorageSlotInMap(1n, PAYER)),
      );
      assert.equal(BigInt(storage), DEV_FUNDING - fees);
      const dataWitness = await ok(url, 'node_getPublicDataWitness', blockNumber, hex(feeJuiceBalanceLeafSlot(PAYER)));
      assert.equal(BigInt(dataWitness.leafPreimage.leaf.value), DEV_FUNDING - fees);
      const lastWrite = block.body.txEffects
        .at(-1)
        .publicDataWrites.find((w: { leafSlot: string }) => BigInt(w.leafSlot) === feeJuiceBalanceLeafSlot(PAYER));
      assert.equal(BigInt(lastWrite.value), DEV_FUNDING - fees);

      // A third tx stays pending (alone), across the restart.
      const c = await txFor(url, PAYER, 0xc0c0001n);
      await ok(url, 'node_sendTx', c.wire);
      assert.equal(await receiptStatus(url, c.hash), 'pending');
      const tip = await ok<number>(url, 'node_getBlockNumber');
      const blocksBefore = await ok<unknown[]>(url, 'node_getBlocks', 1, tip);

      assert.equal(await node.stop('SIGTERM'), 0);
      assert.match(node.stderr(), /"msg":"stopped"/);

      node = await startChainNode(dir, genesis, extra);
      const url2 = node.publicUrl;
      assert.doesNotMatch(
        node.stdout(),
        /Funded dev accounts/,
        'the accounts are printed once, when the chain is created',
      );
      assert.deepEqual(await ok(url2, 'node_getBlocks', 1, tip), blocksBefore);
      assert.equal(await receiptStatus(url2, c.hash), 'pending');
      assert.equal(await ok(url2, 'node_getPendingTxCount'), 1);
      assert.equal(await receiptStatus(url2, a.hash), 'mined');

      const d = await txFor(url2, PAYER, 0xd0d0001n);
      await ok(url2, 'node_sendTx', d.wire);
      const minedC = await waitFor('tx c mined after restart', async () => {
        const r = await ok(url2, 'node_getTxReceipt', c.hash);
        return r.status === 'pending' ? undefined : r;
      });
      assert.equal(minedC.status, 'mined');
      assert.ok(minedC.blockNumber > tip, 'the chain continues above the old tip');
      const next = await ok(url2, 'node_getBlock', tip + 1);
      assert.equal(next.header.lastArchive.root, (blocksBefore.at(-1) as { archive: { root: string } }).archive.root);
    } finally {
      await node.stop('SIGTERM');
    }
  });
});
