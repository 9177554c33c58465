/**
 * A tx's wire JSON is stored once (issue #21): `txpool_bodies` holds the exact text each pending or
 * mined tx was sent as, keyed by tx hash, and the pending (`txpool_txs`) and mined (`txpool_mined`)
 * records become small rows that point at it by hash. Mining a block then deletes a pending record
 * and inserts a mined one instead of copying ~135 KB per tx inside the block's transaction. Pending
 * records keep the body's size (`wire_bytes`) for the pool's byte gauge, so it is not read from
 * the bodies. Existing rows' JSON moves into the bodies table unchanged.
 *
 * `alter table … drop column` is the same SQL on both engines and, on SQLite (≥ 3.35), edits the
 * table in place; knex's SQLite `dropColumn` recreates the table instead, and dropping the old
 * `txpool_txs` would cascade-delete `txpool_nullifiers` (foreign keys are on inside the migration's
 * transaction).
 * @module
 */
import type { Knex } from 'knex';

const dropColumn = (knex: Knex, table: string, column: string) =>
  knex.raw('alter table ?? drop column ??', [table, column]);

/** Moves every wire JSON text into txpool_bodies and drops the copies' columns. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('txpool_bodies', (t) => {
    t.string('tx_hash', 66).primary();
    t.text('wire_json').notNullable();
  });
  const bodies = knex.raw('?? (??, ??)', ['txpool_bodies', 'tx_hash', 'wire_json']);
  await knex.into(bodies).insert(knex('txpool_txs').select('tx_hash', 'wire_json'));
  // A tx is pending or mined, never both; a stray mined record of a pending tx keeps the pending text.
  await knex
    .into(bodies)
    .insert(
      knex('txpool_mined').select('tx_hash', 'wire_json').whereNotIn('tx_hash', knex('txpool_txs').select('tx_hash')),
    );
  await knex.schema.alterTable('txpool_txs', (t) => {
    t.bigInteger('wire_bytes').notNullable().defaultTo(0);
  });
  await knex('txpool_txs').update({ wire_bytes: knex.raw('length(??)', ['wire_json']) });
  await dropColumn(knex, 'txpool_txs', 'wire_json');
  await dropColumn(knex, 'txpool_mined', 'wire_json');
}

/** Puts each record's wire JSON back beside it and drops txpool_bodies. */
export async function down(knex: Knex): Promise<void> {
  for (const table of ['txpool_txs', 'txpool_mined']) {
    // SQLite adds a NOT NULL column only with a default; every row gets its text right after.
    await knex.schema.alterTable(table, (t) => {
      t.text('wire_json').notNullable().defaultTo('');
    });
    await knex(table).update({
      wire_json: knex('txpool_bodies')
        .select('wire_json')
        .where('txpool_bodies.tx_hash', knex.ref(`${table}.tx_hash`)),
    });
  }
  await dropColumn(knex, 'txpool_txs', 'wire_bytes');
  await knex.schema.dropTable('txpool_bodies');
}
