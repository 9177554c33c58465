/**
 * Public VM throughput: runs a loop-heavy function and prints instructions per second. A number
 * to watch, not an assertion. Run: node bench/public-vm.ts [iterations]
 * @module
 */
import { assemble } from '../src/impl/execution/assembler.ts';
import { executePublicCall } from '../src/impl/execution/interpreter.ts';
import { JournaledState } from '../src/impl/execution/journaled-state.ts';
import { MemoryStateSource } from '../src/impl/execution/memory-state-source.ts';
import { functionSelectorFromSignature } from '../src/impl/contracts/function-selector.ts';

const ITERATIONS = BigInt(process.argv[2] ?? 200_000);

// Sum of i·i for i = n..1, plus a memory round trip per iteration: 7 instructions per iteration.
const SOURCE = `
.fn spin(Field)
  SET m0, 1
  CALLDATALOAD m1, m0
  SET m2, 0
  SET m9, 100
loop:
  MUL m3, m1, m1
  ADD m2, m2, m3
  STORE m9, m2
  LOAD m4, m9
  LT m5, m0, m1
  SUB m1, m1, m0
  JUMPI m5, loop
  RETURN m2, 1
.fn store_loop(Field)
  SET m0, 1
  CALLDATALOAD m1, m0
loop2:
  SSTORE m1, m1
  SLOAD m2, m1
  SUB m1, m1, m0
  JUMPI m1, loop2
  RETURN m2, 1
`;

const program = assemble(SOURCE);
const source = new MemoryStateSource();
source.deploy(1n, program.bytecode);
const env = { chainId: 1n, version: 1n, blockNumber: 1, timestamp: 0n, gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n } };

async function measure(signature: string, n: bigint): Promise<void> {
  const host = new JournaledState(source);
  const started = process.hrtime.bigint();
  const r = await executePublicCall({
    contractAddress: 1n,
    sender: 0n,
    calldata: [BigInt(functionSelectorFromSignature(signature)), n],
    isStaticCall: false,
    gasLimit: { l2Gas: Number.MAX_SAFE_INTEGER, daGas: Number.MAX_SAFE_INTEGER },
    host,
    env,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.reverted) throw new Error(r.revert?.message);
  console.log(
    `${signature.padEnd(18)} n=${n}: ${r.instructions} instructions in ${seconds.toFixed(3)} s = ${Math.round(r.instructions / seconds).toLocaleString('en')} instr/s, ${r.gasUsed.l2Gas} L2 gas`,
  );
}

await measure('spin(Field)', ITERATIONS / 10n); // warm-up
await measure('spin(Field)', ITERATIONS);
await measure('store_loop(Field)', ITERATIONS / 20n);
