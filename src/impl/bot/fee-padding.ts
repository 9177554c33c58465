/**
 * The bot's fee offer (SPEC §9 `--bot.minFeePadding`, as Aztec's bot reads `BOT_MIN_FEE_PADDING`):
 * max fees per gas = current minimum fees per gas × (1 + padding), per dimension, rounded up.
 * The padding is a fraction (0.5 offers 1.5×, the default 3 offers 4×), kept to millionths.
 * @module
 */
import type { GasFees } from '../tx/types.ts';

/** Fixed-point scale of the padding factor (millionths). */
export const PADDING_SCALE = 1_000_000n;

/** Min fees as `node_getCurrentMinFees` answers them (decimal strings) or as bigints. */
export interface MinFeesLike {
  readonly feePerDaGas: string | bigint;
  readonly feePerL2Gas: string | bigint;
}

/** `1 + padding` in millionths; a negative or non-finite padding throws RangeError. */
export function paddingFactor(padding: number): bigint {
  if (!Number.isFinite(padding) || padding < 0)
    throw new RangeError(`fee padding must be a finite number >= 0, got ${padding}`);
  return BigInt(Math.round((1 + padding) * Number(PADDING_SCALE)));
}

/** The max fees per gas the bot offers: each min fee × (1 + padding), rounded up (never below the min fee). */
export function padMinFees(minFees: MinFeesLike, padding: number): GasFees {
  const factor = paddingFactor(padding);
  const pad = (fee: string | bigint) => (BigInt(fee) * factor + PADDING_SCALE - 1n) / PADDING_SCALE;
  return { feePerDaGas: pad(minFees.feePerDaGas), feePerL2Gas: pad(minFees.feePerL2Gas) };
}
