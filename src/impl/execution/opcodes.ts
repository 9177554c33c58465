/**
 * The instruction set of the l2node public VM: opcode numbers, operand layouts and the L2 gas
 * table. docs/PUBLIC-VM.md is the prose version of this file; keep them in step.
 * @module
 */

/**
 * Operand kinds: `m` memory address (u16), `f` field immediate (32 bytes BE), `l` instruction
 * index (u32), `n` count (u16), `e` environment variable (u8), `s` string-table index (u16).
 */
export type OperandKind = 'm' | 'f' | 'l' | 'n' | 'e' | 's';

/** One instruction's definition. */
export interface OpcodeInfo {
  readonly code: number;
  readonly name: string;
  readonly operands: readonly OperandKind[];
  /** Base L2 gas charged before the instruction runs. */
  readonly l2Gas: number;
}

/** Opcode numbers by mnemonic. */
export const Op = {
  SET: 0x01,
  MOV: 0x02,
  ADD: 0x03,
  SUB: 0x04,
  MUL: 0x05,
  DIV: 0x06,
  INV: 0x07,
  EQ: 0x08,
  LT: 0x09,
  LTE: 0x0a,
  NOT: 0x0b,
  JUMP: 0x10,
  JUMPI: 0x11,
  INTERNALCALL: 0x12,
  INTERNALRETURN: 0x13,
  LOAD: 0x14,
  STORE: 0x15,
  CALLDATASIZE: 0x20,
  CALLDATALOAD: 0x21,
  RETURNDATASIZE: 0x22,
  RETURNDATALOAD: 0x23,
  GETENV: 0x24,
  SLOAD: 0x30,
  SSTORE: 0x31,
  MAPSLOT: 0x32,
  NULLIFIEREXISTS: 0x33,
  EMITNOTEHASH: 0x34,
  EMITNULLIFIER: 0x35,
  EMITLOG: 0x36,
  SENDL2TOL1: 0x37,
  POSEIDON2: 0x38,
  CALL: 0x40,
  STATICCALL: 0x41,
  RETURN: 0x42,
  REVERT: 0x43,
  ASSERT: 0x44,
  RETHROW: 0x45,
} as const;

/** Environment variables readable with GETENV (numbering follows the AVM's GETENVVAR). */
export const EnvVar = {
  ADDRESS: 0,
  SENDER: 1,
  TRANSACTION_FEE: 2,
  CHAIN_ID: 3,
  VERSION: 4,
  BLOCK_NUMBER: 5,
  TIMESTAMP: 6,
  FEE_PER_L2_GAS: 7,
  FEE_PER_DA_GAS: 8,
  IS_STATIC_CALL: 9,
  L2_GAS_LEFT: 10,
  DA_GAS_LEFT: 11,
} as const;

/** DA gas per field of state written (public data writes cost two: slot and value). */
export const DA_GAS_PER_FIELD = 32;
/** Extra L2 gas per field hashed by POSEIDON2 or written by EMITLOG. */
export const L2_GAS_PER_FIELD = 6;
/** Memory cells per frame (addresses are u16). */
export const MAX_MEMORY_CELLS = 1 << 16;
/** Nested external calls (the top-level call is depth 0). */
export const MAX_CALL_DEPTH = 16;
/** Nested INTERNALCALLs within one frame. */
export const MAX_INTERNAL_CALL_DEPTH = 1024;
/** Fields of calldata accepted by a call. */
export const MAX_CALLDATA_FIELDS = 1 << 12;
/** Fields in one public log (Aztec's PUBLIC_LOG_SIZE_IN_FIELDS). */
export const MAX_PUBLIC_LOG_FIELDS = 13;

const table: OpcodeInfo[] = [
  { code: Op.SET, name: 'SET', operands: ['m', 'f'], l2Gas: 3 },
  { code: Op.MOV, name: 'MOV', operands: ['m', 'm'], l2Gas: 3 },
  { code: Op.ADD, name: 'ADD', operands: ['m', 'm', 'm'], l2Gas: 3 },
  { code: Op.SUB, name: 'SUB', operands: ['m', 'm', 'm'], l2Gas: 3 },
  { code: Op.MUL, name: 'MUL', operands: ['m', 'm', 'm'], l2Gas: 5 },
  { code: Op.DIV, name: 'DIV', operands: ['m', 'm', 'm'], l2Gas: 40 },
  { code: Op.INV, name: 'INV', operands: ['m', 'm'], l2Gas: 40 },
  { code: Op.EQ, name: 'EQ', operands: ['m', 'm', 'm'], l2Gas: 3 },
  { code: Op.LT, name: 'LT', operands: ['m', 'm', 'm'], l2Gas: 3 },
  { code: Op.LTE, name: 'LTE', operands: ['m', 'm', 'm'], l2Gas: 3 },
  { code: Op.NOT, name: 'NOT', operands: ['m', 'm'], l2Gas: 3 },
  { code: Op.JUMP, name: 'JUMP', operands: ['l'], l2Gas: 2 },
  { code: Op.JUMPI, name: 'JUMPI', operands: ['m', 'l'], l2Gas: 3 },
  { code: Op.INTERNALCALL, name: 'INTERNALCALL', operands: ['l'], l2Gas: 4 },
  { code: Op.INTERNALRETURN, name: 'INTERNALRETURN', operands: [], l2Gas: 4 },
  { code: Op.LOAD, name: 'LOAD', operands: ['m', 'm'], l2Gas: 3 },
  { code: Op.STORE, name: 'STORE', operands: ['m', 'm'], l2Gas: 3 },
  { code: Op.CALLDATASIZE, name: 'CALLDATASIZE', operands: ['m'], l2Gas: 2 },
  { code: Op.CALLDATALOAD, name: 'CALLDATALOAD', operands: ['m', 'm'], l2Gas: 3 },
  { code: Op.RETURNDATASIZE, name: 'RETURNDATASIZE', operands: ['m'], l2Gas: 2 },
  { code: Op.RETURNDATALOAD, name: 'RETURNDATALOAD', operands: ['m', 'm'], l2Gas: 3 },
  { code: Op.GETENV, name: 'GETENV', operands: ['m', 'e'], l2Gas: 2 },
  { code: Op.SLOAD, name: 'SLOAD', operands: ['m', 'm'], l2Gas: 200 },
  { code: Op.SSTORE, name: 'SSTORE', operands: ['m', 'm'], l2Gas: 400 },
  { code: Op.MAPSLOT, name: 'MAPSLOT', operands: ['m', 'm', 'm'], l2Gas: 60 },
  { code: Op.NULLIFIEREXISTS, name: 'NULLIFIEREXISTS', operands: ['m', 'm', 'm'], l2Gas: 200 },
  { code: Op.EMITNOTEHASH, name: 'EMITNOTEHASH', operands: ['m'], l2Gas: 150 },
  { code: Op.EMITNULLIFIER, name: 'EMITNULLIFIER', operands: ['m'], l2Gas: 250 },
  { code: Op.EMITLOG, name: 'EMITLOG', operands: ['m', 'n'], l2Gas: 50 },
  { code: Op.SENDL2TOL1, name: 'SENDL2TOL1', operands: ['m', 'm'], l2Gas: 100 },
  { code: Op.POSEIDON2, name: 'POSEIDON2', operands: ['m', 'm', 'n'], l2Gas: 30 },
  { code: Op.CALL, name: 'CALL', operands: ['m', 'm', 'm', 'm', 'n', 'm'], l2Gas: 100 },
  { code: Op.STATICCALL, name: 'STATICCALL', operands: ['m', 'm', 'm', 'm', 'n', 'm'], l2Gas: 100 },
  { code: Op.RETURN, name: 'RETURN', operands: ['m', 'n'], l2Gas: 2 },
  { code: Op.REVERT, name: 'REVERT', operands: ['m', 'n'], l2Gas: 2 },
  { code: Op.ASSERT, name: 'ASSERT', operands: ['m', 's'], l2Gas: 3 },
  { code: Op.RETHROW, name: 'RETHROW', operands: [], l2Gas: 2 },
];

/** Opcode definitions indexed by opcode byte (undefined for unassigned bytes). */
export const OPCODES: readonly (OpcodeInfo | undefined)[] = (() => {
  const byCode: (OpcodeInfo | undefined)[] = new Array(256).fill(undefined);
  for (const info of table) byCode[info.code] = info;
  return byCode;
})();

/** Opcode definitions by mnemonic. */
export const OPCODES_BY_NAME: ReadonlyMap<string, OpcodeInfo> = new Map(table.map((i) => [i.name, i]));

/** Base L2 gas by opcode byte, for the interpreter's hot loop. */
export const L2_GAS_BY_OPCODE: Int32Array = Int32Array.from(OPCODES.map((i) => i?.l2Gas ?? 0));
