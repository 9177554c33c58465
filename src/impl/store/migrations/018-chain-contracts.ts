/**
 * Migration 018: the contract index — classes published through the class registry's logs and
 * instances published through the instance registry's logs, each with the block that published
 * it, so that unwinding a block removes what it published (rows with a later block_number).
 * @module
 */
import type { Knex } from 'knex';

/** Creates chain_contract_classes and chain_contract_instances. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chain_contract_classes', (t) => {
    t.string('class_id', 66).primary();
    t.integer('block_number').notNullable().index();
    t.string('artifact_hash', 66).notNullable();
    t.string('private_functions_root', 66).notNullable();
    t.binary('packed_bytecode').notNullable();
  });
  await knex.schema.createTable('chain_contract_instances', (t) => {
    t.string('address', 66).primary();
    t.integer('block_number').notNullable().index();
    t.string('class_id', 66).notNullable();
    // The rest of ContractInstanceWithAddress as JSON of hex strings (never queried by field).
    t.text('data').notNullable();
  });
}

/** Drops the contract index. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('chain_contract_instances');
  await knex.schema.dropTableIfExists('chain_contract_classes');
}
