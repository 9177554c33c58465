/**
 * The chain store's decoded-block cache is bounded by the JSON it decoded, not only by its count:
 * blocks of many txs must not hold a count's worth of big blocks in the heap (issue #21).
 * @module
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChainStore } from '../../src/impl/chain/chain-store.ts';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { devEngine, GENESIS, syntheticTx } from './chain-helpers.ts';

test('the decoded-block cache keeps within its JSON byte bound, oldest reads out first, and skips a block over a quarter of it', async (t) => {
  const clock = new ManualClock(Number(GENESIS) * 1000);
  const { engine, txSource } = await devEngine(clock, { proofDelaySeconds: 100_000 });
  t.after(() => engine.stop());
  for (let i = 1; i <= 6; i++) {
    txSource.add(syntheticTx(i));
    clock.advance(4000);
    await engine.tick();
  }
  const db = engine.state.store.db;
  const rows = (await db('chain_blocks').where('number', '>=', 1).orderBy('number').select('number', 'data')) as {
    number: number;
    data: string;
  }[];
  assert.ok(rows.length >= 6);
  const largest = Math.max(...rows.map((r) => r.data.length));
  // Room for about three blocks; every block is under a quarter of it.
  const bound = largest * 4;
  const store = new ChainStore(db, { blockCacheJsonBytes: bound });
  for (const r of rows) {
    const block = await store.findBlock(r.number);
    assert.equal(block?.header.globalVariables.blockNumber, r.number);
    const size = store.blockCacheSize;
    assert.ok(size.jsonBytes <= bound, `${size.jsonBytes} bytes held, bound ${bound}`);
  }
  const held = store.blockCacheSize;
  assert.ok(held.entries >= 3 && held.entries < rows.length, `${held.entries} blocks held of ${rows.length}`);
  // The newest reads stay, the oldest went: the JSON held is exactly the last `entries` blocks'.
  const last = rows.slice(-held.entries);
  assert.equal(
    held.jsonBytes,
    last.reduce((a, r) => a + r.data.length, 0),
  );
  // A block over a quarter of the bound is decoded but not kept.
  const tiny = new ChainStore(db, { blockCacheJsonBytes: largest });
  assert.equal((await tiny.findBlock(rows[0]!.number))?.header.globalVariables.blockNumber, rows[0]!.number);
  assert.deepEqual(tiny.blockCacheSize, { entries: 0, jsonBytes: 0 });
});
