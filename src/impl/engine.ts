/**
 * The engine: composes storage, world state, chain, the in-process L1 and the dev sequencer into
 * one object with `start()`/`stop()`. RPC handlers reach every engine part through it.
 * On its defaults the node is its own sequencer on a local chain (like a sandbox).
 * @module
 */
import type { Knex } from 'knex';
import { openChainDb } from './chain/chain-db.ts';
import { ChainQueries } from './chain/chain-queries.ts';
import { ChainState } from './chain/chain-state.ts';
import { ChainStore } from './chain/chain-store.ts';
import { computeMinFees, DEFAULT_FEE_MODEL, type FeeModelConfig } from './chain/fee-model.ts';
import { MemoryWorldState } from './chain/memory-world-state.ts';
import { feeJuiceBalanceLeafSlot, PROTOCOL_CONTRACT_ADDRESSES } from './chain/protocol.ts';
import { createChainTime, systemClock, type ChainTime, type Clock } from './chain/time.ts';
import type { GasFees } from './chain/types.ts';
import { InProcessL1 } from './l1/in-process-l1.ts';
import type { L1Chain } from './l1/l1-chain.ts';
import { Sequencer } from './sequencer/sequencer.ts';
import { InMemoryTxSource, type TxSource } from './sequencer/tx-source.ts';

/** Dev accounts funded with FeeJuice at genesis (printed at start in dev mode). */
export const DEV_FUNDED_ACCOUNTS: readonly bigint[] = [0x1001n, 0x1002n, 0x1003n];
/** FeeJuice each dev account starts with. */
export const DEV_FUNDING = 10n ** 30n;

/** Engine settings; every field has a dev default. */
export interface EngineConfig {
  /** SQLite file; ':memory:' for none. Ignored when `db` is given. */
  readonly dbFile: string;
  readonly db?: Knex;
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
  /** The mempool; an in-memory source when absent. */
  readonly txSource?: TxSource & { isPending(txHash: bigint): boolean | Promise<boolean> };
}

/** Dev defaults (genesis time: 2025-01-01T00:00:00Z). */
export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  dbFile: ':memory:', clock: systemClock, genesisTime: 1735689600n, slotDurationSeconds: 12, slotsPerEpoch: 32, l1BlockSeconds: 12,
  l1ChainId: 31337, rollupVersion: 1, initialEthPerFeeAsset: 10_000_000n, l1GasPriceWei: 1_000_000_000n, l1BlobGasPriceWei: 1n,
  proofDelaySeconds: 24, finalityDepth: 2, maxTxsPerBlock: 32, maxL2GasPerBlock: 100_000_000, maxDaGasPerBlock: 10_000_000,
  minTxsPerBlock: 1, buildEmptyBlocks: false, maxBlocksPerCheckpoint: 4,
  coinbase: 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266n, feeRecipient: 0x1001n,
  fundedAccounts: DEV_FUNDED_ACCOUNTS.map((address) => ({ address, amount: DEV_FUNDING })),
  feeModel: DEFAULT_FEE_MODEL, tickMs: 500,
};

/** The composed node engine. */
export interface Engine {
  readonly config: EngineConfig;
  readonly time: ChainTime;
  readonly l1: L1Chain;
  readonly chain: ChainQueries;
  readonly state: ChainState;
  readonly sequencer: Sequencer;
  readonly txSource: TxSource & { isPending(txHash: bigint): boolean | Promise<boolean> };
  readonly protocolContractAddresses: typeof PROTOCOL_CONTRACT_ADDRESSES;
  /** Current minimum fees per gas (node_getCurrentMinFees). */
  getCurrentMinFees(): GasFees;
  /** Runs one sequencer step now (tests drive time with a ManualClock and call this). */
  tick(): Promise<void>;
  /** Starts the periodic sequencer. */
  start(): Promise<void>;
  /** Stops the sequencer and closes the database. */
  stop(): Promise<void>;
}

/** Opens storage, rebuilds world state from it and wires the parts together. */
export async function createEngine(overrides: Partial<EngineConfig> = {}): Promise<Engine> {
  const config: EngineConfig = { ...DEFAULT_ENGINE_CONFIG, ...overrides };
  const db = config.db ?? (await openChainDb(config.dbFile));
  const time = createChainTime(config);
  const l1 = new InProcessL1(db, config.clock, time, { ...config, chainId: config.l1ChainId });
  const genesisData = config.fundedAccounts.map((a) => ({ leafSlot: feeJuiceBalanceLeafSlot(a.address), value: a.amount }));
  const perBlockTarget = config.feeModel.manaTarget / BigInt(config.maxBlocksPerCheckpoint);
  const state = new ChainState(new ChainStore(db), () => new MemoryWorldState(genesisData), perBlockTarget);
  await state.replay();
  const txSource = config.txSource ?? new InMemoryTxSource();
  const getCurrentMinFees = () => computeMinFees({ ...l1.feeInputs(), excessMana: state.excessMana }, config.feeModel);
  const chain = new ChainQueries(state, l1, time, state.genesis.header, state.genesis.archive, async (h) => await txSource.isPending(h));
  const sequencer = new Sequencer(
    { ...config, chainId: BigInt(config.l1ChainId), rollupVersion: BigInt(config.rollupVersion) },
    { chain: state, l1, txs: txSource, clock: config.clock, time, minFees: getCurrentMinFees },
  );
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  // Ticks never overlap: each waits for the previous one.
  const tick = () => (running = running.catch(() => undefined).then(() => sequencer.tick()));
  return {
    config, time, l1, chain, state, sequencer, txSource, protocolContractAddresses: PROTOCOL_CONTRACT_ADDRESSES, getCurrentMinFees, tick,
    async start() {
      if (timer === undefined) timer = setInterval(() => void tick().catch(() => undefined), config.tickMs);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await running.catch(() => undefined);
      if (config.db === undefined) await db.destroy();
    },
  };
}
