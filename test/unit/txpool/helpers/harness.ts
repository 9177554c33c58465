/**
 * Starts the real JSON-RPC server with the generated public method table and the transaction
 * handlers over a real pool (SQLite file or memory) and a chain view, on a free port.
 * @module
 */
import type { Knex } from 'knex';
import { openTestKnex } from '../../store/engines.ts';
import { publicMethods } from '../../../../src/generated/public/methods.ts';
import type { AllowedElement } from '../../../../src/impl/execution/allow-list.ts';
import { createTransactionHandlers, poolTransactions } from '../../../../src/impl/rpc/public/transactions.ts';
import type { ChainView } from '../../../../src/impl/txpool/chain-view.ts';
import { TxPool } from '../../../../src/impl/txpool/tx-pool.ts';
import type { TxPoolConfig } from '../../../../src/impl/txpool/tx-pool.ts';
import { createNodeTxValidator } from '../../../../src/impl/txpool/tx-validator.ts';
import type { ProofVerifier, TxValidatorConfig } from '../../../../src/impl/txpool/tx-validator.ts';
import { createRpcServer } from '../../../../src/server/http.ts';
import { silentLogger } from '../../../../src/server/logger.ts';

/** Opens a knex SQLite database (a file, or ':memory:'); under L2NODE_TEST_ENGINE=postgres, a Postgres schema named after it. */
export function openDb(filename = ':memory:'): Knex {
  return openTestKnex(filename);
}

/** A running node slice: server, pool and database. */
export interface TxNode {
  readonly url: string;
  readonly pool: TxPool;
  readonly db: Knex;
  /** Sends one JSON-RPC call; returns the parsed response body. */
  call(
    method: string,
    params?: unknown[],
  ): Promise<{ result?: any; error?: { code: number; message: string; data?: any } }>;
  /** Sends one call and returns the raw response text. */
  callRaw(method: string, params?: unknown[]): Promise<string>;
  close(): Promise<void>;
}

/** Options of `startTxNode`. */
export interface TxNodeOptions {
  readonly chain: ChainView;
  readonly db?: Knex;
  readonly pool?: Partial<TxPoolConfig>;
  readonly validator?: Partial<TxValidatorConfig>;
  readonly allowList?: readonly AllowedElement[];
  readonly proofVerifier?: ProofVerifier;
}

/** Starts the server on 127.0.0.1 and a free port. */
export async function startTxNode(o: TxNodeOptions): Promise<TxNode> {
  const db = o.db ?? openDb();
  const pool = await TxPool.open({ db, chain: o.chain, config: o.pool });
  const validateTx = createNodeTxValidator({
    chain: o.chain,
    allowList: () => o.allowList ?? [],
    proofVerifier: o.proofVerifier,
    config: o.validator,
  });
  const server = createRpcServer({
    methods: publicMethods,
    handlers: createTransactionHandlers(poolTransactions(pool, validateTx)),
    limits: { maxBodyBytes: 4 * 1024 * 1024, maxBatchSize: 100 },
    logger: silentLogger,
  });
  const { port } = await server.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  let id = 0;
  const callRaw = async (method: string, params: unknown[] = []) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    return res.text();
  };
  return {
    url,
    pool,
    db,
    callRaw,
    call: async (method, params) => JSON.parse(await callRaw(method, params)),
    async close() {
      await server.close();
      await pool.close();
      if (o.db === undefined) await db.destroy();
    },
  };
}
