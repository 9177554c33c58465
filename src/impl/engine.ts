/**
 * The engine: composes storage (one knex database), the world state, the chain tables, the
 * in-process L1 and the dev sequencer into one object with `start()`/`stop()`, readiness and
 * rollback. RPC handlers reach every engine part through it. On its defaults the node is its
 * own sequencer on a local chain (like a sandbox), with three funded dev accounts.
 * @module
 */
import type { Knex } from 'knex';
import { ChainQueries } from './chain/chain-queries.ts';
import { ChainState } from './chain/chain-state.ts';
import { ChainStore } from './chain/chain-store.ts';
import { computeMinFees, DEFAULT_FEE_MODEL, type FeeModelConfig } from './fees/fee-model.ts';
import { feeJuiceBalanceLeafSlot, PROTOCOL_CONTRACT_ADDRESSES } from './chain/protocol.ts';
import {
  type RollbackBounds,
  rollbackBounds,
  rollbackChain,
  type RollbackOptions,
  type UnwoundTx,
} from './chain/rollback.ts';
import type { Hasher } from './crypto/poseidon2.ts';
import { ParallelHasher, Poseidon2Pool } from './crypto/poseidon2-pool.ts';
import { openDatabase } from './store/database.ts';
import { WorldState } from './world-state/world-state.ts';
import { createChainTime, systemClock, type ChainTime, type Clock } from './chain/time.ts';
import { InProcessL1 } from './l1/in-process-l1.ts';
import type { L1Chain } from './l1/l1-chain.ts';
import { Sequencer, type SequencerRole } from './sequencer/sequencer.ts';
import type { PublicExecutionOptions } from './sequencer/public-processor.ts';
import { InMemoryTxSource, type TxSource } from './sequencer/tx-source.ts';
import { importBlock, importCheckpoint } from './chain/block-import.ts';
import type { ContractIndex } from './chain/contract-index.ts';
import type { LatestStateCache } from './chain/latest-state-cache.ts';
import type { Checkpoint, GasFees, L2Block } from './chain/types.ts';
import type { Config } from '../config/options.ts';
import { type ChainView, createEngineChainView } from './txpool/chain-view.ts';
import type { PoolTxStatus } from './txpool/tx-status.ts';
import { NODE_CACHE_ENTRY_BYTES } from './world-state/node-cache.ts';

/**
 * Dev accounts funded with FeeJuice at genesis (printed at start in dev mode): their balances are
 * public data leaves at FeeJuice's balances-map slot, written into the genesis public data tree.
 */
export const DEV_FUNDED_ACCOUNTS: readonly bigint[] = [0x1001n, 0x1002n, 0x1003n];
/** FeeJuice each dev account starts with (1e30 = 1e12 FeeJuice of 18 decimals). */
export const DEV_FUNDING = 10n ** 30n;

/** A genesis-funded account as the engine reports it. */
export interface FundedAccount {
  readonly address: bigint;
  readonly amount: bigint;
  /** The public data tree leaf slot holding its FeeJuice balance. */
  readonly leafSlot: bigint;
}

/** What `isReady()` checked. */
export interface Readiness {
  readonly ready: boolean;
  readonly storageOpen: boolean;
  /** The world state's latest block is the chain's latest block. */
  readonly worldStateAtTip: boolean;
  readonly sequencerRunning: boolean;
}

/** Engine settings; every field has a dev default. */
export interface EngineConfig {
  /** Directory of the SQLite file (l2node.sqlite); '' for an in-memory database. Ignored when `db` is given. */
  readonly dataDirectory: string;
  /** postgres://… — Postgres instead of SQLite. */
  readonly databaseUrl?: string;
  /** An already opened and migrated database (the engine then leaves closing it to the caller). */
  readonly db?: Knex;
  /** Poseidon2 implementation for the trees (default: the built-in one). */
  readonly hasher?: Hasher;
  /**
   * Worker threads hashing large tree levels next to the main thread (crypto/poseidon2-pool.ts),
   * started on the first such level, ended on stop; ignored when `hasher` is given. Default 0: it
   * did not pay reliably on the shared 2-core machine (docs/PERFORMANCE-NOTES.md, "Worker threads").
   */
  readonly hashWorkers?: number;
  readonly clock: Clock;
  readonly genesisTime: bigint;
  readonly slotDurationSeconds: number;
  readonly slotsPerEpoch: number;
  readonly l1BlockSeconds: number;
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  readonly initialEthPerFeeAsset: bigint;
  readonly l1GasPriceWei: bigint;
  readonly l1BlobGasPriceWei: bigint;
  readonly proofDelaySeconds: number;
  readonly finalityDepth: number;
  readonly maxTxsPerBlock: number;
  readonly maxL2GasPerBlock: number;
  readonly maxDaGasPerBlock: number;
  readonly minTxsPerBlock: number;
  readonly buildEmptyBlocks: boolean;
  readonly maxBlocksPerCheckpoint: number;
  readonly coinbase: bigint;
  readonly feeRecipient: bigint;
  /** Public data leaves at genesis: FeeJuice balances of funded accounts. */
  readonly fundedAccounts: readonly { readonly address: bigint; readonly amount: bigint }[];
  readonly feeModel: FeeModelConfig;
  /** How often the sequencer ticks when started. */
  readonly tickMs: number;
  /** Setup allow-list and signature registry the sequencer's public execution uses (default: no setup calls allowed). */
  readonly publicVm?: PublicExecutionOptions;
  /** The mempool, owner of tx status (txpool/tx-status.ts); an in-memory source when absent. */
  readonly txSource?: TxSource;
  /** The proposer selection, slot gate and observer of the engine's own sequencer (`tick()`, `start()`). */
  readonly sequencer?: SequencerRole;
}

/** Dev defaults (genesis time: 2025-01-01T00:00:00Z). */
export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  dataDirectory: '',
  clock: systemClock,
  genesisTime: 1735689600n,
  slotDurationSeconds: 12,
  slotsPerEpoch: 32,
  l1BlockSeconds: 12,
  l1ChainId: 31337,
  rollupVersion: 1,
  initialEthPerFeeAsset: 10_000_000n,
  l1GasPriceWei: 1_000_000_000n,
  l1BlobGasPriceWei: 1n,
  proofDelaySeconds: 24,
  finalityDepth: 2,
  maxTxsPerBlock: 32,
  maxL2GasPerBlock: 100_000_000,
  maxDaGasPerBlock: 10_000_000,
  minTxsPerBlock: 1,
  buildEmptyBlocks: false,
  maxBlocksPerCheckpoint: 4,
  coinbase: 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266n,
  feeRecipient: 0x1001n,
  fundedAccounts: DEV_FUNDED_ACCOUNTS.map((address) => ({ address, amount: DEV_FUNDING })),
  feeModel: DEFAULT_FEE_MODEL,
  tickMs: 500,
};

/** Checkpoint reads of the chain tables. */
export type CheckpointReads = Pick<
  ChainStore,
  'findCheckpoint' | 'checkpointsFrom' | 'checkpointsOfEpoch' | 'latestCheckpointNumber' | 'latestCheckpoint'
>;

/** Synchronous reads of the latest committed state, for validation and block selection. */
export type LatestStateReads = Pick<LatestStateCache, 'hasNullifier' | 'readPublicData'>;

/**
 * The read side of the engine: what RPC handlers, sync, p2p, the pool and the admin side read.
 * One name per concept: `chain` answers blocks, tips, receipts, logs and the latest block number
 * (`chain.getBlockNumber()`); `worldState` is the Merkle trees with history; `latestState` the
 * synchronous latest-state reads; `checkpoints` and `contracts` the chain tables' indexes.
 */
export interface EngineReads {
  readonly config: EngineConfig;
  readonly time: ChainTime;
  readonly l1: L1Chain;
  readonly chain: ChainQueries;
  readonly checkpoints: CheckpointReads;
  readonly contracts: ContractIndex;
  /** The persistent world state: tree queries, witnesses, history. */
  readonly worldState: WorldState;
  readonly latestState: LatestStateReads;
  readonly protocolContractAddresses: typeof PROTOCOL_CONTRACT_ADDRESSES;
  /** Accounts funded with FeeJuice at genesis (main prints them in dev mode). */
  readonly fundedAccounts: readonly FundedAccount[];
  /** Current minimum fees per gas (node_getCurrentMinFees), from the chain's fee model. */
  getCurrentMinFees(): GasFees;
  /** What the engine's in-memory caches hold against their bounds (metrics: l2node_cache_bytes). */
  cacheSizes(): readonly CacheSize[];
}

/** One in-memory cache's fill: entries, and the bytes counted against its bound (see each cache). */
export interface CacheSize {
  readonly cache: string;
  readonly entries: number;
  readonly bytes: number;
}

/**
 * The engine of a process that never writes (`--role rpc`): the reads over a database another
 * process keeps, moved forward by `catchUpWithStore`. It builds no sequencer and owns no tx source.
 */
export interface ReadEngine extends EngineReads {
  readonly db: Knex;
  /** Moves the in-memory views to the tip another process committed; true when it moved. */
  catchUpWithStore(): Promise<boolean>;
  /** The tip, the finalized block and the oldest block with history: the limits of `rollbackTo`. */
  rollbackBounds(): Promise<RollbackBounds>;
  /** Closes the database (when the engine opened it) and the hashing workers. */
  stop(): Promise<void>;
}

/** The engine of the writing node: the reads, and the writes (block building, verified import, rollback). */
export interface Engine<S extends TxSource = TxSource> extends ReadEngine {
  /**
   * The chain tables and world state kept in step: the write side, for the engine's own parts
   * (sequencer, import, rollback) and test fixtures; everything else reads through `EngineReads`.
   */
  readonly state: ChainState;
  /**
   * A sequencer over this engine's chain, tx source and L1 with a role's proposer selection, slot
   * gate and observer: a role factory builds its own once the parts these need exist, and runs it
   * with `tick(sequencer)`.
   */
  sequencerFor(role: SequencerRole): Sequencer;
  /** The mempool (owner of tx status) the sequencer takes txs from. */
  readonly txSource: S;
  /** Key/value rows beside the chain (the follower keeps its source's proof tips there). */
  readonly chainMeta: Pick<ChainStore, 'getMeta' | 'setMeta'>;
  /**
   * Runs one step of `sequencer` (default: the engine's own, `EngineConfig.sequencer`) now, never
   * during a rollback (tests drive time with a ManualClock and call this).
   */
  tick(sequencer?: Sequencer): Promise<void>;
  /** Verifies and stores the next block (sync, chain files); `l1ToL2Messages` those it inserted. */
  importBlock(block: L2Block, l1ToL2Messages?: readonly bigint[]): Promise<L2Block>;
  /** Verifies and stores the next checkpoint over blocks already imported. */
  importCheckpoint(checkpoint: Checkpoint, blocks: readonly L2Block[]): Promise<void>;
  /**
   * Unwinds world state and chain tables to `target` in one transaction (never during a tick)
   * and returns the txs of the unwound blocks for the mempool. Throws RollbackRefusal.
   */
  rollbackTo(target: number, opts?: RollbackOptions): Promise<UnwoundTx[]>;
  /** Storage open, world state at the chain tip, sequencer running. */
  isReady(): Promise<Readiness>;
  /** Starts the periodic sequencer. */
  start(): Promise<void>;
  /** Stops the sequencer, then as `ReadEngine.stop`. */
  stop(): Promise<void>;
}

/** The engine settings a node's configuration decides (the rest keep their dev defaults). */
export function engineSettings(config: Config, clock: Clock): Partial<EngineConfig> {
  return {
    clock,
    genesisTime: config.genesisTime,
    slotDurationSeconds: config.slotDurationSeconds,
    l1BlockSeconds: config.slotDurationSeconds,
    slotsPerEpoch: config.slotsPerEpoch,
    proofDelaySeconds: config.proofDelaySeconds,
    finalityDepth: config.finalityDepth,
    l1ChainId: config.l1ChainId,
    rollupVersion: config.rollupVersion,
    initialEthPerFeeAsset: config.initialEthPerFeeAsset,
    maxTxsPerBlock: config.maxTxsPerBlock,
    minTxsPerBlock: config.minTxsPerBlock,
    buildEmptyBlocks: config.buildEmptyBlocks,
    maxL2GasPerBlock: config.maxL2GasPerBlock,
    maxDaGasPerBlock: config.maxDaGasPerBlock,
    tickMs: config.sequencerPollingIntervalMs,
  };
}

/** Opens storage and world state (the database is the truth: nothing is replayed) and wires the parts. */
export async function createEngine<S extends TxSource = TxSource>(
  overrides: Partial<EngineConfig> & {
    /** Opens the mempool over the engine's chain view (instead of `txSource`): the pool reads the chain it feeds. */
    readonly openTxSource?: (chain: ChainView) => Promise<S>;
  } = {},
): Promise<Engine<S>> {
  return withDatabase(overrides, (config, db, ownsDb) => composeWriter(config, db, ownsDb, overrides.openTxSource));
}

/**
 * Opens the read side only, over a database another process writes (it must hold a chain);
 * `txStatus` answers the pool's part of tx status (the writer's pool as this process sees it).
 */
export async function createReadEngine(
  overrides: Partial<EngineConfig> & { readonly txStatus: (txHash: bigint) => Promise<PoolTxStatus> },
): Promise<ReadEngine> {
  return withDatabase(overrides, async (config, db, ownsDb) => {
    const parts = await openParts(config, db);
    const chain = chainQueries(parts, overrides.txStatus);
    return readEngine(parts, chain, ownsDb);
  });
}

async function withDatabase<T>(
  overrides: Partial<EngineConfig>,
  compose: (config: EngineConfig, db: Knex, ownsDb: boolean) => Promise<T>,
): Promise<T> {
  const config: EngineConfig = { ...DEFAULT_ENGINE_CONFIG, ...overrides };
  const ownsDb = config.db === undefined;
  const db =
    config.db ??
    (await openDatabase({
      dataDirectory: config.dataDirectory,
      ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    }));
  try {
    return await compose(config, db, ownsDb);
  } catch (err) {
    if (ownsDb) await db.destroy();
    throw err;
  }
}

/** What both engines are built on: time, L1, the world state and the chain tables over one database. */
interface EngineParts {
  readonly config: EngineConfig;
  readonly db: Knex;
  readonly time: ChainTime;
  readonly l1: InProcessL1;
  readonly worldState: WorldState;
  readonly state: ChainState;
  readonly fundedAccounts: readonly FundedAccount[];
  readonly ownedHasher: ParallelHasher | undefined;
  getCurrentMinFees(): GasFees;
}

async function openParts(config: EngineConfig, db: Knex): Promise<EngineParts> {
  const time = createChainTime(config);
  const l1 = new InProcessL1(db, config.clock, time, { ...config, chainId: config.l1ChainId });
  const fundedAccounts = config.fundedAccounts.map((a) => ({ ...a, leafSlot: feeJuiceBalanceLeafSlot(a.address) }));
  const ownedHasher =
    !config.hasher && (config.hashWorkers ?? 0) > 0
      ? new ParallelHasher(new Poseidon2Pool({ workers: config.hashWorkers }))
      : undefined;
  const hasher = config.hasher ?? ownedHasher;
  const worldState = await WorldState.open({
    db,
    ...(hasher ? { hasher } : {}),
    prefilledPublicData: fundedAccounts.map((a) => ({ leafSlot: a.leafSlot, value: a.amount })),
  });
  const perBlockTarget = config.feeModel.manaTarget / BigInt(config.maxBlocksPerCheckpoint);
  const state = await ChainState.open(new ChainStore(db), worldState, perBlockTarget);
  const getCurrentMinFees = () => computeMinFees({ ...l1.feeInputs(), excessMana: state.excessMana }, config.feeModel);
  return { config, db, time, l1, worldState, state, fundedAccounts, ownedHasher, getCurrentMinFees };
}

function chainQueries(p: EngineParts, txStatus: (txHash: bigint) => Promise<PoolTxStatus>): ChainQueries {
  return new ChainQueries(p.state, p.l1, p.time, p.state.genesis.header, p.state.genesis.archive, txStatus);
}

function readEngine(p: EngineParts, chain: ChainQueries, ownsDb: boolean): ReadEngine {
  const { config, db, time, l1, worldState, state } = p;
  return {
    config,
    db,
    time,
    l1,
    worldState,
    chain,
    checkpoints: state.store,
    contracts: state.store.contracts,
    latestState: state.latestState,
    protocolContractAddresses: PROTOCOL_CONTRACT_ADDRESSES,
    fundedAccounts: p.fundedAccounts,
    getCurrentMinFees: p.getCurrentMinFees,
    cacheSizes: () => {
      const blocks = state.store.blockCacheSize;
      const nodes = worldState.nodeCacheEntries;
      return [
        { cache: 'world_state_nodes', entries: nodes, bytes: nodes * NODE_CACHE_ENTRY_BYTES },
        { cache: 'decoded_blocks', entries: blocks.entries, bytes: blocks.jsonBytes },
      ];
    },
    async catchUpWithStore() {
      const moved = await state.catchUpWithStore();
      worldState.finalizedBlockNumber = (await chain.getL2Tips()).finalized.block.number;
      return moved;
    },
    rollbackBounds: () => rollbackBounds(state, chain),
    async stop() {
      await p.ownedHasher?.close();
      if (ownsDb) await db.destroy();
    },
  };
}

async function composeWriter<S extends TxSource>(
  config: EngineConfig,
  db: Knex,
  ownsDb: boolean,
  openTxSource: ((chain: ChainView) => Promise<S>) | undefined,
): Promise<Engine<S>> {
  const parts = await openParts(config, db);
  const { time, l1, worldState, state } = parts;
  // The tx source owns tx status (each chain write below is handed it); the pool reads the chain through a view of
  // these queries, so it opens after them.
  let txSource: TxSource = config.txSource ?? new InMemoryTxSource();
  const chain = chainQueries(parts, (h) => txSource.getTxStatus(h));
  const reads = readEngine(parts, chain, ownsDb);
  if (openTxSource !== undefined) txSource = await openTxSource(createEngineChainView(reads));
  const sequencerFor = (role: SequencerRole | undefined) =>
    new Sequencer(
      { ...config, chainId: BigInt(config.l1ChainId), rollupVersion: BigInt(config.rollupVersion) },
      {
        chain: state,
        l1,
        txs: txSource,
        clock: config.clock,
        time,
        minFees: parts.getCurrentMinFees,
        ...(config.publicVm ? { publicVm: config.publicVm } : {}),
        ...(role ? { role } : {}),
      },
    );
  const ownSequencer = sequencerFor(config.sequencer);
  const importRules = { chainId: BigInt(config.l1ChainId), version: BigInt(config.rollupVersion) };
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  // Ticks and rollbacks never overlap: each waits for the previous one.
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = running.catch(() => undefined).then(fn);
    running = run;
    return run;
  };
  const tick = (sequencer: Sequencer = ownSequencer) =>
    serial(async () => {
      await sequencer.tick();
      worldState.finalizedBlockNumber = (await chain.getL2Tips()).finalized.block.number;
    });
  return {
    ...reads,
    state,
    sequencerFor,
    // Without `openTxSource`, S is TxSource itself.
    txSource: txSource as S,
    chainMeta: state.store,
    tick,
    importBlock: (block, l1ToL2Messages) => importBlock(state, txSource, block, importRules, l1ToL2Messages),
    importCheckpoint: (checkpoint, blocks) => importCheckpoint(state, l1, time, checkpoint, blocks),
    rollbackTo: (target, opts) => serial(() => rollbackChain(state, txSource, chain, l1, target, opts)),
    async isReady() {
      let storageOpen = !stopped;
      if (storageOpen)
        storageOpen = await db.raw('select 1').then(
          () => true,
          () => false,
        );
      const worldStateAtTip =
        storageOpen && (await worldState.getLatestBlockNumber()) === (await state.latestBlockNumber());
      const sequencerRunning = timer !== undefined;
      return {
        ready: storageOpen && worldStateAtTip && sequencerRunning,
        storageOpen,
        worldStateAtTip,
        sequencerRunning,
      };
    },
    async start() {
      if (stopped) throw new Error('engine stopped');
      if (timer === undefined) timer = setInterval(() => void tick(ownSequencer).catch(() => undefined), config.tickMs);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await running.catch(() => undefined);
      await reads.stop();
    },
  };
}
