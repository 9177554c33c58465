/**
 * Decoded programs by contract class id: a class's bytecode never changes, so each class is
 * decoded and validated once (invalid bytecode is remembered too).
 * @module
 */
import { decodeProgram, InvalidBytecodeError } from './bytecode.ts';
import type { DecodedProgram } from './bytecode.ts';
import type { ContractCode } from './types.ts';

/** Classes kept; the cache is cleared when full, which is simple and bounded. */
const MAX_CACHED_CLASSES = 512;
const cache = new Map<bigint, DecodedProgram | InvalidBytecodeError>();

/** Returns the decoded program of a contract; throws InvalidBytecodeError. */
export function loadProgram(code: ContractCode): DecodedProgram {
  let entry = cache.get(code.classId);
  if (entry === undefined) {
    try {
      entry = decodeProgram(code.packedBytecode);
    } catch (err) {
      if (!(err instanceof InvalidBytecodeError)) throw err;
      entry = err;
    }
    if (cache.size >= MAX_CACHED_CLASSES) cache.clear();
    cache.set(code.classId, entry);
  }
  if (entry instanceof InvalidBytecodeError) throw entry;
  return entry;
}
