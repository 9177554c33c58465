/**
 * What every role reports about its storage and chain, for `node_isReady` and GET /status: the
 * database answers a query, and its state with the latest block number (left out while the
 * database is not connected: the report must not wait on a lost connection).
 * @module
 */
import type { Knex } from 'knex';
import type { ChainQueries } from './chain/chain-queries.ts';
import { type DatabaseHealth, type DatabaseHealthReport, DatabaseState } from './store/database.ts';

/** True when the database answers `select 1` now. */
export function databaseAnswers(db: Knex): Promise<boolean> {
  return db.raw('select 1').then(
    () => true,
    () => false,
  );
}

/** The database part of GET /status: its state, and the latest block number while it is connected. */
export async function storageStatus(
  dbHealth: DatabaseHealth,
  chain: Pick<ChainQueries, 'getBlockNumber'>,
): Promise<{ readonly database: DatabaseHealthReport; readonly latestBlockNumber?: number }> {
  const database = dbHealth.report();
  const latestBlockNumber =
    database.state === DatabaseState.CONNECTED ? await chain.getBlockNumber().catch(() => undefined) : undefined;
  return { database, ...(latestBlockNumber === undefined ? {} : { latestBlockNumber }) };
}
