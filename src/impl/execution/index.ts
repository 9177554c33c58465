/**
 * The public VM's surface: run one call, run a tx's public phases, the journaled state and an
 * in-memory state source, the assembler and the bytecode container.
 * @module
 */
export type * from './types.ts';
export { executePublicCall } from './interpreter.ts';
export type { PublicCallRequest } from './interpreter.ts';
export {
  executePublicTx,
  PublicTxInvalidError,
} from './public-tx-executor.ts';
export type {
  EnqueuedCall,
  PublicGasUsed,
  PublicTxContext,
  PublicTxInput,
  PublicTxResult,
} from './public-tx-executor.ts';
export { isAllowedSetupCall } from './allow-list.ts';
export type { AllowedElement } from './allow-list.ts';
export { JournaledState } from './journaled-state.ts';
export { MemoryStateSource } from './memory-state-source.ts';
export { assemble, AssemblerError } from './assembler.ts';
export type { AssembledProgram } from './assembler.ts';
export { decodeProgram, encodeProgram, InvalidBytecodeError, BYTECODE_MAGIC, BYTECODE_VERSION } from './bytecode.ts';
export { Op, EnvVar, DA_GAS_PER_FIELD, MAX_CALL_DEPTH, MAX_MEMORY_CELLS } from './opcodes.ts';
export { toWireSimulationError } from './simulation-error.ts';
export type { WireSimulationError } from './simulation-error.ts';
