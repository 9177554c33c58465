/**
 * A `ChainView` whose state a test sets directly: balances, nullifiers in the tree, known block
 * hashes, min fees, the latest block number and the next block's timestamp.
 * @module
 */

import { computeBlockHeaderHash } from '../../../../src/impl/tx/index.ts';
import type { GasFees } from '../../../../src/impl/tx/index.ts';
import type { ChainView } from '../../../../src/impl/txpool/chain-view.ts';
import { BASE_TX } from './tx-builder.ts';

/** A chain view for tests; by default it knows the anchor block of the builder's base tx. */
export class FakeChain implements ChainView {
  chainId = 31337n;
  rollupVersion = 1n;
  nextTimestamp = 1_700_000_000n;
  /** Past genesis by default, so the next block is not block 1 (which takes expired txs). */
  latestBlock = 7;
  minFees: GasFees = { feePerDaGas: 1n, feePerL2Gas: 1n };
  readonly balances = new Map<bigint, bigint>();
  readonly nullifiers = new Set<bigint>();
  readonly blocks = new Set<bigint>([computeBlockHeaderHash(BASE_TX.data.constants.anchorBlockHeader)]);

  async getBlockNumber(): Promise<number> {
    return this.latestBlock;
  }
  nextBlockTimestamp(): bigint {
    return this.nextTimestamp;
  }
  currentMinFees(): GasFees {
    return this.minFees;
  }
  async isKnownBlockHash(h: bigint): Promise<boolean> {
    return this.blocks.has(h);
  }
  hasNullifier(n: bigint): boolean {
    return this.nullifiers.has(n);
  }
  feeJuiceBalance(payer: bigint): bigint {
    return this.balances.get(payer) ?? 0n;
  }
}
