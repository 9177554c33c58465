/**
 * The Postgres a benchmark runs against: `L2NODE_TEST_DATABASE_URL` when set, otherwise the
 * throw-away cluster of scripts/postgres-start.sh, started if it is not running (the script is
 * idempotent and prints the URL last). `scripts/postgres-stop.sh` stops it.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function benchPostgresUrl(): string {
  const given = process.env.L2NODE_TEST_DATABASE_URL;
  if (given !== undefined && given !== '') return given;
  const started = spawnSync('bash', ['scripts/postgres-start.sh'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  if (started.status !== 0)
    throw new Error(`scripts/postgres-start.sh failed: ${(started.stderr ?? started.error?.message ?? '').trim()}`);
  return started.stdout.trim().split('\n').pop()!;
}
