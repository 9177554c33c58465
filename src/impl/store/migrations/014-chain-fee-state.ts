/**
 * Migration 014: the chain's fee state after each block (`chain_blocks.excess_mana`), so that a
 * restart or a rollback reads it from the block row instead of replaying every block's mana.
 * @module
 */
import type { Knex } from 'knex';

/** Adds chain_blocks.excess_mana (decimal text; bigints do not fit SQLite integers). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chain_blocks', (t) => {
    t.string('excess_mana', 80).notNullable().defaultTo('0');
  });
}

/** Drops chain_blocks.excess_mana. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chain_blocks', (t) => {
    t.dropColumn('excess_mana');
  });
}
