/**
 * Block-building benchmark (prints figures, asserts nothing): a full in-memory tx source drained
 * by the dev sequencer into applied blocks (trees + chain tables, one transaction per block), in
 * txs/s, with the wall time split into tree hashing (every `Hasher` call), storage (every knex
 * query, from its 'query' to its 'query-response' event) and the rest (tx selection, header,
 * sponge and L2→L1 hashes, JSON encoding, knex overhead).
 * Run: ./node_modules/.bin/node bench/block-building.ts [txs=512] [txsPerBlock=32] [dataDirectory='']
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultHasher, type Hasher } from '../src/impl/crypto/poseidon2.ts';
import { ManualClock } from '../src/impl/chain/time.ts';
import { createEngine } from '../src/impl/engine.ts';
import { InMemoryTxSource, type MinableTx } from '../src/impl/sequencer/tx-source.ts';

const TXS = Number(process.argv[2] ?? 512);
const PER_BLOCK = Number(process.argv[3] ?? 32);
const onDisk = process.argv[4] === 'disk';
const dir = onDisk ? mkdtempSync(join(tmpdir(), 'l2node-bench-')) : '';

let hashMs = 0;
let hashCalls = 0;
const timed =
  <A extends unknown[], R>(fn: (...a: A) => R) =>
  (...a: A): R => {
    const t = performance.now();
    try {
      return fn(...a);
    } finally {
      hashMs += performance.now() - t;
      hashCalls++;
    }
  };
const hasher: Hasher = {
  hashPair: timed((l: bigint, r: bigint) => defaultHasher.hashPair(l, r)),
  hash: timed((xs: readonly bigint[]) => defaultHasher.hash(xs)),
  hashPairs: timed((b: readonly (readonly [bigint, bigint])[]) => defaultHasher.hashPairs(b)),
};

const PAYER = 0x1001n;
const tx = (i: number): MinableTx => {
  const s = BigInt(i + 1) << 32n;
  return {
    txHash: 0xbe0000000000n + BigInt(i),
    feePayer: PAYER,
    gasSettings: {
      gasLimits: { daGas: 10_000, l2Gas: 1_000_000 },
      teardownGasLimits: { daGas: 0, l2Gas: 0 },
      maxFeesPerGas: { feePerDaGas: 10n ** 18n, feePerL2Gas: 10n ** 18n },
      maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1n },
    },
    gasUsed: { daGas: 1000, l2Gas: 50_000 },
    noteHashes: Array.from({ length: 4 }, (_, k) => s + 0x100n + BigInt(k)),
    nullifiers: Array.from({ length: 4 }, (_, k) => s + 0x200n + BigInt(k)),
    l2ToL1Msgs: [],
    privateLogs: [{ fields: Array.from({ length: 16 }, (_, k) => s + BigInt(k)), emittedLength: 16 }],
    contractClassLogs: [],
    publicCallCount: 0,
  };
};

const clock = new ManualClock(1_800_000_000_000);
const txSource = new InMemoryTxSource();
const engine = await createEngine({
  dataDirectory: dir,
  hasher,
  clock,
  genesisTime: 1_800_000_000n,
  slotDurationSeconds: 4,
  slotsPerEpoch: 32,
  maxTxsPerBlock: PER_BLOCK,
  fundedAccounts: [{ address: PAYER, amount: 10n ** 40n }],
  txSource,
});
let storageMs = 0;
let queries = 0;
const started = new Map<string, number>();
engine.db.on('query', (q: { __knexQueryUid: string }) => started.set(q.__knexQueryUid, performance.now()));
const done = (_r: unknown, q: { __knexQueryUid: string }) => {
  const t = started.get(q.__knexQueryUid);
  if (t !== undefined) {
    storageMs += performance.now() - t;
    queries++;
    started.delete(q.__knexQueryUid);
  }
};
engine.db.on('query-response', done);
engine.db.on('query-error', (_e: unknown, q: { __knexQueryUid: string }) => done(undefined, q));

for (let i = 0; i < TXS; i++) txSource.add(tx(i));
hashMs = 0;
hashCalls = 0;
const t0 = performance.now();
while (txSource.mined.size < TXS) {
  clock.advance(4000);
  await engine.tick();
}
const totalMs = performance.now() - t0;
const blocks = await engine.chain.getBlockNumber();
await engine.stop();
if (onDisk) rmSync(dir, { recursive: true, force: true });

const pct = (x: number) => `${((x / totalMs) * 100).toFixed(0)}%`;
console.log(
  `block building (${onDisk ? 'SQLite file' : 'in-memory SQLite'}): ${TXS} txs (4 note hashes, 4 nullifiers, 2 fee writes, 1 log each) in ${blocks} blocks of ≤${PER_BLOCK}`,
);
console.log(
  `  ${((TXS / totalMs) * 1000).toFixed(1)} txs/s, ${(totalMs / blocks).toFixed(1)} ms/block, total ${totalMs.toFixed(0)} ms`,
);
console.log(
  `  hashing ${hashMs.toFixed(0)} ms (${pct(hashMs)}, ${hashCalls} Hasher calls)  storage ${storageMs.toFixed(0)} ms (${pct(storageMs)}, ${queries} queries)  rest ${(totalMs - hashMs - storageMs).toFixed(0)} ms (${pct(totalMs - hashMs - storageMs)})`,
);
