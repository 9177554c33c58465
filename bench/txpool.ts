/**
 * Mempool benchmark: admission of N pre-built txs into a full-capacity pool (rules + one SQLite
 * transaction each, file database in WAL mode), then reads: a getPendingTxs page, the sequencer's
 * pendingTxsInPriorityOrder after a restart (decodes from stored JSON), and revalidation.
 * Prints a table and writes bench/out/txpool.json. Run: `node bench/txpool.ts` (BENCH_TXS=N).
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import { TxPool } from '../src/impl/txpool/tx-pool.ts';
import { FakeChain } from '../test/unit/txpool/helpers/fake-chain.ts';
import { buildTx } from '../test/unit/txpool/helpers/tx-builder.ts';

const N = Number(process.env.BENCH_TXS ?? 500);
const dir = mkdtempSync(join(tmpdir(), 'txpool-bench-'));
const file = join(dir, 'pool.sqlite');
const open = () => {
  const db = knexFactory({
    client: 'better-sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: { min: 1, max: 1 },
  });
  return db;
};
const chain = new FakeChain();
chain.balances.set(0x1001n, 10n ** 30n);

const built = Array.from({ length: N }, (_, i) =>
  buildTx({
    chainId: 31337n,
    version: 1n,
    feePayer: 0x1001n,
    gasLimits: { daGas: 1000, l2Gas: 1000 },
    maxFeeL2: BigInt(1 + (i % 97)),
    priorityFeeL2: BigInt(1 + (i % 97)),
    nullifiers: [BigInt(0x10000 + i)],
  }),
);
const results: Record<string, number> = {};
const time = async (name: string, per: number, fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  results[name] = (performance.now() - t) / per;
};

let db = open();
let pool = await TxPool.open({ db, chain, config: { maxPendingTxCount: N } });
await time('add (ms/tx)', N, async () => {
  for (const b of built) await pool.add(b.tx, b.wire);
});
await time('getPendingTxs(100) (ms)', 1, () => pool.getPendingTxs(100));
await time('revalidateAfterBlock (ms)', 1, () => pool.revalidateAfterBlock());
await db.destroy();
db = open();
await time('reopen (ms)', 1, async () => (pool = await TxPool.open({ db, chain, config: { maxPendingTxCount: N } })));
await time('pendingTxsInPriorityOrder(64) after restart (ms)', 1, () => pool.pendingTxsInPriorityOrder(64));
await db.destroy();
rmSync(dir, { recursive: true, force: true });

console.table(Object.fromEntries(Object.entries(results).map(([k, v]) => [k, { value: Number(v.toFixed(3)) }])));
const outDir = fileURLToPath(new URL('./out/', import.meta.url));
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'txpool.json'), JSON.stringify({ txs: N, results }, null, 2) + '\n');
