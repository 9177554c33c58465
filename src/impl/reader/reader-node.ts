/**
 * `--role rpc`: a read-only process beside a full node (the writer) on the same Postgres
 * database. It opens the database without migrating (a database of another schema version is
 * refused), builds no sequencer, follower or p2p, writes nothing, and serves the public API from
 * what the writer has committed:
 *
 * - Every block is one writer transaction (READ COMMITTED on Postgres), so a block becomes
 *   visible here all at once. Multi-query answers pin a block number first (tips, blocks,
 *   world-state rows are versioned by block) or read in one snapshot (the pool view).
 * - The in-memory views the engine keeps (latest block number, excess mana for min fees, the
 *   latest-state cache of nullifiers and balances the validator reads) are moved forward by a
 *   poll of the database's tip every `REFRESH_MS`; pending txs and counts are read from the
 *   database on every call (reader/pool-view.ts).
 * - `node_sendTx` decodes the tx (a malformed one is -32602 here) and forwards it to the writer
 *   (`--writer-url`); the caller gets the writer's answer, its error as its own. The reader then
 *   reports the tx pending until its database shows it (read-your-writes: reader/replication.ts).
 * - On a hot-standby replica: GET /status shows the replication lag, `--max-replication-lag-ms`
 *   makes the reader not ready above it; recovery-conflict cancellations are retried, and while the
 *   database is unreachable every call answers NODE_NOT_READY (-32002), logged once per change.
 * - Admin: reads work; state-changing methods answer READ_ONLY_NODE (-32053) (see
 *   `readOnlyAdminHandlers`, wired by main.ts).
 * @module
 */
import type { Knex } from 'knex';
import type { AdminHandlerSet } from '../rpc/admin/index.ts';
import { FunctionSignatureRegistry } from '../contracts/function-selector.ts';
import { systemClock } from '../chain/time.ts';
import type { L2Node, NodeOptions } from '../node-types.ts';
import { checkChainParams } from '../node-chain-params.ts';
import { SyncSwitch } from '../node-config/sync-control.ts';
import { ReadOnlyNodeError } from '../rpc/errors.ts';
import { createPublicHandlers } from '../rpc/public/index.ts';
import { SetupAllowList } from '../setup-allow-list.ts';
import { databaseHealth, DatabaseState, getMetadata, openDatabase } from '../store/database.ts';
import { createEngineChainView } from '../txpool/chain-view.ts';
import { createNodeTxValidator } from '../txpool/tx-validator.ts';
import { DatabasePoolView } from './pool-view.ts';
import { ForwardedTxs, guardReaderCall, readReplication } from './replication.ts';
import type { ReplicationStatus } from './replication.ts';
import { createReadEngine, engineSettings } from '../engine.ts';
import type { ReadEngine } from '../engine.ts';
import { openNodeAdmin } from '../node-admin.ts';
import type { AdminParts } from '../node-config/admin-parts.ts';
import { engineHandlerDeps } from '../node-handlers.ts';
import { databaseAnswers, storageStatus } from '../node-health.ts';
import { txForwarder } from '../node-p2p.ts';

/** How often a reader looks for blocks the writer committed (milliseconds). */
export const REFRESH_MS = 100;

/** The admin methods that change state: a reader answers them READ_ONLY_NODE. */
export const STATE_CHANGING_ADMIN_METHODS = [
  'setConfig',
  'pauseSync',
  'resumeSync',
  'rollbackTo',
  'startSnapshotUpload',
  'reloadKeystore',
] as const;

/** The roles `--role` takes. */
export const NODE_ROLES = ['full', 'rpc'] as const;

/** Refuses a `--role` other than full/rpc, and rpc without --database-url or --writer-url. */
export function checkReaderConfig(config: NodeOptions['config']): void {
  if (!(NODE_ROLES as readonly string[]).includes(config.role ?? 'full')) {
    throw new Error(`invalid value ${JSON.stringify(config.role)} for --role: must be one of ${NODE_ROLES.join(', ')}`);
  }
  if (config.role !== 'rpc') return;
  if (!config.databaseUrl)
    throw new Error(
      '--role rpc needs --database-url: a reader serves the database a full node (the writer) keeps in Postgres',
    );
  if (!config.writerUrl)
    throw new Error(
      '--role rpc needs --writer-url: the public JSON-RPC URL of the writer, where node_sendTx is forwarded',
    );
  let url: URL;
  try {
    url = new URL(config.writerUrl);
  } catch {
    throw new Error(
      `invalid value ${JSON.stringify(config.writerUrl)} for --writer-url: must be an http:// or https:// URL`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(
      `invalid value ${JSON.stringify(config.writerUrl)} for --writer-url: must be an http:// or https:// URL`,
    );
  if (config.follow)
    throw new Error('--role rpc cannot be combined with --follow: a reader takes its chain from the shared database');
  if (config.importChain !== undefined) throw new Error('--role rpc cannot be combined with --import-chain');
}

/** The admin handlers of a reader: reads pass, state-changing methods answer READ_ONLY_NODE (-32053). */
export function readOnlyAdminHandlers(handlers: AdminHandlerSet): AdminHandlerSet {
  const refuse = async () => {
    throw new ReadOnlyNodeError();
  };
  return { ...handlers, ...Object.fromEntries(STATE_CHANGING_ADMIN_METHODS.map((name) => [name, refuse])) };
}

/** Builds a reader node (servers not included); nothing polls until `start()`. */
export async function createReaderNode(o: NodeOptions): Promise<L2Node> {
  const { config, logger } = o;
  checkReaderConfig(config);
  const clock = o.clock ?? systemClock;
  // Opened without migrating: the schema must be exactly this code's (the admin stores' migration lists then find
  // nothing pending and write nothing, store/migrations/index.ts).
  const db = await openDatabase({ dataDirectory: '', databaseUrl: config.databaseUrl!, migrate: false });
  let engine: ReadEngine | undefined;
  try {
    // A reader never writes genesis or the chain params: an empty database means the writer has not started.
    if (
      (await getMetadata(db, 'ws_genesis_block_hash')) === undefined ||
      (await getMetadata(db, 'chain_params')) === undefined
    ) {
      throw new Error(
        'the database holds no chain yet: start the writer (a full node with the same --database-url) first',
      );
    }
    await checkChainParams(db, config, { readOnly: true });
    const forwarded = new ForwardedTxs();
    const pool = new DatabasePoolView(db, forwarded);
    engine = await createReadEngine({ ...engineSettings(config, clock), db, txStatus: (h) => pool.getTxStatus(h) });
    const allowList = new SetupAllowList();
    // The admin side reads the same database; its state-changing methods answer READ_ONLY_NODE (main.ts).
    const admin = o.admin === true ? await openNodeAdmin({ db, engine, pool, allowList }, config, logger) : undefined;
    return assembleReader(o, db, engine, pool, forwarded, allowList, admin);
  } catch (err) {
    await engine?.stop().catch(() => undefined);
    await db.destroy();
    throw err;
  }
}

function assembleReader(
  o: NodeOptions,
  db: Knex,
  engine: ReadEngine,
  pool: DatabasePoolView,
  forwarded: ForwardedTxs,
  allowList: SetupAllowList,
  admin: AdminParts | undefined,
): L2Node {
  const { config, logger } = o;
  const writerUrl = config.writerUrl!;
  const signatures = new FunctionSignatureRegistry();
  const chain = createEngineChainView(engine);
  const validateTx = createNodeTxValidator({
    chain,
    allowList: () => allowList.list(),
    config: { maxGasLimits: { daGas: config.maxDaGasPerBlock, l2Gas: config.maxL2GasPerBlock } },
  });
  const dbHealth = databaseHealth(db);
  const gate = admin?.sync ?? new SyncSwitch(config.sequencerPollingIntervalMs);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let refreshing: Promise<unknown> = Promise.resolve();
  let lastRefreshOk = false;
  let replication: ReplicationStatus | undefined;
  const maxLagMs = config.maxReplicationLagMs;

  /** Moves the engine's in-memory views to the writer's committed tip, and reads the replication lag. */
  const refresh = async () => {
    await engine.catchUpWithStore();
    replication = await readReplication(db);
    lastRefreshOk = true;
  };
  const tooFarBehind = () => maxLagMs !== undefined && replication !== undefined && replication.lagMs > maxLagMs;
  const isReady = async () => {
    if (stopped || !lastRefreshOk || dbHealth.state !== DatabaseState.CONNECTED || tooFarBehind()) return false;
    return databaseAnswers(db);
  };
  /** Logged once per change of the reader's state (up, database lost, too far behind), never per poll. */
  let loggedState: string | undefined;
  const logState = (state: string, fields: Record<string, unknown> = {}) => {
    if (state === loggedState) return;
    loggedState = state;
    if (state === 'up') logger.info('reader: serving from the database', { ...fields, ...(replication ?? {}) });
    else if (state === 'behind')
      logger.warn('reader: replication lag above --max-replication-lag-ms: not ready', { ...replication, maxLagMs });
    else logger.warn('reader: the database is not reachable: answering NODE_NOT_READY until it is', fields);
  };
  const forward = txForwarder(writerUrl, 'the writer');
  const base = createPublicHandlers({
    nodeVersion: o.nodeVersion,
    rollupVersion: config.rollupVersion,
    l1ChainId: config.l1ChainId,
    // The contract index is not served here (node_getContract(Class) answer as not served on a reader).
    engine: engineHandlerDeps(engine, {
      isReady,
      getEncodedEnr: () => undefined,
      signatures,
      allowList,
      contracts: false,
    }),
    // Pending txs, counts and fees are the database's; a sent tx is decoded here (a malformed one is -32602
    // from this process), validated and admitted by the writer, and remembered until this reader's database
    // shows it (read-your-writes on a lagging replica).
    transactions: {
      pool,
      pendingTxCount: () => pool.pendingCount(),
      async admit(tx, wire) {
        await forward(wire);
        forwarded.add(tx.txHash, wire);
      },
      validateTx,
    },
  });
  // Every call: a recovery-conflict cancellation retried, a lost database NODE_NOT_READY (never -32603).
  const databaseDown = () => dbHealth.state !== DatabaseState.CONNECTED;
  const publicHandlers = Object.fromEntries(
    Object.entries(base).map(([name, fn]) => [
      name,
      typeof fn === 'function'
        ? (...args: unknown[]) =>
            guardReaderCall(() => (fn as (...a: unknown[]) => Promise<unknown>)(...args), databaseDown)
        : fn,
    ]),
  ) as typeof base;

  return {
    db,
    engine,
    pool,
    p2p: undefined,
    validateTx,
    allowList,
    signatures,
    publicHandlers,
    fundedAccounts: engine.fundedAccounts,
    newChain: false,
    role: { kind: 'reader', writer: writerUrl },
    followStatus: () => undefined,
    sync: gate,
    // The writer records the slots; a reader's validator stats read the same database.
    admin,
    syncState: () => 'syncing',
    isReady,
    async health() {
      const healthy = await isReady();
      return {
        healthy,
        version: o.nodeVersion,
        syncState: 'syncing',
        role: 'rpc',
        writer: writerUrl,
        ...(await storageStatus(dbHealth, engine.chain)),
        ...(replication === undefined
          ? {}
          : { replication: { ...replication, ...(maxLagMs === undefined ? {} : { maxLagMs }) } }),
        sequencer: false,
        p2p: { enabled: false },
      };
    },
    step: () => refresh(),
    async start() {
      if (stopped) throw new Error('node stopped');
      await refresh();
      let busy = false;
      timer ??= setInterval(() => {
        if (busy) return;
        busy = true;
        refreshing = refresh()
          .then(() => logState(tooFarBehind() ? 'behind' : 'up'))
          .catch((err: unknown) => {
            lastRefreshOk = false;
            logState('down', { err: (err as Error)?.message ?? String(err) });
          })
          .finally(() => (busy = false));
      }, REFRESH_MS);
      logger.info('read-only node (--role rpc)', { writer: writerUrl, from: await engine.chain.getBlockNumber() });
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await refreshing.catch(() => undefined);
      await engine.stop().catch((err: unknown) => logger.error('close failed', { err }));
      await db.destroy().catch((err: unknown) => logger.error('close failed', { err }));
    },
  };
}
