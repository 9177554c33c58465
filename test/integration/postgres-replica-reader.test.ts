/**
 * A reader on a Postgres hot-standby replica (docs/OPERATIONS.md, "Readers on replicas"): the
 * writer on the primary of scripts/postgres-start.sh, a `--role rpc` reader on the streaming
 * replica of scripts/postgres-replica-start.sh. Txs sent through the reader are never reported
 * dropped by it (read-your-writes) and end mined there; GET /status shows the replication lag, and
 * the reader is not ready while replay (paused on the replica) is more than --max-replication-lag-ms behind;
 * while the replica is down the reader answers NODE_NOT_READY (never -32603) and logs the outage
 * once, then serves again.
 * @module
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import knexFactory from 'knex';
import { freshPostgresDatabase, testDatabaseUrl } from '../unit/store/engines.ts';
import { chainFlags, NodeGroup, ok, rpc, txFor, waitFor } from './node-harness.ts';

const execFileAsync = promisify(execFile);
/** The reader's --max-replication-lag-ms. */
const MAX_LAG_MS = 3000;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REPLICA_DIR = fileURLToPath(new URL('../tmp/replica', import.meta.url));

/** Starts (or finds) the streaming replica of the test cluster; its URL (same role, database l2node). */
function replicaBaseUrl(): string {
  return execFileSync('bash', ['scripts/postgres-replica-start.sh'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, L2NODE_PG_REPLICA_DIR: REPLICA_DIR },
  }).trim();
}

/** Runs `sql` on the replica as its superuser (over its unix socket), as an operator would with psql. */
function onReplicaAsSuperuser(sql: string): string {
  const script =
    '. scripts/postgres-common.sh; . "$1/postgres-env"; as_owner "$PG_BINDIR/psql" -h "$PG_DATADIR" -p "$PG_PORT" -U postgres -d postgres -Atc "$2"';
  return execFileSync('bash', ['-c', script, 'psql', REPLICA_DIR, sql], { cwd: ROOT, encoding: 'utf8' }).trim();
}

/** The same database name on another server. */
function onServer(baseUrl: string, databaseUrl: string): string {
  const u = new URL(baseUrl);
  u.pathname = new URL(databaseUrl).pathname;
  return u.toString();
}

describe('a --role rpc reader on a streaming hot-standby replica', { timeout: 240_000 }, () => {
  it('txs sent through it are never reported dropped by it and end mined; /status shows the lag; an outage is NODE_NOT_READY, logged once', async () => {
    const primary = testDatabaseUrl();
    const replicaBase = replicaBaseUrl();
    const db = await freshPostgresDatabase(primary, 'l2node_replica');
    const replicaUrl = onServer(replicaBase, db.url);
    const nodes = new NodeGroup();
    try {
      const flags = chainFlags(Math.floor(Date.now() / 1000));
      const writer = await nodes.start(['--data-directory', '', '--database-url', db.url, ...flags]);
      // The writer created the chain on the primary; wait until the standby has replayed it.
      const standby = knexFactory({ client: 'pg', connection: replicaUrl, pool: { min: 0, max: 1 } });
      try {
        await waitFor('the chain replayed on the standby', async () =>
          (await standby('l2node_metadata')
            .where({ key: 'chain_params' })
            .first()
            .catch(() => undefined)) !== undefined
            ? true
            : undefined,
        );
        assert.equal(
          (await standby.raw('select pg_is_in_recovery() as r')).rows[0].r,
          true,
          'the reader database is a hot standby',
        );
      } finally {
        await standby.destroy();
      }
      const reader = await nodes.start([
        '--role',
        'rpc',
        '--data-directory',
        '',
        '--database-url',
        replicaUrl,
        '--writer-url',
        writer.publicUrl,
        '--max-replication-lag-ms',
        String(MAX_LAG_MS),
        ...flags,
      ]);

      // Read-your-writes: right after each send, and at every poll until mined, the reader never says dropped.
      const sent = [];
      for (let i = 0; i < 8; i++) {
        const tx = await txFor(reader.publicUrl, 0x1001n + BigInt(i % 3), 0x4e91_0000n + BigInt(i));
        assert.equal(await ok(reader.publicUrl, 'node_sendTx', tx.wire), null);
        const receipt = await ok(reader.publicUrl, 'node_getTxReceipt', tx.hash);
        assert.notEqual(
          receipt.status,
          'dropped',
          `right after node_sendTx through the reader: ${JSON.stringify(receipt)}`,
        );
        sent.push(tx);
      }
      for (const tx of sent) {
        await waitFor(`${tx.hash.slice(0, 10)} mined on the reader`, async () => {
          const r = await ok(reader.publicUrl, 'node_getTxReceipt', tx.hash);
          assert.notEqual(r.status, 'dropped', `the reader reported ${tx.hash} dropped: ${JSON.stringify(r)}`);
          return r.status === 'mined' ? true : undefined;
        });
        assert.deepEqual(
          await ok(reader.publicUrl, 'node_getTxReceipt', tx.hash),
          await ok(writer.publicUrl, 'node_getTxReceipt', tx.hash),
        );
      }

      const status = (await (await fetch(`${reader.publicUrl}/status`)).json()) as {
        status: string;
        replication?: { standby: boolean; lagMs: number; maxLagMs: number };
      };
      assert.equal(status.status, 'ok', JSON.stringify(status));
      assert.equal(status.replication?.standby, true, JSON.stringify(status));
      assert.equal(typeof status.replication?.lagMs, 'number');
      assert.equal(status.replication?.maxLagMs, MAX_LAG_MS);

      // Replay paused on the replica while the writer commits: the lag grows past the threshold, the reader is not ready (503); resumed, it is ready again.
      onReplicaAsSuperuser('select pg_wal_replay_pause()');
      try {
        const late = await txFor(writer.publicUrl, 0x1003n, 0x4e91_ffffn);
        assert.equal(await ok(writer.publicUrl, 'node_sendTx', late.wire), null);
        const behind = await waitFor(
          'the reader not ready behind its replica',
          async () => {
            const res = await fetch(`${reader.publicUrl}/status`);
            const body = (await res.json()) as { replication?: { lagMs: number } };
            return res.status === 503 ? body : undefined;
          },
          60_000,
        );
        assert.ok(behind.replication!.lagMs > MAX_LAG_MS, JSON.stringify(behind));
      } finally {
        onReplicaAsSuperuser('select pg_wal_replay_resume()');
      }
      await waitFor('the reader ready again once replay resumed', async () =>
        (await fetch(`${reader.publicUrl}/status`)).status === 200 ? true : undefined,
      );
      assert.equal(
        reader
          .stderr()
          .split('\n')
          .filter((l) => l.includes('replication lag above --max-replication-lag-ms')).length,
        1,
        'the lag state change is logged once',
      );

      // An outage of the reader's database: every answer meanwhile is a result or NODE_NOT_READY, and one log line says so.
      let restarted = false;
      const restart = execFileAsync('bash', ['scripts/postgres-restart.sh', '--down-ms', '3000'], {
        cwd: ROOT,
        env: { ...process.env, L2NODE_PG_STATE_DIR: REPLICA_DIR },
      }).finally(() => (restarted = true));
      const codes = new Set<number>();
      while (!restarted) {
        const r = await rpc(reader.publicUrl, 'node_getPendingTxCount');
        if (r.error !== undefined) codes.add(r.error.code);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await restart;
      assert.deepEqual([...codes], [-32002], 'during the outage the reader answered NODE_NOT_READY, nothing else');
      await waitFor('the reader serving again', async () =>
        (await rpc(reader.publicUrl, 'node_getPendingTxCount')).error === undefined ? true : undefined,
      );
      await waitFor('the reader ready again', async () =>
        (await fetch(`${reader.publicUrl}/status`)).status === 200 ? true : undefined,
      );
      const outageLines = reader
        .stderr()
        .split('\n')
        .filter((l) => l.includes('database is not reachable'));
      assert.equal(outageLines.length, 1, `the outage was logged ${outageLines.length} times`);
      assert.doesNotMatch(reader.stderr(), /"code":-32603|Internal error/);
    } finally {
      await nodes.stopAll();
      await db.drop();
    }
  });
});
