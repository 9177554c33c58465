/**
 * Migration 019: covering indexes for logs by tag. node_getLogsByTags reads (tag, block, tx, log)
 * for up to 1000 tags in one statement; with every column in the index it never touches the table,
 * and the rows come out in chain order per tag. They replace the (tag, block_number) indexes of
 * 011, which are their prefix.
 * @module
 */
import type { Knex } from 'knex';

const TABLES = ['chain_private_logs', 'chain_public_logs'];

/** Replaces the tag indexes with covering ones. */
export async function up(knex: Knex): Promise<void> {
  for (const name of TABLES) {
    await knex.schema.alterTable(name, (t) => {
      t.dropIndex(['tag', 'block_number']);
      t.index(['tag', 'block_number', 'tx_index', 'log_index'], `${name}_tag_position`);
    });
  }
}

/** Restores the indexes of 011. */
export async function down(knex: Knex): Promise<void> {
  for (const name of TABLES) {
    await knex.schema.alterTable(name, (t) => {
      t.dropIndex([], `${name}_tag_position`);
      t.index(['tag', 'block_number']);
    });
  }
}
