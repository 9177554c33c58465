/** The pool's lifecycle: persistence across restarts, mined and dropped txs, revalidation after a block, the TxSource view. @module */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Knex } from 'knex';
import type { L2Block } from '../../../src/impl/chain/types.ts';
import { toJsonRpcError } from '../../../src/impl/rpc/wire-errors.ts';
import { toMinableTx } from '../../../src/impl/sequencer/tx-source.ts';
import { TX_ERROR } from '../../../src/impl/tx/index.ts';
import { PoolNotRunning, PoolRejection } from '../../../src/impl/txpool/errors.ts';
import { TxPool } from '../../../src/impl/txpool/tx-pool.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { openDb } from './helpers/harness.ts';
import { buildTx } from './helpers/tx-builder.ts';

const GAS = { daGas: 1000, l2Gas: 1000 };
let nextNullifier = 0x500n;
const tx = (fee: bigint, o: { payer?: bigint; nullifiers?: bigint[]; expiration?: bigint } = {}) =>
  buildTx({
    chainId: 31337n,
    version: 1n,
    gasLimits: GAS,
    feePayer: o.payer ?? 0x1001n,
    maxFeeL2: fee,
    priorityFeeL2: fee,
    nullifiers: o.nullifiers ?? [nextNullifier++],
    expirationTimestamp: o.expiration,
  });
const funded = () => {
  const chain = new FakeChain();
  chain.balances.set(0x1001n, 10n ** 18n);
  chain.balances.set(0x1002n, 10n ** 18n);
  return chain;
};
/** Commits a (synthetic) block holding `txHashes` as the chain does: the pool's part inside the transaction, its follow-up after. */
async function commitBlock(db: Knex, pool: TxPool, number: number, txHashes: readonly bigint[] = []): Promise<void> {
  const block = {
    header: { globalVariables: { blockNumber: number } },
    body: { txEffects: txHashes.map((txHash) => ({ txHash, nullifiers: [], publicDataWrites: [] })) },
  } as unknown as L2Block;
  let followUp: (() => void) | undefined;
  await db.transaction(async (trx) => {
    followUp = await pool.inBlockCommit(trx, block, []);
  });
  followUp!();
}
const dir = mkdtempSync(join(tmpdir(), 'txpool-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('TxPool persistence', () => {
  it('restart: a full pool reopens with the same txs, order, JSON and capacity rule', async () => {
    const file = join(dir, 'restart.sqlite');
    const chain = funded();
    const txs = [tx(5n), tx(9n), tx(7n), tx(3n)];
    let db = openDb(file);
    let pool = await TxPool.open({ db, chain, config: { maxPendingTxCount: 4 } });
    for (const t of txs) assert.equal(await pool.add(t.tx, t.wire), 'added');
    const before = await pool.getPendingTxs(100);
    await pool.close();
    await db.destroy();

    db = openDb(file);
    pool = await TxPool.open({ db, chain, config: { maxPendingTxCount: 4 } });
    assert.equal(pool.pendingCount, 4);
    assert.deepEqual(await pool.getPendingTxs(100), before);
    assert.deepEqual(await pool.getTxByHash(BigInt(txs[0]!.hash)), txs[0]!.wire);
    assert.deepEqual(pool.getMaxPriorityFees(), txs[1]!.tx.data.constants.txContext.gasSettings.maxPriorityFeesPerGas);
    await assert.rejects(
      pool.add(tx(3n).tx, tx(3n).wire),
      (e: unknown) => e instanceof PoolRejection && e.code === 'LOW_PRIORITY_FEE',
    );
    // The sequencer's view is rebuilt from the stored JSON.
    const minable = await pool.pendingTxsInPriorityOrder(2);
    assert.deepEqual(minable, [toMinableTx(txs[1]!.tx), toMinableTx(txs[2]!.tx)]);
    await pool.close();
    await db.destroy();
  });

  it('crash: an acknowledged add is on disk even if the process never closes the pool', async () => {
    const file = join(dir, 'crash.sqlite');
    const t = tx(4n);
    const db1 = openDb(file);
    await (await TxPool.open({ db: db1, chain: funded() })).add(t.tx, t.wire);
    await db1.destroy(); // no pool.close()
    const db2 = openDb(file);
    const pool = await TxPool.open({ db: db2, chain: funded() });
    assert.equal(pool.isPending(BigInt(t.hash)), true);
    await db2.destroy();
  });

  it('dropped records survive a restart', async () => {
    const file = join(dir, 'dropped.sqlite');
    const t = tx(4n);
    let db = openDb(file);
    let pool = await TxPool.open({ db, chain: funded() });
    await pool.add(t.tx, t.wire);
    await pool.markDropped([BigInt(t.hash)], 'Tx failed in setup');
    await db.destroy();
    db = openDb(file);
    pool = await TxPool.open({ db, chain: funded() });
    assert.deepEqual(await pool.getTxStatus(BigInt(t.hash)), { status: 'dropped', reason: 'Tx failed in setup' });
    await db.destroy();
  });
});

describe('TxPool storage: one body per tx', () => {
  const rows = async (db: Knex, table: string) =>
    (await db(table).orderBy('tx_hash').select('tx_hash')).map((r) => r.tx_hash as string);

  it('mining moves no body; pruning the mined record, or dropping a pending tx, deletes it', async () => {
    const file = join(dir, 'bodies.sqlite');
    let db = openDb(file);
    let pool = await TxPool.open({ db, chain: funded() });
    const a = tx(5n),
      b = tx(6n),
      c = tx(7n);
    for (const t of [a, b, c]) await pool.add(t.tx, t.wire);
    const all = [a.hash, b.hash, c.hash].sort();
    assert.deepEqual(await rows(db, 'txpool_bodies'), all);
    const text = async (h: string) =>
      (await db('txpool_bodies').where({ tx_hash: h }).first('wire_json'))?.wire_json as string | undefined;
    const aText = await text(a.hash);
    assert.deepEqual(JSON.parse(aText!), a.wire);

    await commitBlock(db, pool, 8, [BigInt(a.hash), BigInt(b.hash)]);
    assert.deepEqual(await rows(db, 'txpool_txs'), [c.hash]);
    assert.deepEqual(await rows(db, 'txpool_mined'), [a.hash, b.hash].sort());
    assert.deepEqual(await rows(db, 'txpool_bodies'), all, 'the mined txs keep their bodies, nothing was copied');
    assert.equal(await text(a.hash), aText);
    await pool.close();
    await db.destroy();

    db = openDb(file); // a restart reads the same records
    pool = await TxPool.open({ db, chain: funded() });
    assert.deepEqual(await pool.getPendingTxs(10), [c.wire]);
    await pool.markDropped([BigInt(c.hash)], 'Tx failed in setup');
    assert.deepEqual(await rows(db, 'txpool_bodies'), [a.hash, b.hash].sort());
    await pool.pruneMined(8);
    assert.deepEqual(await rows(db, 'txpool_mined'), []);
    assert.deepEqual(await rows(db, 'txpool_bodies'), []);
    assert.deepEqual(await pool.getTxStatus(BigInt(c.hash)), { status: 'dropped', reason: 'Tx failed in setup' });
    await pool.close();
    await db.destroy();
  });
});

describe('TxPool lifecycle', () => {
  it('a block commit: its txs leave the pool and are no longer pending or dropped', async () => {
    const db = openDb();
    const pool = await TxPool.open({ db, chain: funded() });
    const a = tx(5n),
      b = tx(6n);
    await pool.add(a.tx, a.wire);
    await pool.add(b.tx, b.wire);
    await commitBlock(db, pool, 1, [BigInt(a.hash)]);
    assert.equal(await pool.getTxStatus(BigInt(a.hash)), undefined);
    assert.deepEqual(await pool.getTxStatus(BigInt(b.hash)), { status: 'pending' });
    assert.equal(pool.pendingCount, 1);
    await db.destroy();
  });

  it('after a block: txs whose nullifier is now in the tree, that expired, or that the balance no longer covers are dropped with the reason', async () => {
    const chain = funded();
    const db = openDb();
    const pool = await TxPool.open({ db, chain });
    const spent = tx(5n, { nullifiers: [0x777n] });
    const expiring = tx(5n, { expiration: chain.nextTimestamp + 5n });
    const poor = tx(5n, { payer: 0x1002n });
    const fine = tx(5n);
    for (const t of [spent, expiring, poor, fine]) await pool.add(t.tx, t.wire);
    chain.nullifiers.add(0x777n);
    chain.nextTimestamp += 12n;
    chain.balances.set(0x1002n, 0n);
    await commitBlock(db, pool, 8);
    const status = async (t: { hash: string }) => pool.getTxStatus(BigInt(t.hash));
    assert.deepEqual(await status(spent), { status: 'dropped', reason: TX_ERROR.EXISTING_NULLIFIER });
    assert.deepEqual(await status(expiring), { status: 'dropped', reason: TX_ERROR.INVALID_EXPIRATION_TIMESTAMP });
    assert.deepEqual(await status(poor), { status: 'dropped', reason: TX_ERROR.INSUFFICIENT_FEE_PAYER_BALANCE });
    assert.deepEqual(await status(fine), { status: 'pending' });
    await db.destroy();
  });

  it('a pool waiting for block 1 keeps and admits txs past their expiration (block 1 is exempt); once block 1 is in, they are dropped', async () => {
    const chain = funded();
    chain.latestBlock = 0;
    const db = openDb();
    const pool = await TxPool.open({ db, chain });
    const expired = tx(5n, { expiration: chain.nextTimestamp - 1n });
    await pool.add(expired.tx, expired.wire);
    assert.deepEqual(await pool.revalidateAfterBlock(), []);
    assert.deepEqual(await pool.getTxStatus(BigInt(expired.hash)), { status: 'pending' });
    chain.latestBlock = 1;
    assert.deepEqual(await pool.revalidateAfterBlock(), [
      { txHash: BigInt(expired.hash), reason: TX_ERROR.INVALID_EXPIRATION_TIMESTAMP },
    ]);
    await db.destroy();
  });

  it('revalidateAfterBlock returns what it dropped and leaves valid txs', async () => {
    const chain = funded();
    const db = openDb();
    const pool = await TxPool.open({ db, chain });
    const a = tx(5n, { nullifiers: [0x888n] }),
      b = tx(6n);
    await pool.add(a.tx, a.wire);
    await pool.add(b.tx, b.wire);
    assert.deepEqual(await pool.revalidateAfterBlock(), []);
    chain.nullifiers.add(0x888n);
    // Once per block and slot: the same tip and next slot are not revalidated twice.
    assert.deepEqual(await pool.revalidateAfterBlock(), []);
    chain.latestBlock++;
    assert.deepEqual(await pool.revalidateAfterBlock(), [
      { txHash: BigInt(a.hash), reason: TX_ERROR.EXISTING_NULLIFIER },
    ]);
    assert.equal(pool.pendingCount, 1);
    await db.destroy();
  });

  it('a dropped tx sent again is pending again', async () => {
    const db = openDb();
    const pool = await TxPool.open({ db, chain: funded() });
    const a = tx(5n);
    await pool.add(a.tx, a.wire);
    await pool.markDropped([BigInt(a.hash)], 'test');
    assert.equal(await pool.add(a.tx, a.wire), 'added');
    assert.deepEqual(await pool.getTxStatus(BigInt(a.hash)), { status: 'pending' });
    await db.destroy();
  });

  it('closed: add fails with PoolNotRunning, which the server sends as -32002', async () => {
    const db = openDb();
    const pool = await TxPool.open({ db, chain: funded() });
    await pool.close();
    const a = tx(5n);
    const err = await pool.add(a.tx, a.wire).catch((e: unknown) => e);
    assert.ok(err instanceof PoolNotRunning);
    assert.deepEqual(toJsonRpcError(err), {
      code: -32002,
      message: 'Node not ready: P2P client not running',
      data: { reason: 'P2P client not running' },
    });
    await db.destroy();
  });
});
