/**
 * Issue #12 reproduction: opens an engine on a data directory (or in memory) and builds N empty
 * blocks, printing one JSON line every `every` blocks with process.memoryUsage(), the resident set's
 * anonymous / file-backed split, the Poseidon2 wasm kernel's memory and SQLite's own memory
 * (better-sqlite3 has no status call, so page-cache size is read via PRAGMA).
 *
 * Run: node [--expose-gc] bench/memory-blocks.ts <dataDirectory|:memory:> [blocks=3000] [every=500] [snapshotAt=]
 * `snapshotAt` is a comma list of block counts at which to write v8 heap snapshots into /tmp.
 * @module
 */
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { ManualClock } from '../src/impl/chain/time.ts';
import { createEngine, DEFAULT_ENGINE_CONFIG } from '../src/impl/engine.ts';
import { wasmMemoryBytes } from '../src/impl/crypto/poseidon2-wasm.ts';

const MB = 1024 * 1024;

function smaps(): { anon: number; file: number; brk: number } {
  const text = readFileSync('/proc/self/smaps_rollup', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN) * 1024;
  // The brk heap is glibc malloc's main arena: native allocations (SQLite, V8 internals), not JS objects.
  const full = readFileSync('/proc/self/smaps', 'utf8');
  const heap = /\[heap\]\n(?:.*\n)*?Rss:\s+(\d+) kB/.exec(full);
  return { anon: kb('Anonymous'), file: kb('Rss') - kb('Anonymous'), brk: Number(heap?.[1] ?? 0) * 1024 };
}

if (import.meta.main) {
  const dir = process.argv[2] ?? ':memory:';
  const total = Number(process.argv[3] ?? 3000);
  const every = Number(process.argv[4] ?? 500);
  const snapshotAt = new Set((process.argv[5] ?? '').split(',').filter(Boolean).map(Number));
  const clock = new ManualClock(Number(DEFAULT_ENGINE_CONFIG.genesisTime) * 1000);
  const engine = await createEngine({ dataDirectory: dir, clock, buildEmptyBlocks: true });
  const tipMs = Number((await engine.chain.findBlock('latest'))!.header.globalVariables.timestamp) * 1000;
  if (tipMs > clock.nowMs()) clock.set(tipMs);
  const gc = (globalThis as { gc?: () => void }).gc;
  const slotMs = engine.config.slotDurationSeconds * 1000;
  const start = await engine.chain.getBlockNumber();
  const print = async (built: number) => {
    gc?.();
    const m = process.memoryUsage();
    const s = smaps();
    const pragma = async (p: string) => ((await engine.db.raw(`PRAGMA ${p}`)) as Record<string, unknown>[])[0];
    const row = {
      built,
      block: await engine.chain.getBlockNumber(),
      rss: +(m.rss / MB).toFixed(1),
      heapTotal: +(m.heapTotal / MB).toFixed(1),
      heapUsed: +(m.heapUsed / MB).toFixed(1),
      external: +(m.external / MB).toFixed(1),
      arrayBuffers: +(m.arrayBuffers / MB).toFixed(1),
      anon: +(s.anon / MB).toFixed(1),
      file: +(s.file / MB).toFixed(1),
      brk: +(s.brk / MB).toFixed(1),
      wasm: +(wasmMemoryBytes() / MB).toFixed(1),
      cacheSize: pragma('cache_size').then((r) => r && Object.values(r)[0]),
      mmap: pragma('mmap_size').then((r) => r && Object.values(r)[0]),
    };
    // Committed size per V8 space (MB), to tell which space holds the reserved heap.
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics()
        .filter((x) => x.space_size > MB)
        .map((x) => [x.space_name.replace('_space', ''), +(x.space_size / MB).toFixed(1)]),
    );
    const resolved = { ...row, spaces, cacheSize: await row.cacheSize, mmap: await row.mmap };
    process.stdout.write(JSON.stringify(resolved) + '\n');
    if (snapshotAt.has(built))
      process.stderr.write(`snapshot ${writeHeapSnapshot(`/tmp/mem-${built}.heapsnapshot`)}\n`);
  };
  await print(0);
  for (let built = 1; built <= total; built++) {
    clock.advance(slotMs);
    await engine.tick();
    if (built % every === 0) await print(built);
  }
  await engine.stop();
  process.exit(0);
}
