/**
 * Storage engines side by side (prints figures, asserts nothing): the same N blocks applied to a
 * world state on SQLite (file, WAL) and on Postgres — whole block application (hashing, reads,
 * one write transaction) — then the captured write sets replayed alone through TreeRepository,
 * which isolates the database write rate (rows/s).
 * Postgres: L2NODE_TEST_DATABASE_URL, or the throw-away cluster (started when not running; bench/lib/postgres.ts).
 * Run: ./node_modules/.bin/node bench/storage-engines.ts [blocks=20] [txsPerBlock=4]
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { FIELD_MODULUS } from '../src/impl/crypto/field.ts';
import type { DatabaseOptions } from '../src/impl/store/database.ts';
import { openDatabase } from '../src/impl/store/database.ts';
import type { BlockWriteSet } from '../src/impl/store/tree-repository.ts';
import { TreeRepository } from '../src/impl/store/tree-repository.ts';
import { emptyBlockHeader } from '../src/impl/world-state/block-header.ts';
import type { BlockStateContext, WorldStateBlock } from '../src/impl/world-state/types.ts';
import { WorldState } from '../src/impl/world-state/world-state.ts';
import { benchPostgresUrl } from './lib/postgres.ts';

const BLOCKS = Number(process.argv[2] ?? 20);
const TXS = Number(process.argv[3] ?? 4);
const url = benchPostgresUrl();

let seed = 4242n;
const rnd = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % FIELD_MODULUS);
const header = (c: BlockStateContext) => {
  const h = emptyBlockHeader(c.state);
  return { ...h, lastArchive: c.lastArchive, globalVariables: { ...h.globalVariables, blockNumber: c.blockNumber } };
};
const blocks: WorldStateBlock[] = Array.from({ length: BLOCKS }, (_, i) => ({
  blockNumber: i + 1,
  txEffects: Array.from({ length: TXS }, () => ({
    noteHashes: Array.from({ length: 16 }, rnd),
    nullifiers: Array.from({ length: 16 }, rnd),
    publicDataWrites: Array.from({ length: 4 }, () => ({ leafSlot: rnd(), value: rnd() })),
  })),
  l1ToL2Messages: i % 4 === 0 ? [rnd(), rnd()] : undefined,
  header,
}));

const dir = mkdtempSync(join(tmpdir(), 'l2node-bench-'));
const engines: [string, () => DatabaseOptions][] = [
  ['sqlite (file, WAL)', () => ({ dataDirectory: mkdtempSync(join(dir, 'db-')) })],
  [
    'postgres',
    () => ({
      dataDirectory: '',
      databaseUrl: url,
      databaseSchema: `bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`,
    }),
  ],
];
const rows = (w: BlockWriteSet) =>
  w.nodes.length + w.treeStates.length + w.indexedLeaves.length + w.indexedKeys.length + w.leafValues.length + 1;
const dropSchema = async (db: Knex, o: DatabaseOptions) => {
  if (o.databaseSchema) await db.raw('drop schema ?? cascade', [o.databaseSchema]);
};

const captured: BlockWriteSet[] = [];
console.log(`${BLOCKS} blocks × ${TXS} txs (16 note hashes, 16 nullifiers, 4 public writes each)`);
for (const [name, opts] of engines) {
  const o = opts();
  const db = await openDatabase(o);
  const ws = await WorldState.open({ db });
  const repo = (ws as unknown as { repo: TreeRepository }).repo;
  const write = repo.writeBlock.bind(repo);
  let writeMs = 0;
  repo.writeBlock = async (trx, w) => {
    const t = performance.now();
    await write(trx, w);
    writeMs += performance.now() - t;
    if (captured.length < BLOCKS && name.startsWith('sqlite') && w.blockNumber > 0) captured.push(w);
  };
  const t = performance.now();
  for (const b of blocks) await ws.applyBlock(b);
  const ms = performance.now() - t;
  console.log(
    `applyBlock   ${name.padEnd(20)} ${(ms / BLOCKS).toFixed(1).padStart(7)} ms/block  ${((BLOCKS / ms) * 1000).toFixed(1).padStart(6)} blocks/s  (row inserts ${(writeMs / BLOCKS).toFixed(1)} ms/block)`,
  );
  await dropSchema(db, o);
  await db.destroy();
}

const total = captured.reduce((n, w) => n + rows(w), 0);
for (const [name, opts] of engines) {
  const o = opts();
  const db = await openDatabase(o);
  const repo = new TreeRepository(db);
  const t = performance.now();
  for (const w of captured) await db.transaction((trx) => repo.writeBlock(trx, w));
  const ms = performance.now() - t;
  console.log(
    `writes only  ${name.padEnd(20)} ${(ms / captured.length).toFixed(1).padStart(7)} ms/block  ${((total / ms) * 1000).toFixed(0).padStart(7)} rows/s  (${(total / captured.length).toFixed(0)} rows/block)`,
  );
  await dropSchema(db, o);
  await db.destroy();
}
rmSync(dir, { recursive: true, force: true });
