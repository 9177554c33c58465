/**
 * Tables of the slasher (src/impl/slashing): recorded offenses (one per validator, kind and
 * epoch-or-slot), the slash payloads built for each round, and the votes this node's proposers
 * cast for them (one per slot). Idempotent, like 015.
 * @module
 */
import type { Knex } from 'knex';

/** Creates the slashing tables. */
export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('slash_offenses'))) {
    await knex.schema.createTable('slash_offenses', (t) => {
      t.string('validator', 42).notNullable();
      t.integer('offense_type').notNullable();
      t.string('epoch_or_slot', 40).notNullable();
      t.string('amount', 80).notNullable();
      t.integer('round').notNullable().index();
      t.primary(['validator', 'offense_type', 'epoch_or_slot']);
    });
  }
  if (!(await knex.schema.hasTable('slash_payloads'))) {
    await knex.schema.createTable('slash_payloads', (t) => {
      t.string('address', 42).primary();
      t.integer('round').notNullable().index();
      t.string('timestamp', 40).notNullable();
      t.text('slashes_json').notNullable();
    });
  }
  if (!(await knex.schema.hasTable('slash_votes'))) {
    await knex.schema.createTable('slash_votes', (t) => {
      t.integer('slot').primary();
      t.integer('round').notNullable().index();
      t.string('payload', 42).notNullable();
    });
  }
}

/** Drops the slashing tables. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('slash_votes');
  await knex.schema.dropTableIfExists('slash_payloads');
  await knex.schema.dropTableIfExists('slash_offenses');
}
