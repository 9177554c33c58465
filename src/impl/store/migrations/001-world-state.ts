/**
 * Migration 001: metadata table and the world-state tables. Every tree row carries the block that
 * wrote it, so "state as of block B" is the newest row with block_number ≤ B and unwinding to B
 * deletes the rows above B. Field values are 32-byte big-endian blobs (bytewise order = numeric
 * order in both SQLite and Postgres).
 * @module
 */
import type { Knex } from 'knex';
import { dropTables, requiredColumns } from './schema-helpers.ts';

/** Creates the tables. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('l2node_metadata', (t) => {
    t.string('key', 128).primary();
    t.text('value').notNullable();
  });
  // Tree nodes by position: level 0 = leaf hashes, level = height is the root.
  await knex.schema.createTable('ws_nodes', (t) => {
    requiredColumns(t, 'tree_id integer, level integer, node_index bigInteger, block_number bigInteger, hash binary');
    t.primary(['tree_id', 'level', 'node_index', 'block_number']);
    t.index(['block_number'], 'ws_nodes_block');
  });
  // Root and size of every tree after every block.
  await knex.schema.createTable('ws_tree_state', (t) => {
    requiredColumns(t, 'tree_id integer, block_number bigInteger, root binary, size bigInteger');
    t.primary(['tree_id', 'block_number']);
  });
  // Indexed-tree leaf preimages (nullifier: value unused/0; public data: value = storage value).
  await knex.schema.createTable('ws_indexed_leaves', (t) => {
    requiredColumns(t, 'tree_id integer, leaf_index bigInteger, block_number bigInteger');
    requiredColumns(t, 'leaf_key binary, leaf_value binary, next_key binary, next_index bigInteger');
    t.primary(['tree_id', 'leaf_index', 'block_number']);
    t.index(['block_number'], 'ws_indexed_leaves_block');
  });
  // Indexed-tree keys (never removed except by unwinding): exact and low-leaf lookups.
  await knex.schema.createTable('ws_indexed_keys', (t) => {
    requiredColumns(t, 'tree_id integer, leaf_key binary, leaf_index bigInteger, block_number bigInteger');
    t.primary(['tree_id', 'leaf_key']);
    t.index(['block_number'], 'ws_indexed_keys_block');
  });
  // Append-only tree leaf values → index, for findLeafIndices and membership witnesses.
  await knex.schema.createTable('ws_leaf_values', (t) => {
    requiredColumns(t, 'tree_id integer, leaf_index bigInteger, leaf_value binary, block_number bigInteger');
    t.primary(['tree_id', 'leaf_index']);
    t.index(['tree_id', 'leaf_value'], 'ws_leaf_values_value');
    t.index(['block_number'], 'ws_leaf_values_block');
  });
  // Blocks applied to the world state (block 0 = genesis).
  await knex.schema.createTable('ws_blocks', (t) => {
    t.bigInteger('block_number').primary();
    requiredColumns(t, 'block_hash binary, header_json text');
  });
}

/** Drops the tables. */
export async function down(knex: Knex): Promise<void> {
  await dropTables(knex, [
    'ws_blocks',
    'ws_leaf_values',
    'ws_indexed_keys',
    'ws_indexed_leaves',
    'ws_tree_state',
    'ws_nodes',
    'l2node_metadata',
  ]);
}
