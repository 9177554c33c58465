/**
 * Logs by tag from the index vs an in-memory map (prints figures, asserts nothing): builds a chain
 * of ~10 000 private logs with the engine (blocks of 8 txs × 16 logs, one tag per log), then times
 * `chain.getLogsByTags` for 1000 tags — the SPEC §8 maximum (500 present, 500 absent, 10 logs per tag at most) against a
 * lookup of the same tags in a Map built from every block's logs, answering the same objects.
 *
 * Run: ./node_modules/.bin/node bench/log-tags.ts [logs] [dataDirectory]
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../src/impl/chain/time.ts';
import type { TxScopedL2Log } from '../src/impl/chain/types.ts';
import { createEngine, DEFAULT_ENGINE_CONFIG } from '../src/impl/engine.ts';
import { InMemoryTxSource } from '../src/impl/sequencer/tx-source.ts';
import { benchTx } from './rpc/build-chain.ts';

const LOGS_PER_TX = 16;
const TXS_PER_BLOCK = 8;
const TAG_BASE = 0x7b0000n;
const wanted = Number(process.argv[2] ?? 10_000);
const dir = process.argv[3] ?? mkdtempSync(join(tmpdir(), 'bench-log-tags-'));

const clock = new ManualClock(Number(DEFAULT_ENGINE_CONFIG.genesisTime) * 1000);
const txSource = new InMemoryTxSource();
const engine = await createEngine({ dataDirectory: dir, clock, maxTxsPerBlock: TXS_PER_BLOCK, txSource });
const t0 = performance.now();
let txs = 0;
while (txs * LOGS_PER_TX < wanted) {
  for (let k = 0; k < TXS_PER_BLOCK; k++, txs++) {
    const base = benchTx(txs);
    const fields = base.privateLogs[0]!.fields.slice(1);
    const privateLogs = Array.from({ length: LOGS_PER_TX }, (_, j) => ({
      fields: [TAG_BASE + BigInt(txs * LOGS_PER_TX + j), ...fields],
      emittedLength: 16,
    }));
    txSource.add({ ...base, privateLogs });
  }
  clock.advance(DEFAULT_ENGINE_CONFIG.slotDurationSeconds * 1000);
  await engine.tick();
}
const blocks = await engine.chain.getBlockNumber();
const logs = txs * LOGS_PER_TX;
console.log(
  `chain: ${blocks} blocks, ${logs} private logs, built in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

// The in-memory baseline: tag → logs (oldest first), the shape getLogsByTags answers.
const byTag = new Map<bigint, TxScopedL2Log[]>();
for (let n = 1; n <= blocks; n++) {
  const b = (await engine.chain.findBlock(n))!;
  for (const e of b.body.txEffects) {
    for (const l of e.privateLogs) {
      const entry: TxScopedL2Log = {
        txHash: e.txHash,
        blockNumber: n,
        blockTimestamp: b.header.globalVariables.timestamp,
        logData: l.fields,
        noteHashes: e.noteHashes,
        firstNullifier: e.nullifiers[0] ?? 0n,
      };
      const list = byTag.get(l.fields[0]!);
      if (list) list.push(entry);
      else byTag.set(l.fields[0]!, [entry]);
    }
  }
}
// Issue 6: 1000 tags (SPEC §8's maximum per call) on a chain of ~10 000 logs.
const TAG_COUNT = 1000;
const tags = Array.from(
  { length: TAG_COUNT },
  (_, i) => TAG_BASE + BigInt(Math.floor((i * logs) / TAG_COUNT)) + (i % 2 === 0 ? 0n : 1n << 40n),
);
const fromMap = () => tags.map((t) => (byTag.get(t) ?? []).slice(0, 10));
const fromIndex = () => engine.chain.getLogsByTags(tags, 10);

const got = await fromIndex();
const want = fromMap();
const same =
  JSON.stringify(got, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) ===
  JSON.stringify(want, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
if (!same) throw new Error('getLogsByTags and the in-memory map disagree');

const rounds = 7;
const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
const time = async (fn: () => unknown, n: number) => {
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - t) / n;
};
await time(fromIndex, 20);
await time(fromMap, 200);
const indexMs: number[] = [];
const mapMs: number[] = [];
for (let r = 0; r < rounds; r++) {
  indexMs.push(await time(fromIndex, 20));
  mapMs.push(await time(fromMap, 2000));
}
console.log(
  `logs by ${TAG_COUNT} tags on ${logs} logs: index ${median(indexMs).toFixed(3)} ms, in-memory map ${median(mapMs).toFixed(4)} ms (median of ${rounds} rounds)`,
);
await engine.stop();
if (process.argv[3] === undefined) rmSync(dir, { recursive: true, force: true });
process.exit(0);
