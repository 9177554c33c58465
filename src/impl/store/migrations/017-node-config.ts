/**
 * The live admin configuration (src/impl/node-config): each setting changed through
 * nodeAdmin_setConfig, as JSON, so a restart keeps it. Idempotent, like 015.
 * @module
 */
import type { Knex } from 'knex';

/** Creates the admin configuration table. */
export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('node_admin_config')) return;
  await knex.schema.createTable('node_admin_config', (t) => {
    t.string('key', 80).primary();
    t.text('value_json').notNullable();
  });
}

/** Drops the admin configuration table. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('node_admin_config');
}
