/**
 * Migration 020: a covering index for low-leaf lookups at a past block. "The largest key ≤ k
 * present at block B" walks keys downward from k and skips those inserted after B; with the block
 * and the leaf index in the index, that walk never reads the table (on a 100 000-leaf tree at an
 * early block it passes hundreds of later keys).
 * @module
 */
import type { Knex } from 'knex';

const INDEX = 'ws_indexed_keys_low_key';

/** Adds the index. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ws_indexed_keys', (t) => {
    t.index(['tree_id', 'leaf_key', 'block_number', 'leaf_index'], INDEX);
  });
}

/** Drops it. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ws_indexed_keys', (t) => {
    t.dropIndex([], INDEX);
  });
}
