/**
 * Baseline for the mempool admission figure: N inserts of the same wire JSON bench/txpool.ts
 * admits, one knex transaction per row, into a SQLite file opened exactly as bench/txpool.ts opens
 * its pool (no rules, no indexes but the key). Prints one JSON line {txs, bytes, perSecond}.
 * Run: node bench/raw-insert.ts [txs=500]
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { buildTx } from '../test/unit/txpool/helpers/tx-builder.ts';

const N = Number(process.argv[2] ?? 500);
const dir = mkdtempSync(join(tmpdir(), 'raw-insert-bench-'));
const db = knexFactory({
  client: 'better-sqlite3',
  connection: { filename: join(dir, 'raw.sqlite') },
  useNullAsDefault: true,
  pool: { min: 1, max: 1 },
});
try {
  const rows = Array.from({ length: N }, (_, i) => {
    const b = buildTx({
      chainId: 31337n,
      version: 1n,
      feePayer: 0x1001n,
      gasLimits: { daGas: 1000, l2Gas: 1000 },
      maxFeeL2: BigInt(1 + (i % 97)),
      priorityFeeL2: BigInt(1 + (i % 97)),
      nullifiers: [BigInt(0x10000 + i)],
    });
    return { hash: `h${i}`, wire: JSON.stringify(b.wire) };
  });
  await db.schema.createTable('raw_txs', (t) => {
    t.string('hash').primary();
    t.text('wire').notNullable();
  });
  const t0 = performance.now();
  for (const row of rows) await db.transaction((trx) => trx('raw_txs').insert(row));
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ txs: N, bytes: rows[0]!.wire.length, perSecond: (N * 1000) / ms }) + '\n');
} finally {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
}
