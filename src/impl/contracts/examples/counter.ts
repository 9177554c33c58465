/**
 * Example counter in public VM assembly: `increment()` adds one to a single public counter and
 * returns the new value, `get_counter()` reads it.
 * @module
 */
import { assemble } from '../../execution/assembler.ts';
import type { AssembledProgram } from '../../execution/assembler.ts';

/** Storage slot of the count. */
export const COUNTER_SLOT = 1n;

/** The counter's source. */
export const COUNTER_SOURCE = `
.fn increment()
  SET m0, 1
  SLOAD m1, m0
  ADD m1, m1, m0
  SSTORE m0, m1
  RETURN m1, 1

.fn get_counter()
  SET m0, 1
  SLOAD m1, m0
  RETURN m1, 1
`;

/** Assembles the counter. */
export function assembleCounter(): AssembledProgram {
  return assemble(COUNTER_SOURCE);
}
