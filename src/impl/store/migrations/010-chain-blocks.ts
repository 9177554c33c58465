/**
 * Chain tables: blocks (body as JSON), checkpoints, the tx index, dropped txs, L1→L2 message
 * placement and a small key/value table for chain metadata. Owned by src/impl/chain.
 * @module
 */
import type { Knex } from 'knex';
import { dropTables } from './schema-helpers.ts';

/** Creates the chain tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chain_blocks', (t) => {
    t.integer('number').primary();
    t.string('hash', 66).notNullable().unique();
    t.string('archive_root', 66).notNullable().unique();
    t.integer('checkpoint_number').notNullable().index();
    t.integer('index_within_checkpoint').notNullable();
    t.integer('slot').notNullable();
    t.text('data').notNullable();
  });
  await knex.schema.createTable('chain_checkpoints', (t) => {
    t.integer('number').primary();
    t.string('hash', 66).notNullable();
    t.integer('slot').notNullable();
    t.integer('epoch').notNullable().index();
    t.integer('start_block').notNullable();
    t.integer('block_count').notNullable();
    t.text('data').notNullable();
  });
  await knex.schema.createTable('chain_tx_effects', (t) => {
    t.string('tx_hash', 66).primary();
    t.integer('block_number').notNullable().index();
    t.integer('tx_index').notNullable();
  });
  await knex.schema.createTable('chain_dropped_txs', (t) => {
    t.string('tx_hash', 66).primary();
    t.text('reason').notNullable();
  });
  await knex.schema.createTable('chain_l1_to_l2_messages', (t) => {
    t.string('message', 66).notNullable().index();
    t.integer('leaf_index').notNullable().primary();
    t.integer('block_number').notNullable();
  });
  await knex.schema.createTable('chain_meta', (t) => {
    t.string('key').primary();
    t.text('value').notNullable();
  });
}

/** Drops the chain tables. */
export async function down(knex: Knex): Promise<void> {
  await dropTables(knex, [
    'chain_meta',
    'chain_l1_to_l2_messages',
    'chain_dropped_txs',
    'chain_tx_effects',
    'chain_checkpoints',
    'chain_blocks',
  ]);
}
