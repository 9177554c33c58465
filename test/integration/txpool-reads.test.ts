/** Mempool reads through the JSON-RPC API: pending pages, counts, lookups, max priority fees. @module */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeTx } from '../../src/impl/tx/index.ts';
import { FakeChain } from '../unit/txpool/helpers/fake-chain.ts';
import { startTxNode, type TxNode } from '../unit/txpool/helpers/harness.ts';
import { buildTx, loadVector } from '../unit/txpool/helpers/tx-builder.ts';

const GAS = { daGas: 1000, l2Gas: 1000 };
const tx = (fee: bigint, nullifier: bigint, priorityDa = 0n) =>
  buildTx({
    chainId: 31337n,
    version: 1n,
    gasLimits: GAS,
    feePayer: 0x1001n,
    maxFeeL2: fee,
    priorityFeeL2: fee,
    priorityFeeDa: priorityDa,
    nullifiers: [nullifier],
  });

describe('mempool reads', () => {
  let node: TxNode;
  before(async () => {
    const chain = new FakeChain();
    chain.balances.set(0x1001n, 10n ** 18n);
    chain.balances.set(decodeTx(loadVector('rollup-07-gas-settings').wire).data.feePayer, 10n ** 18n);
    node = await startTxNode({ chain });
  });
  after(() => node.close());

  it('empty pool: count 0, no pending txs, zero max priority fees, unknown hash is null', async () => {
    assert.equal((await node.call('node_getPendingTxCount')).result, 0);
    assert.deepEqual((await node.call('node_getPendingTxs')).result, []);
    assert.deepEqual((await node.call('node_getMaxPriorityFees')).result, { feePerDaGas: '0', feePerL2Gas: '0' });
    assert.equal((await node.call('node_getTxByHash', ['0x' + '11'.repeat(32)])).result, null);
  });

  it('node_getTxByHash returns byte for byte the Tx JSON that was sent (a real vector)', async () => {
    // rollup-07: chain id 31337, version 1, empty anchor header (known to the fake chain).
    const v = loadVector('rollup-07-gas-settings');
    assert.equal((await node.call('node_sendTx', [v.wire])).result, null);
    const raw = await node.callRaw('node_getTxByHash', [v.txHash]);
    assert.ok(raw.includes(`"result":${JSON.stringify(v.wire)}`));
  });

  const txs = [tx(30n, 0xa1n, 7n), tx(10n, 0xa2n), tx(20n, 0xa3n), tx(20n, 0xa4n)];
  const sortedByPriority = () => {
    const v = loadVector('rollup-07-gas-settings');
    // rollup-07: max fee L2 2 500 000, max priority L2 9 → priority fee 9, the lowest here.
    const equal = [txs[2]!, txs[3]!].sort((a, b) => (BigInt(a.hash) < BigInt(b.hash) ? -1 : 1));
    return [txs[0]!.hash, ...equal.map((t) => t.hash), txs[1]!.hash, v.txHash];
  };

  it('node_getPendingTxs: priority order, highest first, equal fees by tx hash', async () => {
    for (const t of txs) assert.equal((await node.call('node_sendTx', [t.wire])).result, null);
    const got = ((await node.call('node_getPendingTxs')).result as { txHash: string }[]).map((t) => t.txHash);
    assert.deepEqual(got, sortedByPriority());
    assert.equal((await node.call('node_getPendingTxCount')).result, 5);
  });

  it('node_getPendingTxs: limit and after page through the same order; an unknown after gives []', async () => {
    const order = sortedByPriority();
    const page1 = ((await node.call('node_getPendingTxs', [2])).result as { txHash: string }[]).map((t) => t.txHash);
    const page2 = ((await node.call('node_getPendingTxs', [2, page1[1]])).result as { txHash: string }[]).map(
      (t) => t.txHash,
    );
    const page3 = ((await node.call('node_getPendingTxs', [2, page2[1]])).result as { txHash: string }[]).map(
      (t) => t.txHash,
    );
    assert.deepEqual([...page1, ...page2, ...page3], order);
    assert.deepEqual((await node.call('node_getPendingTxs', [10, order[4]])).result, []);
    assert.deepEqual((await node.call('node_getPendingTxs', [10, '0x' + '22'.repeat(32)])).result, []);
    assert.equal((await node.call('node_getPendingTxs', [101])).error?.code, -32602);
  });

  it('node_getTxsByHash: the pending ones, in request order, unknown left out', async () => {
    const unknown = '0x' + '03'.repeat(32); // a field element (a hash at or above the modulus is -32602)
    const got = (await node.call('node_getTxsByHash', [[txs[1]!.hash, unknown, txs[0]!.hash]])).result as unknown[];
    assert.deepEqual(got, [txs[1]!.wire, txs[0]!.wire]);
  });

  it('node_getMaxPriorityFees: maxPriorityFeesPerGas of the highest-priority tx', async () => {
    assert.deepEqual((await node.call('node_getMaxPriorityFees')).result, { feePerDaGas: '7', feePerL2Gas: '30' });
  });
});
