/**
 * Gas arithmetic for the phase executor, and the fee for a gas amount.
 * @module
 */
import type { Gas, GasFees } from './types.ts';

/** Zero gas. */
export const ZERO_GAS: Gas = { daGas: 0, l2Gas: 0 };

/** Returns a + b. */
export function addGas(a: Gas, b: Gas): Gas {
  return { daGas: a.daGas + b.daGas, l2Gas: a.l2Gas + b.l2Gas };
}

/** Returns a − b, floored at zero per dimension. */
export function subGas(a: Gas, b: Gas): Gas {
  return { daGas: Math.max(0, a.daGas - b.daGas), l2Gas: Math.max(0, a.l2Gas - b.l2Gas) };
}

/** Returns the fee for `gas` at `fees`: daGas·feePerDaGas + l2Gas·feePerL2Gas. */
export function computeFee(gas: Gas, fees: GasFees): bigint {
  return BigInt(gas.daGas) * fees.feePerDaGas + BigInt(gas.l2Gas) * fees.feePerL2Gas;
}
