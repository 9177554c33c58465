/**
 * `ChainView`: the chain and world-state reads that validation and the pool rules need, as a
 * small interface, and its implementation over the engine's parts (chain state, queries, time,
 * fee model). Reads are of the latest committed state; the "next block" is the next slot's.
 * @module
 */
import { feeJuiceBalanceLeafSlot } from '../chain/protocol.ts';
import type { GasFees } from '../tx/index.ts';
import type { ChainQueries } from '../chain/chain-queries.ts';
import type { LatestStateCache } from '../chain/latest-state-cache.ts';
import { type ChainTime, type Clock, secondsOf } from '../chain/time.ts';

/** What the tx validator and the pool read from the chain. */
export interface ChainView {
  readonly chainId: bigint;
  readonly rollupVersion: bigint;
  /** The latest block number (as `ChainQueries.getBlockNumber`). */
  getBlockNumber(): Promise<number>;
  /** Timestamp (seconds) the next block will carry at the earliest: the next slot's start. */
  nextBlockTimestamp(): bigint;
  /** Current minimum fees per gas. */
  currentMinFees(): GasFees;
  /** Header hash of block 0 (not in the chain tables): an anchor there is always in the chain. */
  readonly genesisBlockHash?: bigint;
  /** True when a block of this chain (genesis included) has this header hash. */
  isKnownBlockHash(blockHash: bigint): Promise<boolean>;
  /** True when the nullifier is in the nullifier tree. */
  hasNullifier(nullifier: bigint): boolean;
  /** The fee payer's FeeJuice balance: the public data leaf at the balances-map slot of FeeJuice. */
  feeJuiceBalance(feePayer: bigint): bigint;
}

/** The engine reads a `ChainView` is built from (a subset of engine.ts's `EngineReads`). */
export interface EngineChainParts {
  readonly config: { readonly l1ChainId: number; readonly rollupVersion: number; readonly clock: Clock };
  readonly time: ChainTime;
  readonly chain: Pick<ChainQueries, 'getBlockNumber' | 'findBlockBy' | 'genesisBlock'>;
  readonly latestState: Pick<LatestStateCache, 'hasNullifier' | 'readPublicData'>;
  getCurrentMinFees(): GasFees;
}

/** Creates a `ChainView` over the engine. */
export function createEngineChainView(engine: EngineChainParts): ChainView {
  return {
    chainId: BigInt(engine.config.l1ChainId),
    rollupVersion: BigInt(engine.config.rollupVersion),
    getBlockNumber: () => engine.chain.getBlockNumber(),
    genesisBlockHash: engine.chain.genesisBlock.hash,
    nextBlockTimestamp: () => engine.time.slotStart(engine.time.slotAt(secondsOf(engine.config.clock)) + 1),
    currentMinFees: () => engine.getCurrentMinFees(),
    isKnownBlockHash: async (h) => (await engine.chain.findBlockBy('hash', h)) !== undefined,
    hasNullifier: (n) => engine.latestState.hasNullifier(n),
    feeJuiceBalance: (payer) => engine.latestState.readPublicData(feeJuiceBalanceLeafSlot(payer)),
  };
}
