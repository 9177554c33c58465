/**
 * Migration 023 (src/impl/store/migrations/023-txpool-bodies.ts) on a database with rows in the old
 * layout — wire JSON inside the pending (`txpool_txs`) and mined (`txpool_mined`) records — on SQLite
 * and on Postgres: every text moves to `txpool_bodies` unchanged, the records and the pending txs'
 * nullifiers stay, the pool reads the texts back, and `down` puts them back where they were.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Knex } from 'knex';
import * as m023 from '../../../src/impl/store/migrations/023-txpool-bodies.ts';
import { runMigrationList, TXPOOL_MIGRATIONS } from '../../../src/impl/store/migrations/index.ts';
import { PoolStore } from '../../../src/impl/txpool/pool-store.ts';
import { type Engine, openTestKnex } from './engines.ts';

const h = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const PENDING = [
  { tx_hash: h(1), wire_json: JSON.stringify({ txHash: h(1), data: 'a'.repeat(300_000) }), nullifiers: [h(0x101)] },
  { tx_hash: h(2), wire_json: JSON.stringify({ txHash: h(2), data: 'b' }), nullifiers: [h(0x201), h(0x202)] },
];
const MINED = { tx_hash: h(3), wire_json: JSON.stringify({ txHash: h(3), data: 'c'.repeat(70_000) }), block_number: 5 };

/** A pool database at migration 022 with two pending txs and one mined, in the old layout. */
async function oldLayout(engine: Engine): Promise<Knex> {
  const db = openTestKnex(':memory:', engine);
  const before = TXPOOL_MIGRATIONS.migrations.filter((m) => m.name < '023');
  await runMigrationList(db, { tableName: TXPOOL_MIGRATIONS.tableName, migrations: before });
  for (const [i, t] of PENDING.entries()) {
    await db('txpool_txs').insert({
      tx_hash: t.tx_hash,
      seq: i,
      priority_fee: h(9 - i),
      fee_payer: h(0x1001),
      fee_limit: '100',
      claim_amount: '0',
      expiration_timestamp: '0',
      max_priority_fee_da: '0',
      max_priority_fee_l2: String(9 - i),
      received_at_ms: 1,
      wire_json: t.wire_json,
      anchor_block_hash: h(0xa),
    });
    await db('txpool_nullifiers').insert(t.nullifiers.map((nullifier) => ({ nullifier, tx_hash: t.tx_hash })));
  }
  await db('txpool_mined').insert(MINED);
  return db;
}

async function checkMigration(engine: Engine): Promise<void> {
  const db = await oldLayout(engine);
  try {
    await runMigrationList(db, TXPOOL_MIGRATIONS);
    const bodies = await db('txpool_bodies').orderBy('tx_hash').select('tx_hash', 'wire_json');
    assert.deepEqual(bodies, [
      ...PENDING.map(({ tx_hash, wire_json }) => ({ tx_hash, wire_json })),
      {
        tx_hash: MINED.tx_hash,
        wire_json: MINED.wire_json,
      },
    ]);
    assert.deepEqual(
      (await db('txpool_txs').orderBy('seq').select('tx_hash', 'wire_bytes')).map((r) => [
        r.tx_hash,
        Number(r.wire_bytes),
      ]),
      PENDING.map((t) => [t.tx_hash, t.wire_json.length]),
    );
    assert.equal(await db.schema.hasColumn('txpool_txs', 'wire_json'), false);
    assert.equal(await db.schema.hasColumn('txpool_mined', 'wire_json'), false);
    assert.deepEqual(await db('txpool_mined').select('tx_hash', 'block_number'), [
      { tx_hash: MINED.tx_hash, block_number: MINED.block_number },
    ]);
    // The pending txs' nullifiers are untouched (they reference txpool_txs, whose column was dropped).
    assert.deepEqual(
      (await db('txpool_nullifiers').orderBy('nullifier').select('nullifier')).map((r) => r.nullifier),
      PENDING.flatMap((t) => t.nullifiers),
    );

    const store = new PoolStore(db);
    assert.deepEqual(
      (await store.loadEntries()).map((e) => [e.txHash, e.nullifiers.length]),
      PENDING.map((t) => [BigInt(t.tx_hash), t.nullifiers.length]),
    );
    assert.equal(await store.findWireJson(BigInt(PENDING[0]!.tx_hash)), PENDING[0]!.wire_json);
    assert.equal(await store.findWireJson(BigInt(MINED.tx_hash)), undefined, 'a mined tx is not pending');
    assert.equal(await store.pendingBytes(), PENDING[0]!.wire_json.length + PENDING[1]!.wire_json.length);
    await db.transaction(async (trx) =>
      assert.deepEqual(
        await store.findMinedWireJsons(trx, [BigInt(MINED.tx_hash)]),
        new Map([[BigInt(MINED.tx_hash), MINED.wire_json]]),
      ),
    );

    await db.transaction((trx) => m023.down(trx));
    assert.equal(await db.schema.hasTable('txpool_bodies'), false);
    assert.deepEqual(
      await db('txpool_txs').orderBy('seq').select('tx_hash', 'wire_json'),
      PENDING.map(({ tx_hash, wire_json }) => ({ tx_hash, wire_json })),
    );
    assert.deepEqual(await db('txpool_mined').select('tx_hash', 'wire_json'), [
      { tx_hash: MINED.tx_hash, wire_json: MINED.wire_json },
    ]);
    assert.equal(await db.schema.hasColumn('txpool_txs', 'wire_bytes'), false);
    assert.equal((await db('txpool_nullifiers').count('* as n').first())?.n, 3);
  } finally {
    await db.destroy();
  }
}

describe('migration 023: one stored body per tx', () => {
  it('on SQLite: old rows move to txpool_bodies without loss, and back with down', () => checkMigration('sqlite'));
  it('on Postgres: old rows move to txpool_bodies without loss, and back with down', () => checkMigration('postgres'));
});
