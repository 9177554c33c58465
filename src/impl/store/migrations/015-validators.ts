/**
 * Tables of the validator record (src/impl/validators): one row per processed slot (proposer,
 * what happened, how many valid attestations), one row per validator with a status in that slot
 * (with the attestation signature when one was seen), and each validator's per-epoch proven
 * performance. Idempotent, so the validators module can also run it on a database opened elsewhere.
 * @module
 */
import type { Knex } from 'knex';

/** Creates the validator record tables. */
export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('validator_slots'))) {
    await knex.schema.createTable('validator_slots', (t) => {
      t.integer('slot').primary();
      t.integer('epoch').notNullable().index();
      t.string('proposer', 42).notNullable();
      t.string('proposer_status', 32).notNullable();
      t.string('digest', 66);
      t.integer('attestations').notNullable();
      t.integer('committee_size').notNullable();
    });
  }
  if (!(await knex.schema.hasTable('validator_slot_entries'))) {
    await knex.schema.createTable('validator_slot_entries', (t) => {
      t.integer('slot').notNullable();
      t.string('validator', 42).notNullable();
      t.string('status', 32).notNullable();
      t.string('signature', 132);
      t.primary(['validator', 'slot']);
      t.index(['slot']);
    });
  }
  if (!(await knex.schema.hasTable('validator_proven_performance'))) {
    await knex.schema.createTable('validator_proven_performance', (t) => {
      t.string('validator', 42).notNullable();
      t.integer('epoch').notNullable();
      t.integer('missed').notNullable();
      t.integer('total').notNullable();
      t.primary(['validator', 'epoch']);
    });
  }
}

/** Drops the validator record tables. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('validator_proven_performance');
  await knex.schema.dropTableIfExists('validator_slot_entries');
  await knex.schema.dropTableIfExists('validator_slots');
}
