/**
 * What a real 4.1.2 client sends, against the running node (bin/l2node.js, HTTP): a `Tx` carrying
 * `sizeCache` and a newer client's fields is accepted and mined; every hex param in upper case
 * gets the same answer as in lower case, and answers are lower-case.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hex, ok, startChainNode, txFor, waitFor } from './node-harness.ts';
import { tempDir } from './server-process-harness.ts';

const PAYER = 0x1002n;
const upper = (h: string) => `0x${h.slice(2).toUpperCase()}`;

describe('node process: liberal in what it accepts', { timeout: 120_000 }, () => {
  it('a Tx with extra members (sizeCache, a newer field) and an upper-case txHash is accepted and mined; upper-case hex answers as lower-case', async () => {
    // Two txs per block: the first stays pending (and readable from the pool) until the second arrives.
    const node = await startChainNode(await tempDir(), Math.floor(Date.now() / 1000) - 5, ['--min-txs-per-block', '2']);
    try {
      const url = node.publicUrl;
      const a = await txFor(url, PAYER, 0x5eed0001n);
      const sent = {
        ...a.wire,
        txHash: upper(a.wire.txHash),
        sizeCache: 191_234,
        feePaymentMethod: { kind: 'fee-juice', extra: [1, 2] },
      };
      assert.deepEqual(
        await ok(url, 'node_isValidTx', sent, { isSimulation: false, skipFeeEnforcement: false, futureOption: true }),
        { result: 'valid' },
      );
      assert.equal(await ok(url, 'node_sendTx', sent), null);
      // What the pool keeps and serves back is the tx as the document declares it: no unknown members, lower-case hex.
      const pooled = await ok(url, 'node_getTxByHash', upper(a.hash));
      assert.equal(pooled.txHash, a.hash);
      assert.equal(pooled.sizeCache, undefined);
      assert.equal(pooled.feePaymentMethod, undefined);
      await ok(url, 'node_sendTx', (await txFor(url, PAYER, 0x5eed0002n)).wire);

      const mined = await waitFor('the tx with extra members mined', async () => {
        const r = await ok(url, 'node_getTxReceipt', a.hash);
        return r.status === 'mined' ? r : undefined;
      });
      const block: number = mined.blockNumber;
      const nullifier = hex(0x5eed0001n);
      const pairs: [string, unknown[], unknown[]][] = [
        ['node_getTxReceipt', [a.hash], [upper(a.hash)]],
        ['node_getTxEffect', [a.hash], [upper(a.hash)]],
        ['node_getBlock', [mined.blockHash], [upper(mined.blockHash)]],
        ['node_getBlockByHash', [mined.blockHash], [upper(mined.blockHash)]],
        ['node_findLeavesIndexes', [block, 0, [nullifier]], [upper(mined.blockHash), 0, [upper(nullifier)]]],
        ['node_getNullifierMembershipWitness', [block, nullifier], [block, upper(nullifier)]],
        [
          'node_getPublicLogs',
          [{ txHash: a.hash }],
          [{ txHash: upper(a.hash), fromBlock: 1, newerFilterField: 'ignored' }],
        ],
      ];
      for (const [method, lower, mixed] of pairs) {
        const expected = await ok(url, method, ...lower);
        assert.notEqual(expected, null, `${method} finds the mined tx`);
        assert.deepEqual(await ok(url, method, ...mixed), expected, method);
        assert.doesNotMatch(JSON.stringify(expected), /"0x[0-9a-f]*[A-F]/, `${method}: hex answered in lower case`);
      }
    } finally {
      await node.stop();
    }
  });
});
