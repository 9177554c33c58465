/**
 * Gas arithmetic for the phase executor (the fee for a gas amount is fees/fees.ts).
 * @module
 */
import type { Gas } from './types.ts';

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
