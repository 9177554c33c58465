/**
 * The composition root: from a `Config`, opens storage and builds the engine with the mempool
 * as its tx source, the node tx validator, p2p when enabled, the public handlers, the block
 * production loop and the health report. main.ts only adds servers and signals; tests build a
 * whole node in-process with `createNode`.
 * @module
 */
import type { Knex } from 'knex';
import type { Config } from '../config/options.ts';
import type { HealthReport, Logger } from '../server/types.ts';
import type { Clock } from './chain/time.ts';
import { systemClock } from './chain/time.ts';
import { FunctionSignatureRegistry } from './contracts/function-selector.ts';
import { createEngine } from './engine.ts';
import type { Engine, FundedAccount } from './engine.ts';
import { SyncSwitch } from './node-config/sync-control.ts';
import type { SyncState } from './node-config/sync-control.ts';
import { checkChainParams } from './node-chain-params.ts';
import { createNodeP2P, publishingPool } from './node-p2p.ts';
import type { P2PService } from './p2p/index.ts';
import { createPublicHandlers } from './rpc/public/index.ts';
import type { PublicHandlerSet } from './rpc/public/index.ts';
import { SetupAllowList } from './setup-allow-list.ts';
import { databaseHealth, DatabaseState, openDatabase } from './store/database.ts';
import { createEngineChainView } from './txpool/chain-view.ts';
import type { ChainView } from './txpool/chain-view.ts';
import { TxPool } from './txpool/tx-pool.ts';
import { createNodeTxValidator } from './txpool/tx-validator.ts';
import type { NodeTxValidator } from './txpool/tx-validator.ts';

/** What a node is built from. */
export interface NodeOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly nodeVersion: string;
  /** Wall clock of the chain (tests may pass a ManualClock and drive `step()`). */
  readonly clock?: Clock;
}

/** A sync gate: the production loop runs each step through it (the admin pause/resume drives it). */
export interface SyncGate {
  readonly state: SyncState;
  step(run: () => Promise<void>): Promise<boolean>;
}

/** A built node (servers not included). */
export interface L2Node {
  readonly db: Knex;
  readonly engine: Engine;
  readonly pool: TxPool;
  readonly p2p: P2PService | undefined;
  readonly validateTx: NodeTxValidator;
  readonly allowList: SetupAllowList;
  readonly signatures: FunctionSignatureRegistry;
  readonly publicHandlers: PublicHandlerSet;
  readonly fundedAccounts: readonly FundedAccount[];
  /** True when this start created the chain (empty or in-memory database): main prints the funded accounts then. */
  readonly newChain: boolean;
  /** The gate in use; `useSyncGate` swaps in the admin side's switch. */
  readonly sync: SyncGate;
  useSyncGate(gate: SyncGate): void;
  /** 'syncing' or 'paused'. */
  syncState(): SyncState;
  /** Storage open and connected, pool running, p2p running when enabled (node_isReady). */
  isReady(): Promise<boolean>;
  /** The GET /status report. */
  health(): Promise<HealthReport>;
  /** One production step now: sequencer tick (when enabled) then pool revalidation. */
  step(): Promise<void>;
  /** Starts p2p (when enabled) and the production loop. */
  start(): Promise<void>;
  /** Production loop → p2p → pool → engine → database; idempotent. */
  stop(): Promise<void>;
}

/** Opens storage and builds every part; nothing runs until `start()`. */
export async function createNode(o: NodeOptions): Promise<L2Node> {
  const { config, logger } = o;
  const clock = o.clock ?? systemClock;
  const db = await openDatabase({ dataDirectory: config.dataDirectory, ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}) });
  const closers: (() => Promise<void>)[] = [() => db.destroy()];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch((err: unknown) => logger.error('close failed', { err }));
  };
  try {
    const newChain = await checkChainParams(db, config);
    // The pool is the engine's tx source and reads the engine's chain: the view binds on first use.
    let engine: Engine | undefined;
    let view: ChainView | undefined;
    const chain = new Proxy({} as ChainView, {
      get: (_t, key) => {
        if (engine === undefined) throw new Error('chain view used before the engine exists');
        return (view ??= createEngineChainView(engine))[key as keyof ChainView];
      },
    });
    const pool = await TxPool.open({ db, chain, config: { maxPendingTxCount: config.maxPendingTxCount } });
    closers.push(() => pool.close());
    engine = await createEngine({
      db, clock, genesisTime: config.genesisTime, slotDurationSeconds: config.slotDurationSeconds, l1BlockSeconds: config.slotDurationSeconds,
      slotsPerEpoch: config.slotsPerEpoch, proofDelaySeconds: config.proofDelaySeconds, finalityDepth: config.finalityDepth,
      l1ChainId: config.l1ChainId, rollupVersion: config.rollupVersion, initialEthPerFeeAsset: config.initialEthPerFeeAsset,
      maxTxsPerBlock: config.maxTxsPerBlock, minTxsPerBlock: config.minTxsPerBlock, buildEmptyBlocks: config.buildEmptyBlocks,
      maxL2GasPerBlock: config.maxL2GasPerBlock, maxDaGasPerBlock: config.maxDaGasPerBlock, tickMs: config.sequencerPollingIntervalMs,
      txSource: pool,
    });
    const eng = engine;
    closers.push(() => eng.stop());
    const allowList = new SetupAllowList();
    const validateTx = createNodeTxValidator({
      chain, allowList: () => allowList.list(),
      config: { maxGasLimits: { daGas: config.maxDaGasPerBlock, l2Gas: config.maxL2GasPerBlock } },
    });
    const p2pOn = config.p2pEnabled || config.p2pBootstrapPeers.length > 0;
    const p2p = p2pOn
      ? createNodeP2P({
          dataDirectory: config.dataDirectory, host: config.p2pHost, port: config.p2pPort, bootstrapPeers: config.p2pBootstrapPeers,
          network: `${config.l1ChainId}-${config.rollupVersion}`,
        }, pool, validateTx, logger)
      : undefined;
    return assemble({ o, db, engine: eng, pool, p2p, validateTx, allowList, newChain, closeAll, closers });
  } catch (err) {
    await closeAll();
    throw err;
  }
}

interface Parts {
  readonly o: NodeOptions;
  readonly db: Knex;
  readonly engine: Engine;
  readonly pool: TxPool;
  readonly p2p: P2PService | undefined;
  readonly validateTx: NodeTxValidator;
  readonly allowList: SetupAllowList;
  readonly newChain: boolean;
  readonly closers: (() => Promise<void>)[];
  closeAll(): Promise<void>;
}

function assemble(p: Parts): L2Node {
  const { o, db, engine, pool, p2p, validateTx, allowList } = p;
  const { config, logger } = o;
  const signatures = new FunctionSignatureRegistry();
  let gate: SyncGate = new SyncSwitch(config.sequencerPollingIntervalMs);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  const dbHealth = databaseHealth(db);

  const isReady = async () => {
    if (stopped || !pool.running || dbHealth.state !== DatabaseState.CONNECTED) return false;
    if (p2p !== undefined && !p2p.isReady()) return false;
    return db.raw('select 1').then(() => true, () => false);
  };
  const step = async () => {
    // A block (or the passing of time) can invalidate pending txs: revalidate after each step.
    if (config.sequencer) await engine.tick();
    await pool.revalidateAfterBlock();
  };
  const publicHandlers = createPublicHandlers({
    nodeVersion: o.nodeVersion, rollupVersion: config.rollupVersion, l1ChainId: config.l1ChainId,
    engine: {
      chain: engine.chain, checkpoints: engine.state.store, worldState: engine.worldState, l1: engine.l1,
      txStatus: (h) => pool.getTxStatus(h), protocolContractAddresses: engine.protocolContractAddresses, realProofs: false,
      getCurrentMinFees: () => engine.getCurrentMinFees(), isReady,
      getEncodedEnr: () => p2p?.getEncodedEnr() ?? undefined, signatures, allowList: () => allowList.list(),
    },
    transactions: { pool: publishingPool(pool, p2p, logger), validateTx },
  });

  return {
    db, engine, pool, p2p, validateTx, allowList, signatures, publicHandlers, fundedAccounts: engine.fundedAccounts, newChain: p.newChain,
    get sync() {
      return gate;
    },
    useSyncGate(g) {
      gate = g;
    },
    syncState: () => gate.state,
    isReady,
    async health() {
      const ready = await isReady();
      const database = dbHealth.report();
      const latestBlockNumber = database.state === DatabaseState.CONNECTED ? await engine.chain.getBlockNumber().catch(() => undefined) : undefined;
      return {
        healthy: ready, version: o.nodeVersion, syncState: gate.state, database,
        ...(latestBlockNumber === undefined ? {} : { latestBlockNumber }),
        sequencer: config.sequencer, p2p: p2pStatus(p2p),
      };
    },
    step: () => gate.step(step).then(() => undefined),
    async start() {
      if (stopped) throw new Error('node stopped');
      if (p2p !== undefined) {
        await p2p.start();
        p.closers.push(() => p2p.stop());
      }
      let busy = false;
      timer ??= setInterval(() => {
        // One step at a time: while a slow step runs (Postgres), timer beats are skipped, not queued.
        if (busy) return;
        busy = true;
        inFlight = gate.step(step).catch((err: unknown) => logger.error('production step failed', { err })).finally(() => (busy = false));
      }, config.sequencerPollingIntervalMs);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await inFlight;
      await p.closeAll();
    },
  };
}

/** The p2p part of GET /status: whether it runs, and how many peers it has (all, and on the tx topic). */
function p2pStatus(p2p: P2PService | undefined) {
  if (p2p === undefined) return { enabled: false };
  if (!p2p.isReady()) return { enabled: true, running: false };
  return { enabled: true, running: true, peers: p2p.getPeers().length, txTopicPeers: p2p.getTxTopicPeers().length };
}
