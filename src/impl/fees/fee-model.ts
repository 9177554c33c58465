/**
 * The L2 fee model behind `node_getCurrentMinFees`: L1 costs (gas and blob gas prices) are
 * converted to fee asset with the oracle price `ethPerFeeAsset` (1e12 precision, SPEC §8–9) and
 * multiplied by a congestion factor that grows exponentially with the mana used above target,
 * the way EIP-1559/4844 excess gas works, so fees rise as blocks fill and fall as they empty.
 * @module
 */
import type { GasFees } from '../chain/types.ts';

/** Precision of ethPerFeeAsset. */
export const ETH_PER_FEE_ASSET_PRECISION = 10n ** 12n;

/** Parameters of the fee model. */
export interface FeeModelConfig {
  /** Mana (L2 gas) per checkpoint at which the congestion factor stays flat. */
  readonly manaTarget: bigint;
  /** L1 gas one checkpoint costs to post; spread over manaTarget. */
  readonly l1GasPerCheckpoint: bigint;
  /** Blob gas per unit of DA gas. */
  readonly blobGasPerDaGas: bigint;
  /** Proving cost per mana, in wei. */
  readonly provingCostPerManaWei: bigint;
  /** How fast congestion raises fees: the factor is e^(excess / updateFraction). */
  readonly congestionUpdateFraction: bigint;
}

/** Defaults sized for a dev chain. */
export const DEFAULT_FEE_MODEL: FeeModelConfig = {
  manaTarget: 100_000_000n,
  l1GasPerCheckpoint: 250_000n,
  blobGasPerDaGas: 1n,
  provingCostPerManaWei: 100n,
  congestionUpdateFraction: 854_700_854n,
};

/** What the fee model reads from L1. */
export interface FeeInputs {
  readonly l1GasPriceWei: bigint;
  readonly l1BlobGasPriceWei: bigint;
  readonly ethPerFeeAsset: bigint;
  /** Mana used above target, accumulated over past blocks (never negative). */
  readonly excessMana: bigint;
}

/** EIP-4844's integer approximation of factor · e^(numerator / denominator). */
export function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let i = 1n;
  let output = 0n;
  let acc = factor * denominator;
  while (acc > 0n) {
    output += acc;
    acc = (acc * numerator) / (denominator * i);
    i++;
  }
  return output / denominator;
}

function weiToFeeAsset(wei: bigint, ethPerFeeAsset: bigint): bigint {
  // ceil so that a non-zero cost never rounds down to a free block.
  return (wei * ETH_PER_FEE_ASSET_PRECISION + ethPerFeeAsset - 1n) / ethPerFeeAsset;
}

/** The minimum fees per gas a tx must offer for the next block. */
export function computeMinFees(inputs: FeeInputs, cfg: FeeModelConfig = DEFAULT_FEE_MODEL): GasFees {
  if (inputs.ethPerFeeAsset <= 0n) throw new RangeError('ethPerFeeAsset must be positive');
  const weiPerMana = (cfg.l1GasPerCheckpoint * inputs.l1GasPriceWei) / cfg.manaTarget + cfg.provingCostPerManaWei;
  const baseL2 = weiToFeeAsset(weiPerMana, inputs.ethPerFeeAsset);
  const baseDa = weiToFeeAsset(cfg.blobGasPerDaGas * inputs.l1BlobGasPriceWei, inputs.ethPerFeeAsset);
  return {
    feePerDaGas: baseDa,
    feePerL2Gas: fakeExponential(baseL2, inputs.excessMana, cfg.congestionUpdateFraction),
  };
}

/** Excess mana after a block that used `manaUsed` (per-block share of the checkpoint target). */
export function nextExcessMana(excess: bigint, manaUsed: bigint, targetPerBlock: bigint): bigint {
  const next = excess + manaUsed - targetPerBlock;
  return next > 0n ? next : 0n;
}
