/** Helpers for the public VM tests: deploy assembly, call by signature. @module */
import { assemble } from '../../../src/impl/execution/assembler.ts';
import { executePublicCall } from '../../../src/impl/execution/interpreter.ts';
import { JournaledState } from '../../../src/impl/execution/journaled-state.ts';
import { MemoryStateSource } from '../../../src/impl/execution/memory-state-source.ts';
import {
  FunctionSignatureRegistry,
  functionSelectorFromSignature,
} from '../../../src/impl/contracts/function-selector.ts';
import type { CallEnvironment, Gas, PublicCallResult } from '../../../src/impl/execution/types.ts';

export const ENV: CallEnvironment = {
  chainId: 31337n,
  version: 7n,
  blockNumber: 42,
  timestamp: 1_700_000_000n,
  gasFees: { feePerDaGas: 3n, feePerL2Gas: 5n },
};
export const BIG_GAS: Gas = { l2Gas: 10_000_000, daGas: 1_000_000 };

/** Returns [selector, ...args] for a signature. */
export function calldataFor(signature: string, args: readonly bigint[] = []): bigint[] {
  return [BigInt(functionSelectorFromSignature(signature)), ...args];
}

/** A world with a memory source, a journal over it and a signature registry. */
export class World {
  readonly source = new MemoryStateSource();
  readonly host = new JournaledState(this.source);
  readonly signatures = new FunctionSignatureRegistry();

  /** Assembles and deploys `source` at `address`; registers its signatures. */
  deploy(address: bigint, source: string): void {
    const program = assemble(source);
    this.source.deploy(address, program.bytecode);
    this.signatures.registerFunctionSignatures(program.signatures);
  }

  /** Calls `signature` on `address`. */
  call(
    address: bigint,
    signature: string,
    args: readonly bigint[] = [],
    opts: { sender?: bigint; isStaticCall?: boolean; gasLimit?: Gas } = {},
  ): Promise<PublicCallResult> {
    return this.callRaw(address, calldataFor(signature, args), opts);
  }

  /** Calls `address` with raw calldata. */
  callRaw(
    address: bigint,
    calldata: readonly bigint[],
    opts: { sender?: bigint; isStaticCall?: boolean; gasLimit?: Gas } = {},
  ): Promise<PublicCallResult> {
    return executePublicCall({
      contractAddress: address,
      sender: opts.sender ?? 0xabcn,
      calldata,
      isStaticCall: opts.isStaticCall ?? false,
      gasLimit: opts.gasLimit ?? BIG_GAS,
      host: this.host,
      env: ENV,
      signatures: this.signatures,
    });
  }
}

/** Deploys a one-function program (`.fn main()` + body) and runs it. */
export async function runMain(
  body: string,
  args: readonly bigint[] = [],
  opts: { gasLimit?: Gas; isStaticCall?: boolean } = {},
): Promise<PublicCallResult & { world: World }> {
  const world = new World();
  world.deploy(0x100n, `.fn main()\n${body}`);
  const r = await world.call(0x100n, 'main()', args, opts);
  return { ...r, world };
}
