/**
 * Tables of the mempool (src/impl/txpool): pending txs with the exact wire JSON they were sent
 * as, plus the columns the pool orders and groups by; their nullifiers (one row each, unique,
 * since two pending txs never share one); and the record of dropped txs with the reason.
 * @module
 */
import type { Knex } from 'knex';

/** Creates the mempool tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('txpool_txs', (t) => {
    t.string('tx_hash', 66).primary();
    t.integer('seq').notNullable();
    // 0x + 64 hex digits, so the text order is the numeric order.
    t.string('priority_fee', 66).notNullable().index();
    t.string('fee_payer', 66).notNullable().index();
    t.string('fee_limit').notNullable();
    t.string('claim_amount').notNullable();
    t.string('expiration_timestamp').notNullable();
    t.string('max_priority_fee_da').notNullable();
    t.string('max_priority_fee_l2').notNullable();
    t.bigInteger('received_at_ms').notNullable();
    t.text('wire_json').notNullable();
  });
  await knex.schema.createTable('txpool_nullifiers', (t) => {
    t.string('nullifier', 66).primary();
    t.string('tx_hash', 66).notNullable().index().references('tx_hash').inTable('txpool_txs').onDelete('CASCADE');
  });
  await knex.schema.createTable('txpool_dropped', (t) => {
    t.increments('id');
    t.string('tx_hash', 66).notNullable().unique();
    t.text('reason').notNullable();
    t.bigInteger('dropped_at_ms').notNullable();
  });
}

/** Drops the mempool tables. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('txpool_dropped');
  await knex.schema.dropTableIfExists('txpool_nullifiers');
  await knex.schema.dropTableIfExists('txpool_txs');
}
