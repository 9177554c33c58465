/** Mempool rules through node_sendTx: replace-by-fee, capacity, fee payer balance, duplicates. @module */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { toFieldHex } from '../../src/impl/crypto/field.ts';
import { FakeChain } from '../unit/txpool/helpers/fake-chain.ts';
import { startTxNode, type TxNode } from '../unit/txpool/helpers/harness.ts';
import { buildTx } from '../unit/txpool/helpers/tx-builder.ts';

const GAS = { daGas: 1000, l2Gas: 1000 };
/** Fee limit of a tx built by `tx`: 1000 DA gas × 1 + 1000 L2 gas × maxFeeL2. */
const feeLimitOf = (maxFeeL2: bigint) => 1000n + 1000n * maxFeeL2;
let nextNullifier = 0x100n;
/** A valid tx with L2 priority fee `fee` (max fee = fee, so the priority fee is `fee`). */
function tx(fee: bigint, o: { payer?: bigint; nullifiers?: bigint[]; maxFee?: bigint } = {}) {
  return buildTx({
    chainId: 31337n,
    version: 1n,
    gasLimits: GAS,
    feePayer: o.payer ?? 0x1001n,
    maxFeeL2: o.maxFee ?? fee,
    priorityFeeL2: fee,
    nullifiers: o.nullifiers ?? [nextNullifier++],
  });
}

describe('mempool rules', () => {
  let node: TxNode;
  let chain: FakeChain;
  afterEach(() => node.close());
  async function start(pool: { maxPendingTxCount?: number; priceBumpPercent?: bigint } = {}, balance = 10n ** 18n) {
    chain = new FakeChain();
    for (const p of [0x1001n, 0x1002n, 0x1003n]) chain.balances.set(p, balance);
    node = await startTxNode({ chain, pool });
  }
  const send = (wire: unknown) => node.call('node_sendTx', [wire]);
  const pendingHashes = async () =>
    ((await node.call('node_getPendingTxs')).result as { txHash: string }[]).map((t) => t.txHash);

  it('duplicate: sending the same tx again is accepted and changes nothing', async () => {
    await start();
    const a = tx(5n);
    assert.equal((await send(a.wire)).result, null);
    assert.equal((await send(a.wire)).result, null);
    assert.equal((await node.call('node_getPendingTxCount')).result, 1);
  });

  it('priority fee: min(max fee, max priority fee) on L2 orders the pool', async () => {
    await start();
    const capped = buildTx({
      chainId: 31337n,
      version: 1n,
      gasLimits: GAS,
      feePayer: 0x1001n,
      maxFeeL2: 3n,
      priorityFeeL2: 50n,
      nullifiers: [1n],
    });
    const b = tx(4n);
    await send(capped.wire);
    await send(b.wire);
    assert.deepEqual(await pendingHashes(), [b.hash, capped.hash]);
  });

  describe('nullifier conflict', () => {
    it('a tx sharing a nullifier without the price bump is NULLIFIER_CONFLICT with the data fields', async () => {
      await start();
      const first = tx(10n, { nullifiers: [0xaan] });
      const second = tx(10n, { nullifiers: [0xbbn, 0xaan] });
      await send(first.wire);
      const res = await send(second.wire);
      const message = `Nullifier conflict with existing tx ${first.hash}. Minimum required fee: 11, got: 10`;
      assert.deepEqual(res.error, {
        code: -32020,
        message,
        data: {
          code: 'NULLIFIER_CONFLICT',
          message,
          conflictingTxHash: first.hash,
          minimumPriceBumpFee: '11',
          txPriorityFee: '10',
        },
      });
      assert.deepEqual(await pendingHashes(), [first.hash]);
    });

    it('a tx paying at least the bumped fee replaces the conflicting one, which is dropped', async () => {
      await start();
      const first = tx(100n, { nullifiers: [0xaan] });
      const second = tx(110n, { nullifiers: [0xaan] });
      await send(first.wire);
      assert.equal((await send(second.wire)).result, null);
      assert.deepEqual(await pendingHashes(), [second.hash]);
      assert.equal((await node.call('node_getTxByHash', [first.hash])).result, null);
      const status = await node.pool.getTxStatus(BigInt(first.hash));
      assert.equal(status?.status, 'dropped');
      assert.match((status as { reason: string }).reason, new RegExp(second.hash));
    });

    it('the bump is at least +1 even when 10 % rounds to 0', async () => {
      await start();
      await send(tx(5n, { nullifiers: [0xaan] }).wire);
      // Another fee payer, so that the same fee makes a different tx.
      assert.equal(
        (await send(tx(5n, { nullifiers: [0xaan], payer: 0x1002n }).wire)).error?.data.minimumPriceBumpFee,
        '6',
      );
      assert.equal((await send(tx(6n, { nullifiers: [0xaan] }).wire)).result, null);
    });

    it('one tx may replace several pending txs it conflicts with', async () => {
      await start();
      await send(tx(10n, { nullifiers: [0xa1n] }).wire);
      await send(tx(20n, { nullifiers: [0xa2n] }).wire);
      const rbf = tx(22n, { nullifiers: [0xa1n, 0xa2n] });
      assert.equal((await send(rbf.wire)).result, null);
      assert.deepEqual(await pendingHashes(), [rbf.hash]);
    });
  });

  describe('capacity', () => {
    it('when full, a tx not beating the lowest by the bump is LOW_PRIORITY_FEE with the data fields', async () => {
      await start({ maxPendingTxCount: 2 });
      await send(tx(100n).wire);
      await send(tx(50n).wire);
      const res = await send(tx(54n).wire);
      const message = 'Tx does not meet minimum priority fee. Required: 55, got: 54';
      assert.deepEqual(res.error, {
        code: -32020,
        message,
        data: { code: 'LOW_PRIORITY_FEE', message, minimumPriorityFee: '55', txPriorityFee: '54' },
      });
      assert.equal((await node.call('node_getPendingTxCount')).result, 2);
    });

    it('when full, a tx beating the lowest by the bump evicts it; the evicted tx is dropped', async () => {
      await start({ maxPendingTxCount: 2 });
      const high = tx(100n),
        low = tx(50n),
        incoming = tx(55n);
      for (const t of [high, low, incoming]) assert.equal((await send(t.wire)).result, null);
      assert.deepEqual(await pendingHashes(), [high.hash, incoming.hash]);
      assert.equal((await node.pool.getTxStatus(BigInt(low.hash)))?.status, 'dropped');
    });

    it('0 means unlimited, and the limit can be changed at run time; lowering it evicts the lowest', async () => {
      await start({ maxPendingTxCount: 0 });
      const txs = [tx(1n), tx(2n), tx(3n), tx(4n)];
      for (const t of txs) assert.equal((await send(t.wire)).result, null);
      await node.pool.setMaxPendingTxCount(2);
      assert.deepEqual(await pendingHashes(), [txs[3]!.hash, txs[2]!.hash]);
      assert.equal((await send(tx(3n).wire)).error?.data.code, 'LOW_PRIORITY_FEE');
    });

    it('the price bump percentage is configurable', async () => {
      await start({ maxPendingTxCount: 1, priceBumpPercent: 50n });
      await send(tx(100n).wire);
      assert.equal((await send(tx(149n).wire)).error?.data.minimumPriorityFee, '150');
    });
  });

  describe('fee payer balance', () => {
    it('a tx whose fee limit exceeds what the payer has left after its pending txs is INSUFFICIENT_FEE_PAYER_BALANCE', async () => {
      const balance = feeLimitOf(10n) * 2n + 500n;
      await start({}, balance);
      await send(tx(10n).wire);
      await send(tx(10n).wire);
      const res = await send(tx(9n).wire);
      const available = 500n,
        feeLimit = feeLimitOf(9n);
      const message = `Fee payer ${toFieldHex(0x1001n)} has insufficient balance. Balance at transaction: ${available}, required: ${feeLimit}`;
      assert.deepEqual(res.error, {
        code: -32020,
        message,
        data: {
          code: 'INSUFFICIENT_FEE_PAYER_BALANCE',
          message,
          currentBalance: balance.toString(),
          availableBalance: '500',
          feeLimit: feeLimit.toString(),
        },
      });
    });

    it('other fee payers are accounted separately', async () => {
      await start({}, feeLimitOf(10n));
      assert.equal((await send(tx(10n, { payer: 0x1001n }).wire)).result, null);
      assert.equal((await send(tx(10n, { payer: 0x1002n }).wire)).result, null);
      // A lower fee, so it comes after the pending one in the walk (equal fees would go by hash).
      assert.equal(
        (await send(tx(9n, { payer: 0x1001n, maxFee: 9n }).wire)).error?.data.code,
        'INSUFFICIENT_FEE_PAYER_BALANCE',
      );
    });

    it('a higher-priority tx of the same payer is admitted and evicts the pending txs it leaves uncovered', async () => {
      await start({}, feeLimitOf(10n) * 2n);
      const a = tx(10n),
        b = tx(10n);
      await send(a.wire);
      await send(b.wire);
      const big = tx(20n);
      assert.equal((await send(big.wire)).result, null);
      // Highest first: big takes 21 000 of 22 000; the 1 000 left covers neither 11 000 tx.
      assert.deepEqual(await pendingHashes(), [big.hash]);
      for (const t of [a, b])
        assert.deepEqual(await node.pool.getTxStatus(BigInt(t.hash)), {
          status: 'dropped',
          reason: 'Insufficient fee payer balance',
        });
    });

    it("a replacement frees the replaced tx's share of the balance", async () => {
      await start({}, feeLimitOf(20n));
      await send(tx(10n, { nullifiers: [0xccn] }).wire);
      assert.equal((await send(tx(20n, { nullifiers: [0xccn] }).wire)).result, null);
    });
  });
});
