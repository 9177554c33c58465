/**
 * Log indexes: private logs by tag (first field), public logs by contract and tag, contract class
 * logs by contract. Rows point into the block body (block, tx index, log index), so queries are
 * answered from an index and never by scanning blocks.
 * @module
 */
import type { Knex } from 'knex';
import { dropTables } from './schema-helpers.ts';

/** Creates the log index tables. */
export async function up(knex: Knex): Promise<void> {
  for (const name of ['chain_private_logs', 'chain_public_logs', 'chain_contract_class_logs']) {
    await knex.schema.createTable(name, (t) => {
      t.integer('block_number').notNullable();
      t.integer('tx_index').notNullable();
      t.integer('log_index').notNullable();
      t.string('tag', 66).notNullable();
      t.string('contract', 66).notNullable();
      t.primary(['block_number', 'tx_index', 'log_index']);
      t.index(['tag', 'block_number']);
      t.index(['contract', 'block_number']);
    });
  }
}

/** Drops the log index tables. */
export async function down(knex: Knex): Promise<void> {
  await dropTables(knex, ['chain_contract_class_logs', 'chain_public_logs', 'chain_private_logs']);
}
