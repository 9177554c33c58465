/**
 * The public VM bytecode container (`packedBytecode` of a contract class): encoding, and decoding
 * with full static validation into a flat form the interpreter runs. Layout in docs/PUBLIC-VM.md.
 * @module
 */
import { FIELD_MODULUS } from '../crypto/field.ts';
import { EnvVar, OPCODES } from './opcodes.ts';
import type { OperandKind } from './opcodes.ts';

/** "L2VM": the first four bytes of every program; Aztec AVM bytecode never starts with them. */
export const BYTECODE_MAGIC = Uint8Array.of(0x4c, 0x32, 0x56, 0x4d);
/** The only container version this VM runs. */
export const BYTECODE_VERSION = 1;
/** Operand slots per decoded instruction (the widest opcode, CALL, has six). */
export const ARG_STRIDE = 6;

const ENV_VAR_COUNT = Object.keys(EnvVar).length;
const textDecoder = new TextDecoder('utf-8', { fatal: true });

/** Bytes that are not a valid program for this VM; the message says what is wrong. */
export class InvalidBytecodeError extends Error {
  constructor(reason: string) {
    super(`Invalid public bytecode: ${reason}`);
    this.name = 'InvalidBytecodeError';
  }
}

/** One instruction before encoding: operands in the order of its opcode's layout. */
export interface Instruction {
  readonly op: number;
  readonly args: readonly (number | bigint)[];
}

/** A program before encoding. */
export interface PublicVmProgram {
  readonly functions: readonly { readonly selector: number; readonly entry: number }[];
  readonly strings: readonly string[];
  readonly instructions: readonly Instruction[];
}

/** A validated program, flattened for the interpreter. */
export interface DecodedProgram {
  /** Entry instruction index by selector. */
  readonly functions: ReadonlyMap<number, number>;
  readonly strings: readonly string[];
  readonly count: number;
  readonly ops: Uint8Array;
  /** Operands, ARG_STRIDE per instruction; field immediates live in `imms`. */
  readonly args: Int32Array;
  readonly imms: readonly (bigint | undefined)[];
}

const OPERAND_BYTES: Record<OperandKind, number> = { m: 2, f: 32, l: 4, n: 2, e: 1, s: 2 };

/** Encodes a program into container bytes (throws on operands that do not fit). */
export function encodeProgram(program: PublicVmProgram): Uint8Array {
  const out: number[] = [...BYTECODE_MAGIC, BYTECODE_VERSION];
  const u16 = (x: number) => out.push((x >> 8) & 0xff, x & 0xff);
  const u32 = (x: number) => out.push((x >>> 24) & 0xff, (x >>> 16) & 0xff, (x >>> 8) & 0xff, x & 0xff);
  u16(program.functions.length);
  for (const f of program.functions) {
    u32(f.selector >>> 0);
    u32(f.entry);
  }
  u16(program.strings.length);
  for (const s of program.strings) {
    const bytes = new TextEncoder().encode(s);
    if (bytes.length > 0xffff) throw new RangeError('string too long');
    u16(bytes.length);
    out.push(...bytes);
  }
  u32(program.instructions.length);
  for (const ins of program.instructions) {
    const info = OPCODES[ins.op];
    if (info === undefined) throw new RangeError(`unknown opcode ${ins.op}`);
    if (ins.args.length !== info.operands.length)
      throw new RangeError(`${info.name} takes ${info.operands.length} operands`);
    out.push(ins.op);
    info.operands.forEach((kind, i) => {
      const a = ins.args[i]!;
      if (kind === 'f') {
        const x = BigInt(a);
        if (x < 0n || x >= FIELD_MODULUS) throw new RangeError(`${info.name}: immediate is not a field element`);
        for (let b = 31; b >= 0; b--) out.push(Number((x >> BigInt(b * 8)) & 0xffn));
        return;
      }
      const n = Number(a);
      const max = 2 ** (8 * OPERAND_BYTES[kind]) - 1;
      if (!Number.isInteger(n) || n < 0 || n > max)
        throw new RangeError(`${info.name}: operand ${i} out of range: ${a}`);
      if (kind === 'e') out.push(n);
      else if (kind === 'l') u32(n);
      else u16(n);
    });
  }
  return Uint8Array.from(out);
}

class Reader {
  readonly bytes: Uint8Array;
  pos = 0;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
  need(n: number, what: string): void {
    if (this.pos + n > this.bytes.length)
      throw new InvalidBytecodeError(`truncated at byte ${this.pos} (reading ${what})`);
  }
  u8(what: string): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }
  u16(what: string): number {
    this.need(2, what);
    const v = (this.bytes[this.pos]! << 8) | this.bytes[this.pos + 1]!;
    this.pos += 2;
    return v;
  }
  u32(what: string): number {
    return ((this.u16(what) << 16) >>> 0) + this.u16(what);
  }
}

/** Decodes and statically validates container bytes; throws InvalidBytecodeError. */
export function decodeProgram(bytes: Uint8Array): DecodedProgram {
  if (bytes.length < 5 || !BYTECODE_MAGIC.every((b, i) => bytes[i] === b)) {
    throw new InvalidBytecodeError(
      'bad magic (expected "L2VM"; this is not l2node public VM bytecode, e.g. Aztec AVM bytecode)',
    );
  }
  if (bytes[4] !== BYTECODE_VERSION)
    throw new InvalidBytecodeError(`unsupported version ${bytes[4]} (this VM runs version ${BYTECODE_VERSION})`);
  const r = new Reader(bytes);
  r.pos = 5;
  const entries: [number, number][] = [];
  const fnCount = r.u16('function count');
  for (let i = 0; i < fnCount; i++) entries.push([r.u32('selector'), r.u32('entry')]);
  const strings: string[] = [];
  const strCount = r.u16('string count');
  for (let i = 0; i < strCount; i++) {
    const len = r.u16('string length');
    r.need(len, 'string');
    try {
      strings.push(textDecoder.decode(bytes.subarray(r.pos, r.pos + len)));
    } catch {
      throw new InvalidBytecodeError(`string ${i} is not UTF-8`);
    }
    r.pos += len;
  }
  const count = r.u32('instruction count');
  // Each instruction is at least one byte: reject absurd counts before allocating.
  if (count > bytes.length - r.pos) throw new InvalidBytecodeError(`instruction count ${count} exceeds the code size`);
  const ops = new Uint8Array(count);
  const args = new Int32Array(count * ARG_STRIDE);
  const imms: (bigint | undefined)[] = new Array(count);
  const labels: number[] = [];
  for (let pc = 0; pc < count; pc++) {
    const at = r.pos;
    const op = r.u8('opcode');
    const info = OPCODES[op];
    if (info === undefined)
      throw new InvalidBytecodeError(`unknown opcode 0x${op.toString(16).padStart(2, '0')} at byte ${at}`);
    ops[pc] = op;
    info.operands.forEach((kind, i) => {
      if (kind === 'f') {
        r.need(32, 'field immediate');
        let x = 0n;
        for (let b = 0; b < 32; b++) x = (x << 8n) | BigInt(bytes[r.pos + b]!);
        r.pos += 32;
        if (x >= FIELD_MODULUS)
          throw new InvalidBytecodeError(`${info.name} at instruction ${pc}: immediate is not a field element`);
        imms[pc] = x;
        return;
      }
      const v = kind === 'e' ? r.u8('operand') : kind === 'l' ? r.u32('operand') : r.u16('operand');
      if (kind === 'l') labels.push(v);
      if (kind === 'e' && v >= ENV_VAR_COUNT)
        throw new InvalidBytecodeError(`GETENV at instruction ${pc}: unknown variable ${v}`);
      if (kind === 's' && v >= strings.length)
        throw new InvalidBytecodeError(`${info.name} at instruction ${pc}: no string ${v}`);
      args[pc * ARG_STRIDE + i] = v;
    });
  }
  if (r.pos !== bytes.length) throw new InvalidBytecodeError(`${bytes.length - r.pos} trailing bytes after the code`);
  for (const target of labels)
    if (target >= count)
      throw new InvalidBytecodeError(`jump target ${target} is outside the code (${count} instructions)`);
  const functions = new Map<number, number>();
  for (const [selector, entry] of entries) {
    if (entry >= count)
      throw new InvalidBytecodeError(`function 0x${selector.toString(16)} enters at ${entry}, outside the code`);
    if (functions.has(selector)) throw new InvalidBytecodeError(`selector 0x${selector.toString(16)} appears twice`);
    functions.set(selector, entry);
  }
  return { functions, strings, count, ops, args, imms };
}
