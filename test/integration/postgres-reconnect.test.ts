/**
 * A lost Postgres connection: the server restarts under an open database; health goes
 * `reconnecting` with the error, probes back to `connected` with backoff, work retried through
 * retryOnConnectionLoss completes, and the world state carries on from its last block. Runs its
 * own private cluster (scripts/postgres-start.sh with L2NODE_PG_STATE_DIR), so restarting it
 * cannot disturb other test files using the shared one.
 * @module
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseHealth, DatabaseState, openDatabase, retryOnConnectionLoss } from '../../src/impl/store/database.ts';
import { WorldState } from '../../src/impl/world-state/world-state.ts';
import { HOW_TO_START_POSTGRES } from '../unit/store/engines.ts';
import { headerFromState, tx } from '../unit/world-state/helpers.ts';

const scripts = fileURLToPath(new URL('../../scripts/', import.meta.url));
const stateDir = mkdtempSync(join(tmpdir(), 'l2node-pg-state-'));
const env = { ...process.env, L2NODE_PG_STATE_DIR: stateDir };
let url = '';

const script = (name: string, ...args: string[]) =>
  execFileSync('bash', [join(scripts, name), ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

before(() => {
  try {
    url = script('postgres-start.sh').trim();
  } catch (err) {
    throw new Error(
      `could not start a private Postgres cluster (${(err as { stderr?: string }).stderr ?? err}). ${HOW_TO_START_POSTGRES}`,
    );
  }
});
after(() => {
  script('postgres-stop.sh');
  rmSync(stateDir, { recursive: true, force: true });
});

const block = (n: number) => ({
  blockNumber: n,
  txEffects: [tx({ noteHashes: [BigInt(n)], nullifiers: [BigInt(1000 + n)] })],
  header: headerFromState,
});

describe('Postgres reconnect', () => {
  it('after a server restart: reconnecting with the last error, then connected; retried work and new blocks succeed', async () => {
    const db = await openDatabase({
      dataDirectory: '',
      databaseUrl: url,
      reconnect: { initialDelayMs: 50, maxDelayMs: 400 },
    });
    try {
      const ws = await WorldState.open({ db });
      await ws.applyBlock(block(1));
      const health = databaseHealth(db);
      assert.deepEqual(health.report(), { engine: 'postgres', state: 'connected', reconnectAttempts: 0 });

      // Stop the server for 1.5 s; a query in that window fails and the probe keeps failing.
      const restart = new Promise<void>((resolve, reject) => {
        import('node:child_process').then(({ execFile }) =>
          execFile('bash', [join(scripts, 'postgres-restart.sh'), '--down-ms', '1500'], { env }, (err) =>
            err ? reject(err) : resolve(),
          ),
        );
      });
      // Wait for the server to be down (pg_ctl stop can take longer than any fixed pause on a busy machine):
      // a query fails once it is.
      const down = Date.now() + 10_000;
      for (;;) {
        const failed = await db.raw('select 1').then(
          () => false,
          () => true,
        );
        if (failed) break;
        assert.ok(Date.now() < down, 'the server went down within 10 s');
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(health.state, DatabaseState.RECONNECTING);
      const lost = health.report();
      assert.ok(lost.lastError, 'last error reported');
      // The query that found it down meets the shutdown at some stage: a refused connect, the server's
      // termination notice, or a reset socket (seen when the query ran as the server went away).
      assert.match(lost.lastError.message, /ECONNREFUSED|ECONNRESET|terminat|shutting down|connect/i);

      // Work retried with backoff completes once the server is back.
      const started = Date.now();
      const n = await retryOnConnectionLoss(
        db,
        async () => Number((await db('ws_blocks').max('block_number as n').first())!.n),
        20_000,
      );
      assert.equal(n, 1);
      await restart;
      await health.whenConnected();
      assert.equal(health.state, DatabaseState.CONNECTED);
      assert.ok(Date.now() - started >= 300, 'the retry waited for the server');
      assert.equal((await ws.applyBlock(block(2))).blockNumber, 2);
      assert.ok(await ws.getNullifierMembershipWitness(2, 1002n));
      assert.equal(health.report().reconnectAttempts, 0);
    } finally {
      await db.destroy();
    }
  });

  it('opening keeps retrying a refused connection for connectRetryMs, then fails with the cause', async () => {
    const port = new URL(url).port;
    const dead = url.replace(`:${port}/`, ':1/');
    const t0 = Date.now();
    await assert.rejects(
      openDatabase({
        dataDirectory: '',
        databaseUrl: dead,
        connectRetryMs: 600,
        reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
      }),
      /ECONNREFUSED/,
    );
    assert.ok(Date.now() - t0 >= 600, 'kept retrying for connectRetryMs');
  });
});
