/**
 * Compatibility entry for callers that opened "the chain database": the node has one database
 * now (world state, chain, L1, pool), opened and migrated by `store/database.ts`.
 * @module
 */
import type { Knex } from 'knex';
import { openDatabase } from '../store/database.ts';

/** Opens the node database: ':memory:' (or '') for an in-memory one, else a data directory. */
export async function openChainDb(dataDirectory: string): Promise<Knex> {
  return openDatabase({ dataDirectory: dataDirectory === ':memory:' ? '' : dataDirectory });
}
