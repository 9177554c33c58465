/**
 * A text assembler for public VM bytecode. One instruction per line, operands separated by commas:
 *
 * ```
 * ; comment                          .def BAL m5         (a name for any operand)
 * .fn balance_of_public((Field))     (a function entry; selector from the signature, or .fn 0x1234abcd)
 * loop:                              (a label)
 *   SET m0, 0x2a                     (field immediate: decimal, 0x-hex, or selector(<signature>))
 *   JUMPI m1, loop                   (labels for jump targets)
 *   GETENV m2, SENDER                (environment variables by name)
 *   ASSERT m3, "not the admin"       (strings go to the program's string table)
 * ```
 * @module
 */
import { FIELD_MODULUS } from '../crypto/field.ts';
import { functionSelectorFromSignature } from '../contracts/function-selector.ts';
import { encodeProgram } from './bytecode.ts';
import type { Instruction, PublicVmProgram } from './bytecode.ts';
import { EnvVar, OPCODES_BY_NAME } from './opcodes.ts';

/** A source error, with its 1-based line number. */
export class AssemblerError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'AssemblerError';
    this.line = line;
  }
}

/** A function of an assembled program. */
export interface AssembledFunction {
  readonly selector: number;
  readonly signature: string | undefined;
  readonly entry: number;
}

/** The output of assemble(). */
export interface AssembledProgram {
  readonly bytecode: Uint8Array;
  readonly program: PublicVmProgram;
  readonly functions: readonly AssembledFunction[];
  /** The signatures, for FunctionSignatureRegistry.registerFunctionSignatures. */
  readonly signatures: readonly string[];
}

/** Splits operands on commas outside quotes and parentheses. */
function splitOperands(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && ch === '(') depth++;
    if (!quoted && ch === ')') depth--;
    if (!quoted && depth === 0 && ch === ',') {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
}

function stripComment(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') quoted = !quoted;
    if (!quoted && line[i] === ';') return line.slice(0, i);
  }
  return line;
}

function parseNumber(tok: string): bigint | undefined {
  if (/^0x[0-9a-fA-F]+$/.test(tok) || /^[0-9]+$/.test(tok)) return BigInt(tok);
  const sel = /^selector\((.+)\)$/.exec(tok);
  return sel ? BigInt(functionSelectorFromSignature(sel[1]!)) : undefined;
}

/** Assembles source text into a program and its container bytes. */
export function assemble(source: string): AssembledProgram {
  const defs = new Map<string, string>();
  const labels = new Map<string, number>();
  const strings: string[] = [];
  const functions: AssembledFunction[] = [];
  const pending: { line: number; name: string; operands: string[] }[] = [];
  source.split('\n').forEach((raw, i) => {
    const line = i + 1;
    let text = stripComment(raw).trim();
    if (text === '') return;
    const label = /^([A-Za-z_][\w.]*):\s*(.*)$/.exec(text);
    if (label) {
      if (labels.has(label[1]!)) throw new AssemblerError(line, `label ${label[1]} defined twice`);
      labels.set(label[1]!, pending.length);
      text = label[2]!.trim();
      if (text === '') return;
    }
    const [word, ...restParts] = text.split(/\s+/);
    const rest = text.slice(word!.length).trim();
    if (word === '.def') {
      if (restParts.length !== 2) throw new AssemblerError(line, '.def takes a name and a value');
      defs.set(restParts[0]!, restParts[1]!);
    } else if (word === '.fn') {
      const sel = /^0x[0-9a-fA-F]{1,8}$/.test(rest) ? Number.parseInt(rest.slice(2), 16) : undefined;
      functions.push({
        selector: sel ?? functionSelectorFromSignature(rest),
        signature: sel === undefined ? rest : undefined,
        entry: pending.length,
      });
    } else {
      pending.push({ line, name: word!.toUpperCase(), operands: splitOperands(rest) });
    }
  });

  const instructions: Instruction[] = pending.map(({ line, name, operands }) => {
    const info = OPCODES_BY_NAME.get(name);
    if (info === undefined) throw new AssemblerError(line, `unknown instruction ${name}`);
    if (operands.length !== info.operands.length) {
      throw new AssemblerError(line, `${name} takes ${info.operands.length} operands, got ${operands.length}`);
    }
    const args = info.operands.map((kind, k) => {
      const tok = defs.get(operands[k]!) ?? operands[k]!;
      const fail = (what: string): never => {
        throw new AssemblerError(line, `${name} operand ${k + 1}: ${what}, got ${tok}`);
      };
      switch (kind) {
        case 'm': {
          const m = /^m(\d+)$/.exec(tok);
          return m && Number(m[1]) < 65536 ? Number(m[1]) : fail('expected a memory address m0..m65535');
        }
        case 'f': {
          const v = parseNumber(tok);
          return v !== undefined && v < FIELD_MODULUS ? v : fail('expected a field element');
        }
        case 'n': {
          const v = parseNumber(tok);
          return v !== undefined && v < 65536n ? Number(v) : fail('expected a count 0..65535');
        }
        case 'l':
          return labels.get(tok) ?? fail('unknown label');
        case 'e':
          return (EnvVar as Record<string, number>)[tok.toUpperCase()] ?? fail('unknown environment variable');
        case 's': {
          const m = /^"(.*)"$/.exec(tok);
          if (!m) return fail('expected a "string"');
          const at = strings.indexOf(m[1]!);
          return at >= 0 ? at : strings.push(m[1]!) - 1;
        }
        default:
          return fail(`unknown operand kind ${kind as string}`);
      }
    });
    return { op: info.code, args };
  });
  const program: PublicVmProgram = {
    functions: functions.map((f) => ({ selector: f.selector, entry: f.entry })),
    strings,
    instructions,
  };
  return {
    bytecode: encodeProgram(program),
    program,
    functions,
    signatures: functions.flatMap((f) => (f.signature === undefined ? [] : [f.signature])),
  };
}
