/**
 * One owner of tx status (src/impl/txpool/tx-status.ts): the drop records the chain kept beside the
 * pool's (`chain_dropped_txs`, the block builder's refusals) move into the pool's `txpool_dropped`,
 * the one table of dropped txs with their reasons, and the chain's table goes. Pending txs get
 * their anchor block hash as a column (filled from the stored wire JSON by the pool on open), so
 * a rollback can drop every tx anchored in an unwound block inside its own transaction.
 * @module
 */
import type { Knex } from 'knex';

/** Folds the chain's drop records into txpool_dropped and adds txpool_txs.anchor_block_hash. */
export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn('txpool_txs', 'anchor_block_hash'))) {
    await knex.schema.alterTable('txpool_txs', (t) => {
      t.string('anchor_block_hash', 66).nullable();
    });
  }
  if (await knex.schema.hasTable('chain_dropped_txs')) {
    const now = Date.now();
    for (const r of await knex('chain_dropped_txs').select('tx_hash', 'reason')) {
      await knex('txpool_dropped')
        .insert({ tx_hash: r.tx_hash, reason: r.reason, dropped_at_ms: now })
        .onConflict('tx_hash')
        .ignore();
    }
    await knex.schema.dropTable('chain_dropped_txs');
  }
}

/** Restores the chain's (empty) drop table and removes the anchor column. */
export async function down(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('chain_dropped_txs'))) {
    await knex.schema.createTable('chain_dropped_txs', (t) => {
      t.string('tx_hash', 66).primary();
      t.text('reason').notNullable();
    });
  }
  await knex.schema.alterTable('txpool_txs', (t) => {
    t.dropColumn('anchor_block_hash');
  });
}
