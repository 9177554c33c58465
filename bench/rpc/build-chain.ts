/**
 * Builds a data directory for the RPC and startup benchmarks with the engine itself (not through
 * the node, which has no way yet to build blocks faster than its slot clock): blocks of 8 txs,
 * each tx with 4 note hashes, 4 nullifiers and one private log whose first field is a tag
 * (`TAG_BASE + tx index`), on the engine's default genesis, driven by a manual clock, until the
 * time budget or the block limit. Prints one JSON line: {blocks, txs, ms}.
 *
 * Run: node bench/rpc/build-chain.ts <dataDirectory> <budgetMs> <maxBlocks>
 * @module
 */
import { ManualClock } from '../../src/impl/chain/time.ts';
import { createEngine, DEFAULT_ENGINE_CONFIG } from '../../src/impl/engine.ts';
import { InMemoryTxSource } from '../../src/impl/sequencer/tx-source.ts';
import type { MinableTx } from '../../src/impl/sequencer/tx-source.ts';

/** First tag written; tx i carries tag TAG_BASE + i. */
export const TAG_BASE = 0x7a90000n;
export const TXS_PER_BLOCK = 8;
const PAYER = 0x1001n;

/** The i-th tx of the bench chain. */
export function benchTx(i: number): MinableTx {
  const s = BigInt(i + 1) << 32n;
  return {
    txHash: 0xbe0000000000n + BigInt(i), feePayer: PAYER,
    gasSettings: { gasLimits: { daGas: 10_000, l2Gas: 1_000_000 }, teardownGasLimits: { daGas: 0, l2Gas: 0 }, maxFeesPerGas: { feePerDaGas: 10n ** 18n, feePerL2Gas: 10n ** 18n }, maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1n } },
    gasUsed: { daGas: 1000, l2Gas: 50_000 },
    noteHashes: Array.from({ length: 4 }, (_, k) => s + 0x100n + BigInt(k)),
    nullifiers: Array.from({ length: 4 }, (_, k) => s + 0x200n + BigInt(k)),
    l2ToL1Msgs: [], privateLogs: [{ fields: [TAG_BASE + BigInt(i), ...Array.from({ length: 15 }, (_, k) => s + BigInt(k))], emittedLength: 16 }],
    contractClassLogs: [], publicCallCount: 0,
  };
}

if (import.meta.main) {
  const [dir, budget, max] = [process.argv[2]!, Number(process.argv[3] ?? 30_000), Number(process.argv[4] ?? 1000)];
  const defaults = DEFAULT_ENGINE_CONFIG;
  const slotMs = defaults.slotDurationSeconds * 1000;
  const clock = new ManualClock(Number(defaults.genesisTime) * 1000);
  const txSource = new InMemoryTxSource();
  const engine = await createEngine({ dataDirectory: dir, clock, maxTxsPerBlock: TXS_PER_BLOCK, txSource });
  const t0 = performance.now();
  let i = 0;
  let blocks = await engine.chain.getBlockNumber();
  for (let guard = 0; guard < max * 4 && blocks < max && performance.now() - t0 < budget; guard++) {
    for (let k = 0; k < TXS_PER_BLOCK; k++) txSource.add(benchTx(i++));
    clock.advance(slotMs);
    await engine.tick();
    blocks = await engine.chain.getBlockNumber();
  }
  const ms = performance.now() - t0;
  await engine.stop();
  process.stdout.write(JSON.stringify({ blocks, txs: txSource.mined.size, ms }) + '\n');
  process.exit(0);
}
