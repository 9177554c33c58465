/**
 * The mempool's record of mined txs (src/impl/txpool): the exact wire JSON of each tx it saw
 * mined, with the block number, so a rollback (nodeAdmin_rollbackTo) can re-admit an unwound tx.
 * Entries at or below the finalized block are pruned (they can no longer be unwound without
 * `force`), and at most the newest 10 000 are kept.
 * @module
 */
import type { Knex } from 'knex';

/** Creates the mined-tx table. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('txpool_mined', (t) => {
    t.string('tx_hash', 66).primary();
    t.bigInteger('block_number').notNullable().index();
    t.text('wire_json').notNullable();
  });
}

/** Drops the mined-tx table. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('txpool_mined');
}
