/**
 * The public VM interpreter: runs one call frame (and the frames it calls) over a journaled host,
 * metering L2 and DA gas. Pure and deterministic: the only inputs are the arguments and the host.
 * @module
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { FIELD_MODULUS } from '../crypto/field.ts';
import { poseidon2Hash } from '../crypto/poseidon2.ts';
import { deriveStorageSlotInMap } from '../contracts/siloing.ts';
import { invertMod } from '../contracts/grumpkin.ts';
import { toSelectorHex } from '../contracts/function-selector.ts';
import type { FunctionSignatureRegistry } from '../contracts/function-selector.ts';
import { ARG_STRIDE, InvalidBytecodeError } from './bytecode.ts';
import type { DecodedProgram } from './bytecode.ts';
import { loadProgram } from './program-cache.ts';
import {
  DA_GAS_PER_FIELD,
  EnvVar,
  L2_GAS_BY_OPCODE,
  L2_GAS_PER_FIELD,
  MAX_CALL_DEPTH,
  MAX_CALLDATA_FIELDS,
  MAX_INTERNAL_CALL_DEPTH,
  MAX_MEMORY_CELLS,
  MAX_PUBLIC_LOG_FIELDS,
  Op,
} from './opcodes.ts';
import type { CallEnvironment, Gas, PublicCallResult, PublicCallRevert, PublicVmHost } from './types.ts';
import { hex32 } from '../encoding/hex.ts';

const P = FIELD_MODULUS;

/**
 * Instructions a frame runs (its callees' included) between two turns of the event loop: ~2 ms of
 * work, so a long call (a simulation may spend 100M gas, ~1.6 s) never holds other clients for its
 * whole run (docs/OPERATIONS.md "Browser safety and hostile callers").
 */
const INSTRUCTIONS_PER_TURN = 65_536;

/** Arguments of executePublicCall. */
export interface PublicCallRequest {
  readonly contractAddress: bigint;
  readonly sender: bigint;
  /** calldata[0] is the function selector (Aztec public dispatch); arguments follow. */
  readonly calldata: readonly bigint[];
  readonly isStaticCall: boolean;
  readonly gasLimit: Gas;
  readonly host: PublicVmHost;
  readonly env: CallEnvironment;
  /** Names functions in revert reasons. */
  readonly signatures?: FunctionSignatureRegistry;
  /** 0 for an enqueued call; the VM sets it for nested calls. */
  readonly depth?: number;
}

/** A frame stops: `halt` (exceptional) consumes all its gas; a revert returns the unused gas. */
class Stop {
  readonly message: string;
  readonly revertData: readonly bigint[];
  readonly exceptional: boolean;
  readonly inner: PublicCallRevert | undefined;
  constructor(message: string, exceptional: boolean, revertData: readonly bigint[] = [], inner?: PublicCallRevert) {
    this.message = message;
    this.exceptional = exceptional;
    this.revertData = revertData;
    this.inner = inner;
  }
}

const halt = (message: string) => new Stop(message, true);

/**
 * Executes a public call in its own journal checkpoint: committed on success, rolled back on revert.
 * Never throws for anything the called code or its bytecode does; only host failures propagate.
 */
export async function executePublicCall(req: PublicCallRequest): Promise<PublicCallResult> {
  const { host } = req;
  host.checkpoint();
  let result: PublicCallResult;
  try {
    result = await runFrame(req);
  } catch (err) {
    host.rollback();
    throw err;
  }
  if (result.reverted) host.rollback();
  else host.commit();
  return result;
}

async function runFrame(req: PublicCallRequest): Promise<PublicCallResult> {
  const { contractAddress, calldata, host, env } = req;
  const depth = req.depth ?? 0;
  const first = calldata[0];
  const selector = first !== undefined && first <= 0xffffffffn ? Number(first) : undefined;
  const limit = req.gasLimit;
  let l2Left = limit.l2Gas;
  let daLeft = limit.daGas;
  let instructions = 0;
  let nextTurnAt = INSTRUCTIONS_PER_TURN;
  const nested: PublicCallResult[] = [];

  const finish = (stop: Stop | undefined, returnValues: readonly bigint[]): PublicCallResult => {
    const gasUsed = stop?.exceptional
      ? { l2Gas: limit.l2Gas, daGas: limit.daGas }
      : { l2Gas: limit.l2Gas - l2Left, daGas: limit.daGas - daLeft };
    if (stop === undefined) {
      return {
        contractAddress,
        selector,
        reverted: false,
        returnValues,
        revert: undefined,
        gasUsed,
        nested,
        instructions,
      };
    }
    const self = {
      contractAddress,
      ...(selector !== undefined ? { functionSelector: selector } : {}),
      ...(selector !== undefined && req.signatures?.findName(selector) !== undefined
        ? { functionName: req.signatures.findName(selector)! }
        : {}),
    };
    const revert: PublicCallRevert = stop.inner
      ? { message: stop.inner.message, stack: [self, ...stop.inner.stack], revertData: stop.revertData }
      : { message: stop.message, stack: [self], revertData: stop.revertData };
    return {
      contractAddress,
      selector,
      reverted: true,
      returnValues: stop.revertData,
      revert,
      gasUsed,
      nested,
      instructions,
    };
  };

  // Refused before running, so no gas is consumed (the caller can recover, as in the EVM).
  if (depth > MAX_CALL_DEPTH) return finish(new Stop(`Call depth limit (${MAX_CALL_DEPTH}) exceeded`, false), []);
  if (calldata.length > MAX_CALLDATA_FIELDS)
    return finish(halt(`Calldata too long (${calldata.length} > ${MAX_CALLDATA_FIELDS} fields)`), []);
  const code = await host.getContract(contractAddress);
  if (code === undefined) return finish(halt(`No contract deployed at ${hex32(contractAddress)}`), []);
  let program: DecodedProgram;
  try {
    program = loadProgram(code);
  } catch (err) {
    if (err instanceof InvalidBytecodeError)
      return finish(halt(`${err.message} (contract ${hex32(contractAddress)})`), []);
    throw err;
  }
  if (selector === undefined) return finish(halt('Calldata has no function selector (calldata[0] must be a u32)'), []);
  const entry = program.functions.get(selector);
  if (entry === undefined) {
    return finish(
      halt(`Unknown function selector ${toSelectorHex(selector)} in contract ${hex32(contractAddress)}`),
      [],
    );
  }

  const { ops, args, imms, count, strings } = program;
  const mem: bigint[] = [];
  const internalStack: number[] = [];
  const isStatic = req.isStaticCall;
  let lastReturnData: readonly bigint[] = [];
  let lastChild: PublicCallResult | undefined;
  let pc = entry;

  const slice = (off: number, n: number): bigint[] => {
    if (off + n > MAX_MEMORY_CELLS) throw halt(`Memory access out of range (${off}+${n})`);
    const out = new Array<bigint>(n);
    for (let i = 0; i < n; i++) out[i] = mem[off + i] ?? 0n;
    return out;
  };
  const chargeL2 = (g: number) => {
    l2Left -= g;
    if (l2Left < 0) throw halt('Out of L2 gas');
  };
  const chargeDa = (fields: number) => {
    daLeft -= fields * DA_GAS_PER_FIELD;
    if (daLeft < 0) throw halt('Out of DA gas');
  };
  const noStatic = (what: string) => {
    if (isStatic) throw halt(`Static call cannot change state (${what})`);
  };
  /** A state change: refused in a static call, else charged `fields` fields of DA gas. */
  const changeState = (what: string, fields: number) => {
    noStatic(what);
    chargeDa(fields);
  };
  const index = (v: bigint, size: number, what: string): number => {
    if (v >= BigInt(size)) throw halt(`${what} index ${v} out of range (size ${size})`);
    return Number(v);
  };

  try {
    for (;;) {
      if (pc >= count) throw halt('Execution ran past the end of the code');
      const op = ops[pc]!;
      const b = pc * ARG_STRIDE;
      l2Left -= L2_GAS_BY_OPCODE[op]!;
      if (l2Left < 0) throw halt('Out of L2 gas');
      if (++instructions >= nextTurnAt) {
        nextTurnAt = instructions + INSTRUCTIONS_PER_TURN;
        await nextTurn();
      }
      pc++;
      switch (op) {
        case Op.SET:
          mem[args[b]!] = imms[pc - 1]!;
          break;
        case Op.MOV:
          mem[args[b]!] = mem[args[b + 1]!] ?? 0n;
          break;
        case Op.ADD: {
          const r = (mem[args[b + 1]!] ?? 0n) + (mem[args[b + 2]!] ?? 0n);
          mem[args[b]!] = r >= P ? r - P : r;
          break;
        }
        case Op.SUB: {
          const r = (mem[args[b + 1]!] ?? 0n) - (mem[args[b + 2]!] ?? 0n);
          mem[args[b]!] = r < 0n ? r + P : r;
          break;
        }
        case Op.MUL:
          mem[args[b]!] = ((mem[args[b + 1]!] ?? 0n) * (mem[args[b + 2]!] ?? 0n)) % P;
          break;
        case Op.DIV: {
          const d = mem[args[b + 2]!] ?? 0n;
          if (d === 0n) throw halt('Division by zero');
          mem[args[b]!] = ((mem[args[b + 1]!] ?? 0n) * invertMod(d)) % P;
          break;
        }
        case Op.INV: {
          const d = mem[args[b + 1]!] ?? 0n;
          if (d === 0n) throw halt('Inverse of zero');
          mem[args[b]!] = invertMod(d);
          break;
        }
        case Op.EQ:
          mem[args[b]!] = (mem[args[b + 1]!] ?? 0n) === (mem[args[b + 2]!] ?? 0n) ? 1n : 0n;
          break;
        case Op.LT:
          mem[args[b]!] = (mem[args[b + 1]!] ?? 0n) < (mem[args[b + 2]!] ?? 0n) ? 1n : 0n;
          break;
        case Op.LTE:
          mem[args[b]!] = (mem[args[b + 1]!] ?? 0n) <= (mem[args[b + 2]!] ?? 0n) ? 1n : 0n;
          break;
        case Op.NOT:
          mem[args[b]!] = (mem[args[b + 1]!] ?? 0n) === 0n ? 1n : 0n;
          break;
        case Op.JUMP:
          pc = args[b]!;
          break;
        case Op.JUMPI:
          if ((mem[args[b]!] ?? 0n) !== 0n) pc = args[b + 1]!;
          break;
        case Op.INTERNALCALL:
          if (internalStack.length >= MAX_INTERNAL_CALL_DEPTH) throw halt('Internal call stack overflow');
          internalStack.push(pc);
          pc = args[b]!;
          break;
        case Op.INTERNALRETURN: {
          const back = internalStack.pop();
          if (back === undefined) throw halt('INTERNALRETURN with an empty internal call stack');
          pc = back;
          break;
        }
        case Op.LOAD:
          mem[args[b]!] = mem[index(mem[args[b + 1]!] ?? 0n, MAX_MEMORY_CELLS, 'Memory')] ?? 0n;
          break;
        case Op.STORE:
          mem[index(mem[args[b]!] ?? 0n, MAX_MEMORY_CELLS, 'Memory')] = mem[args[b + 1]!] ?? 0n;
          break;
        // Calldata and the last call's return data: two read-only buffers, read the same way.
        case Op.CALLDATASIZE:
        case Op.RETURNDATASIZE:
          mem[args[b]!] = BigInt((op === Op.CALLDATASIZE ? calldata : lastReturnData).length);
          break;
        case Op.CALLDATALOAD:
        case Op.RETURNDATALOAD: {
          const data = op === Op.CALLDATALOAD ? calldata : lastReturnData;
          const what = op === Op.CALLDATALOAD ? 'Calldata' : 'Return data';
          mem[args[b]!] = data[index(mem[args[b + 1]!] ?? 0n, data.length, what)]!;
          break;
        }
        case Op.GETENV:
          mem[args[b]!] = readEnv(args[b + 1]!);
          break;
        case Op.SLOAD: {
          const v = host.readStorage(contractAddress, mem[args[b + 1]!] ?? 0n);
          mem[args[b]!] = v instanceof Promise ? await v : v;
          break;
        }
        case Op.SSTORE:
          changeState('SSTORE', 2);
          host.writeStorage(contractAddress, mem[args[b]!] ?? 0n, mem[args[b + 1]!] ?? 0n);
          break;
        case Op.MAPSLOT:
          mem[args[b]!] = deriveStorageSlotInMap(mem[args[b + 1]!] ?? 0n, mem[args[b + 2]!] ?? 0n);
          break;
        case Op.NULLIFIEREXISTS: {
          const v = host.nullifierExists(mem[args[b + 2]!] ?? 0n, mem[args[b + 1]!] ?? 0n);
          mem[args[b]!] = (v instanceof Promise ? await v : v) ? 1n : 0n;
          break;
        }
        case Op.EMITNOTEHASH:
          changeState('EMITNOTEHASH', 1);
          host.emitNoteHash(contractAddress, mem[args[b]!] ?? 0n);
          break;
        case Op.EMITNULLIFIER: {
          changeState('EMITNULLIFIER', 1);
          const ok = host.emitNullifier(contractAddress, mem[args[b]!] ?? 0n);
          if (!(ok instanceof Promise ? await ok : ok)) throw halt('Nullifier already exists');
          break;
        }
        case Op.EMITLOG: {
          noStatic('EMITLOG');
          const n = args[b + 1]!;
          if (n > MAX_PUBLIC_LOG_FIELDS) throw halt(`Public log too long (${n} > ${MAX_PUBLIC_LOG_FIELDS} fields)`);
          chargeL2(n * L2_GAS_PER_FIELD);
          chargeDa(n + 2);
          host.emitPublicLog(contractAddress, slice(args[b]!, n));
          break;
        }
        case Op.SENDL2TOL1:
          changeState('SENDL2TOL1', 1);
          host.sendL2ToL1Message(contractAddress, mem[args[b]!] ?? 0n, mem[args[b + 1]!] ?? 0n);
          break;
        case Op.POSEIDON2: {
          const n = args[b + 2]!;
          chargeL2(n * L2_GAS_PER_FIELD);
          mem[args[b]!] = poseidon2Hash(slice(args[b + 1]!, n));
          break;
        }
        case Op.CALL:
        case Op.STATICCALL: {
          const child = await executePublicCall({
            contractAddress: mem[args[b + 2]!] ?? 0n,
            sender: contractAddress,
            calldata: slice(args[b + 3]!, args[b + 4]!),
            isStaticCall: isStatic || op === Op.STATICCALL,
            gasLimit: {
              l2Gas: clampGas(mem[args[b]!] ?? 0n, l2Left),
              daGas: clampGas(mem[args[b + 1]!] ?? 0n, daLeft),
            },
            host,
            env,
            depth: depth + 1,
            ...(req.signatures ? { signatures: req.signatures } : {}),
          });
          l2Left -= child.gasUsed.l2Gas;
          daLeft -= child.gasUsed.daGas;
          instructions += child.instructions;
          nested.push(child);
          lastChild = child;
          lastReturnData = child.returnValues;
          mem[args[b + 5]!] = child.reverted ? 0n : 1n;
          break;
        }
        case Op.RETURN:
          return finish(undefined, slice(args[b]!, args[b + 1]!));
        case Op.REVERT:
          throw new Stop('Explicit revert', false, slice(args[b]!, args[b + 1]!));
        case Op.ASSERT:
          if ((mem[args[b]!] ?? 0n) === 0n) throw new Stop(`Assertion failed: ${strings[args[b + 1]!]}`, false);
          break;
        case Op.RETHROW:
          if (lastChild?.revert === undefined) throw halt('RETHROW without a reverted call');
          throw new Stop(lastChild.revert.message, false, lastChild.returnValues, lastChild.revert);
        default:
          throw halt(`Unknown opcode ${op}`);
      }
    }
  } catch (err) {
    if (err instanceof Stop) return finish(err, err.revertData);
    throw err;
  }

  function readEnv(v: number): bigint {
    switch (v) {
      case EnvVar.ADDRESS:
        return contractAddress;
      case EnvVar.SENDER:
        return req.sender;
      case EnvVar.TRANSACTION_FEE:
        return env.transactionFee ?? 0n;
      case EnvVar.CHAIN_ID:
        return env.chainId;
      case EnvVar.VERSION:
        return env.version;
      case EnvVar.BLOCK_NUMBER:
        return BigInt(env.blockNumber);
      case EnvVar.TIMESTAMP:
        return env.timestamp;
      case EnvVar.FEE_PER_L2_GAS:
        return env.gasFees.feePerL2Gas;
      case EnvVar.FEE_PER_DA_GAS:
        return env.gasFees.feePerDaGas;
      case EnvVar.IS_STATIC_CALL:
        return isStatic ? 1n : 0n;
      case EnvVar.L2_GAS_LEFT:
        return BigInt(l2Left);
      case EnvVar.DA_GAS_LEFT:
        return BigInt(daLeft);
      default:
        throw halt(`Unknown environment variable ${v}`);
    }
  }
}

/** Gas forwarded to a nested call: what the caller asked for, at most what it has left. */
function clampGas(requested: bigint, left: number): number {
  return requested < BigInt(left) ? Number(requested) : left;
}
