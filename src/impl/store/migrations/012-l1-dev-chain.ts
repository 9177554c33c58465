/**
 * Tables of the in-process L1 (src/impl/l1): the inbox (L1→L2 messages sent on L1) and the
 * checkpoints posted to the rollup contract with their L2→L1 out hash.
 * @module
 */
import type { Knex } from 'knex';

/** Creates the in-process L1 tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('l1_inbox', (t) => {
    t.increments('id');
    t.string('message', 66).notNullable().unique();
    t.string('l1_block_number').notNullable();
  });
  await knex.schema.createTable('l1_checkpoints', (t) => {
    t.integer('number').primary();
    t.string('hash', 66).notNullable();
    t.integer('slot').notNullable();
    t.integer('epoch').notNullable();
    t.string('l1_block_number').notNullable();
    t.string('out_hash', 66).notNullable();
  });
}

/** Drops the in-process L1 tables. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('l1_checkpoints');
  await knex.schema.dropTableIfExists('l1_inbox');
}
