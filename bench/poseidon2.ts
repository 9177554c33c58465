/**
 * Poseidon2 benchmark: the WebAssembly kernel (the SIMD variant this engine runs, and its scalar
 * fallback) against the BigInt reference and @zkpassport/poseidon2 in the same process, interleaved
 * round by round so that machine noise hits all of them alike.
 * Reports medians of ROUNDS timed rounds after a warm-up, prints a table and writes
 * bench/out/poseidon2.json. Run: `node bench/poseidon2.ts` (or `npm run bench`).
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { poseidon2Hash as zkpHash } from '@zkpassport/poseidon2';
import * as fast from '../src/impl/crypto/poseidon2-wasm.ts';

import { poseidon2HashReference as refHash } from '../src/impl/crypto/poseidon2.ts';
import { FIELD_MODULUS as P } from '../src/impl/crypto/field.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** Minimum wall time of one timed round, per case. */
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 300);

let seed = 0x1234567n;
function field(): bigint {
  seed = (seed * 0x5851f42d4c957f2dn + 0x14057b7ef767814fn) % P;
  return (seed * seed + 7n) % P;
}
const lefts = Array.from({ length: 4096 }, field);
const rights = Array.from({ length: 4096 }, field);
const long3000 = Array.from({ length: 3000 }, field);
const out: bigint[] = [];
const scalar = fast.createFastPoseidon2('scalar');
let sink = 0n;

interface Case {
  name: string;
  unit: string;
  /** Runs `ops` units of work once per call and returns how many it did. */
  run(): number;
}

let k = 0;
const pair = (f: (l: bigint, r: bigint) => bigint) => (): number => {
  const i = k++ & 4095;
  sink ^= f(lefts[i]!, rights[i]!);
  return 1;
};

const cases: Case[] = [
  { name: 'hashPair: wasm kernel', unit: 'hashes/s', run: pair(fast.hashPair) },
  { name: 'hashPair: wasm kernel, scalar fallback', unit: 'hashes/s', run: pair(scalar.hashPair) },
  { name: 'hashPair: BigInt reference', unit: 'hashes/s', run: pair((l, r) => refHash([l, r])) },
  { name: 'hashPair: @zkpassport/poseidon2', unit: 'hashes/s', run: pair((l, r) => zkpHash([l, r])) },
  {
    name: 'hashPairs(4096 batch): wasm kernel',
    unit: 'hashes/s',
    run: () => (fast.hashPairs(lefts, rights, out), lefts.length),
  },
  { name: 'hash(3000 fields): wasm kernel', unit: 'hashes/s', run: () => ((sink ^= fast.poseidon2Hash(long3000)), 1) },
  {
    name: 'hash(3000 fields): wasm kernel, scalar fallback',
    unit: 'hashes/s',
    run: () => ((sink ^= scalar.poseidon2Hash(long3000)), 1),
  },
  { name: 'hash(3000 fields): BigInt reference', unit: 'hashes/s', run: () => ((sink ^= refHash(long3000)), 1) },
  { name: 'hash(3000 fields): @zkpassport/poseidon2', unit: 'hashes/s', run: () => ((sink ^= zkpHash(long3000)), 1) },
];

function timeRound(c: Case, ms: number): number {
  let ops = 0;
  const t0 = performance.now();
  let t = t0;
  do {
    ops += c.run();
    t = performance.now();
  } while (t - t0 < ms);
  return (ops * 1000) / (t - t0);
}

/** One decimal: the 3000-field cases run at tens per second. */
const round1 = (x: number): number => Math.round(x * 10) / 10;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
};

for (const c of cases) timeRound(c, 200); // warm-up: JIT tiers and the wasm tier-up
const samples = new Map(cases.map((c) => [c.name, [] as number[]]));
for (let r = 0; r < ROUNDS; r++) for (const c of cases) samples.get(c.name)!.push(timeRound(c, ROUND_MS));

const results = cases.map((c) => {
  const xs = samples.get(c.name)!;
  return {
    name: c.name,
    unit: c.unit,
    median: round1(median(xs)),
    min: round1(Math.min(...xs)),
    max: round1(Math.max(...xs)),
  };
});
const by = (name: string): number => results.find((r) => r.name === name)!.median;
const ratios = {
  pairVsReference: by('hashPair: wasm kernel') / by('hashPair: BigInt reference'),
  pairVsZkpassport: by('hashPair: wasm kernel') / by('hashPair: @zkpassport/poseidon2'),
  longVsReference: by('hash(3000 fields): wasm kernel') / by('hash(3000 fields): BigInt reference'),
  longVsZkpassport: by('hash(3000 fields): wasm kernel') / by('hash(3000 fields): @zkpassport/poseidon2'),
  longVsScalarFallback: by('hash(3000 fields): wasm kernel') / by('hash(3000 fields): wasm kernel, scalar fallback'),
};

console.log(`Poseidon2 (BN254, t=4), median of ${ROUNDS} rounds of ≥${ROUND_MS} ms, node ${process.version}`);
console.log('| case | median | min | max |');
console.log('|---|---:|---:|---:|');
for (const r of results)
  console.log(
    `| ${r.name} | ${r.median.toLocaleString('en')} ${r.unit} | ${r.min.toLocaleString('en')} | ${r.max.toLocaleString('en')} |`,
  );
console.log(
  Object.entries(ratios)
    .map(([n, v]) => `${n} ×${v.toFixed(1)}`)
    .join(', '),
);

const outDir = fileURLToPath(new URL('./out/', import.meta.url));
mkdirSync(outDir, { recursive: true });
writeFileSync(
  outDir + 'poseidon2.json',
  JSON.stringify(
    {
      bench: 'poseidon2',
      date: new Date().toISOString(),
      node: process.version,
      rounds: ROUNDS,
      roundMs: ROUND_MS,
      results,
      ratios,
      sink: sink.toString(16).slice(0, 8),
    },
    null,
    2,
  ) + '\n',
);
console.log('wrote bench/out/poseidon2.json');
