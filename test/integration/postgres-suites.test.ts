/**
 * Runs the storage-level suites that open their database through test/unit/store/engines.ts —
 * world state (trees, history, rollback, vectors) and the mempool (repository, persistence,
 * restart, reads, rules) — again on Postgres, in a child `node --test` with
 * L2NODE_TEST_ENGINE=postgres. The same files run on SQLite in the normal test run.
 * @module
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { testDatabaseUrl } from '../unit/store/engines.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SUITES = [
  'test/unit/world-state/**/*.test.ts',
  'test/unit/txpool/**/*.test.ts',
  'test/integration/txpool-*.test.ts',
];

it('the world-state and mempool suites pass on Postgres', { timeout: 300_000 }, async () => {
  const url = testDatabaseUrl();
  // Without NODE_TEST_CONTEXT: set by our own runner, it would make the child report to it instead of running.
  const { NODE_TEST_CONTEXT: _ctx, ...env } = process.env;
  const child = spawn(process.execPath, ['--test', '--test-reporter=tap', '--test-concurrency=2', ...SUITES], {
    cwd: ROOT,
    env: { ...env, L2NODE_TEST_ENGINE: 'postgres', L2NODE_TEST_DATABASE_URL: url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const count = (name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(out)?.[1] ?? -1);
  assert.equal(
    code,
    0,
    `suites failed on Postgres:\n${out
      .split('\n')
      .filter((l) => /^\s*not ok|Error|assert/i.test(l))
      .slice(0, 60)
      .join('\n')}`,
  );
  assert.equal(count('fail'), 0);
  assert.ok(count('pass') >= 90, `expected the full suites to run, got pass ${count('pass')}`);
});
