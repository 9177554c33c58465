/**
 * Builds a data directory for the RPC, memory and startup benchmarks with the engine itself (not
 * through the node, which has no way yet to build blocks faster than its slot clock), on the
 * engine's default genesis, driven by a manual clock:
 * - a head of up to `headBlocks` blocks of 8 txs, each tx with 4 note hashes, 4 nullifiers and one
 *   private log whose first field is a tag (`TAG_BASE + tx index`), within `budgetMs`; the RPC
 *   figures read these blocks;
 * - then a tail of small blocks until the chain holds `totalBlocks`: `tailTxsPerBlock` txs per
 *   block (each tx 1 note hash, 1 nullifier, no logs), or empty blocks when it is 0 — cheap to
 *   build, so a 10 000-block directory costs seconds per thousand blocks rather than minutes.
 * Prints one JSON line: {blocks, headBlocks, txs, headMs, tailMs, ms, openRssBytes, rssBytes, heapUsedBytes,
 * heapTotalBytes, externalBytes, anonBytes, fileBytes}: this process's resident set once the engine
 * is open (before building) and after building with the engine still open, with the V8 heap and
 * external parts of the latter (after a full collection when --expose-gc is given) and its
 * anonymous / file-backed split, to tell retained JS objects from native memory.
 *
 * Run: node bench/rpc/build-chain.ts <dataDirectory> <budgetMs> <headBlocks> [totalBlocks=headBlocks] [tailTxsPerBlock=1]
 * @module
 */
import { readFileSync } from 'node:fs';
import { ensureNodeRuntime } from '../../src/config/node-runtime.ts';
import { ManualClock } from '../../src/impl/chain/time.ts';
import type { Engine } from '../../src/impl/engine.ts';
import { createEngine, DEFAULT_ENGINE_CONFIG } from '../../src/impl/engine.ts';
import type { MinableTx } from '../../src/impl/sequencer/tx-source.ts';
import { InMemoryTxSource } from '../../src/impl/sequencer/tx-source.ts';

/** First tag written; tx i carries tag TAG_BASE + i. */
export const TAG_BASE = 0x7a90000n;

/** 100 tags for node_getLogsByTags over a chain of `txs` txs: 50 the chain carries, spread over it, and 50 it does not. */
export function logTagParams(txs: number): string[] {
  return Array.from(
    { length: 100 },
    (_, i) =>
      '0x' +
      (TAG_BASE + BigInt(Math.floor((i * Math.max(1, txs)) / 100) + (i % 2 === 0 ? 0 : 1_000_000)))
        .toString(16)
        .padStart(64, '0'),
  );
}
export const TXS_PER_BLOCK = 8;
const PAYER = 0x1001n;
const GAS_SETTINGS: MinableTx['gasSettings'] = {
  gasLimits: { daGas: 10_000, l2Gas: 1_000_000 },
  teardownGasLimits: { daGas: 0, l2Gas: 0 },
  maxFeesPerGas: { feePerDaGas: 10n ** 18n, feePerL2Gas: 10n ** 18n },
  maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1n },
};

/** The i-th tx of the bench chain's head. */
export function benchTx(i: number): MinableTx {
  const s = BigInt(i + 1) << 32n;
  return {
    txHash: 0xbe0000000000n + BigInt(i),
    feePayer: PAYER,
    gasSettings: GAS_SETTINGS,
    gasUsed: { daGas: 1000, l2Gas: 50_000 },
    noteHashes: Array.from({ length: 4 }, (_, k) => s + 0x100n + BigInt(k)),
    nullifiers: Array.from({ length: 4 }, (_, k) => s + 0x200n + BigInt(k)),
    l2ToL1Msgs: [],
    privateLogs: [
      { fields: [TAG_BASE + BigInt(i), ...Array.from({ length: 15 }, (_, k) => s + BigInt(k))], emittedLength: 16 },
    ],
    contractClassLogs: [],
    publicCallCount: 0,
  };
}

/** The i-th small tx of the tail: one note hash, one nullifier (distinct from the head's). */
export function tailTx(i: number): MinableTx {
  const s = (BigInt(i + 1) << 32n) | (1n << 120n);
  return {
    txHash: 0xbf0000000000n + BigInt(i),
    feePayer: PAYER,
    gasSettings: GAS_SETTINGS,
    gasUsed: { daGas: 100, l2Gas: 10_000 },
    noteHashes: [s + 1n],
    nullifiers: [s + 2n],
    l2ToL1Msgs: [],
    privateLogs: [],
    contractClassLogs: [],
    publicCallCount: 0,
  };
}

/** Ticks one slot at a time, feeding `perBlock` txs from `next` before each, until `until` says stop. */
async function buildBlocks(
  engine: Engine,
  clock: ManualClock,
  txSource: InMemoryTxSource,
  perBlock: number,
  next: () => MinableTx,
  until: (blocks: number) => boolean,
): Promise<number> {
  const slotMs = engine.config.slotDurationSeconds * 1000;
  let blocks = await engine.chain.getBlockNumber();
  while (!until(blocks)) {
    for (let k = 0; k < perBlock; k++) txSource.add(next());
    clock.advance(slotMs);
    await engine.tick();
    const after = await engine.chain.getBlockNumber();
    if (after === blocks && perBlock > 0) throw new Error(`no block built at ${blocks}`);
    blocks = after;
  }
  return blocks;
}

/** Anonymous and file-backed parts of this process's resident set (/proc/self/smaps_rollup), in bytes. */
function residentSplit(): { anonBytes?: number; fileBytes?: number } {
  try {
    const text = readFileSync('/proc/self/smaps_rollup', 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN) * 1024;
    return { anonBytes: kb('Anonymous'), fileBytes: kb('Rss') - kb('Anonymous') };
  } catch {
    return {};
  }
}

if (import.meta.main) {
  // An engine process runs as the node does (young generation bound, malloc arenas), so the memory
  // figure measures what a node building or importing blocks in a burst holds.
  ensureNodeRuntime();
  const dir = process.argv[2]!;
  const budget = Number(process.argv[3] ?? 30_000);
  const head = Number(process.argv[4] ?? 1000);
  const total = Math.max(head, Number(process.argv[5] ?? head));
  const tailPerBlock = Number(process.argv[6] ?? 1);
  const clock = new ManualClock(Number(DEFAULT_ENGINE_CONFIG.genesisTime) * 1000);
  const txSource = new InMemoryTxSource();
  // On an existing directory the clock resumes at the tip's time, so every tick is a new slot.
  const open = async (emptyBlocks: boolean) => {
    const e = await createEngine({
      dataDirectory: dir,
      clock,
      maxTxsPerBlock: TXS_PER_BLOCK,
      txSource,
      buildEmptyBlocks: emptyBlocks,
    });
    const tipMs = Number((await e.chain.findBlock('latest'))!.header.globalVariables.timestamp) * 1000;
    if (tipMs > clock.nowMs()) clock.set(tipMs);
    return e;
  };
  let engine = await open(false);
  const openRssBytes = process.memoryUsage().rss;
  const t0 = performance.now();
  let i = 0;
  const headBlocks = await buildBlocks(
    engine,
    clock,
    txSource,
    TXS_PER_BLOCK,
    () => benchTx(i++),
    (b) => b >= head || performance.now() - t0 >= budget,
  );
  const headMs = performance.now() - t0;
  if (tailPerBlock === 0 && total > headBlocks) {
    await engine.stop();
    engine = await open(true);
  }
  let j = 0;
  const blocks = await buildBlocks(
    engine,
    clock,
    txSource,
    tailPerBlock,
    () => tailTx(j++),
    (b) => b >= total,
  );
  const ms = performance.now() - t0;
  (globalThis as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  const rollup = residentSplit();
  await engine.stop();
  process.stdout.write(
    JSON.stringify({
      blocks,
      headBlocks,
      txs: txSource.mined.size,
      headMs,
      tailMs: ms - headMs,
      ms,
      openRssBytes,
      rssBytes: mem.rss,
      heapUsedBytes: mem.heapUsed,
      heapTotalBytes: mem.heapTotal,
      externalBytes: mem.external,
      ...rollup,
    }) + '\n',
  );
  process.exit(0);
}
