/**
 * The whole conformance suite against a Postgres-backed node (issue 13): this node started with
 * `--import-chain` on the conformance chain and `--database-url` on a fresh database of the
 * throw-away cluster, then the protocol suite and every fixture, with the same zero-failure rule
 * and the same not-implemented list as the SQLite run (conformance.test.ts), and the same
 * coverage matrix as the committed one.
 * Needs a server: `bash scripts/postgres-start.sh` (fails, saying so, without one).
 * @module
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import knexFactory from 'knex';
import type { Knex } from 'knex';
import { loadDocuments } from '../../src/conformance/documents.ts';
import { loadFixtures } from '../../src/conformance/fixtures.ts';
import { CHAIN_FILE } from '../../src/conformance/chain/paths.ts';
import { startNode } from '../../src/conformance/node-process.ts';
import type { StartedNode } from '../../src/conformance/node-process.ts';
import { buildCoverage, coverageDocument, limitCases } from '../../src/conformance/coverage.ts';
import type { CaseResult } from '../../src/conformance/results.ts';
import { runSuite } from '../../src/conformance/run.ts';
import { testDatabaseUrl } from '../unit/store/engines.ts';
import { assertNoUnknownFailures, assertNotImplementedList, assertProtocolPasses, LIMITS } from './expectations.ts';

const COVERAGE_FILE = fileURLToPath(new URL('../../docs/CONFORMANCE-COVERAGE.md', import.meta.url));
const docs = loadDocuments();

describe('conformance suite against this node on Postgres (--database-url)', { timeout: 150_000 }, () => {
  let admin: Knex | undefined;
  let database = '';
  let node: StartedNode | undefined;
  let results: CaseResult[];
  let tables = 0;
  before(async () => {
    const base = testDatabaseUrl(); // throws, saying how to start Postgres, when there is none
    database = `l2node_conformance_${process.pid}_${Date.now()}`;
    admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
    await admin.raw('create database ??', [database]);
    const url = new URL(base);
    url.pathname = `/${database}`;
    node = await startNode(['--import-chain', CHAIN_FILE, '--database-url', url.toString()]);
    results = await runSuite({ endpoints: node, docs, fixtures: loadFixtures(), ...LIMITS });
    // The node really kept its chain in that database.
    const db = knexFactory({ client: 'pg', connection: url.toString(), pool: { min: 0, max: 1 } });
    try {
      const rows = (await db.raw(
        "select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
      )) as { rows: { n: number }[] };
      tables = rows.rows[0]!.n;
    } finally {
      await db.destroy();
    }
  });
  after(async () => {
    await node?.stop();
    if (admin !== undefined) {
      await admin.raw('drop database if exists ?? with (force)', [database]).catch(() => undefined);
      await admin.destroy();
    }
  });

  it('the node stored the chain in the fresh Postgres database', () => assert.ok(tables > 5, `${tables} tables`));

  it('protocol suite: every case passes', () => assertProtocolPasses(results));

  it('fixtures: no failures except the known ones', () => assertNoUnknownFailures(results));

  it('not implemented: exactly the listed fixtures, each answered -32001, never passing', (t) =>
    assertNotImplementedList(results, t, 'Postgres'));

  it('the coverage matrix equals the committed one (the SQLite run)', () => {
    const fixtures = loadFixtures();
    const notImplemented = results.filter((r) => r.outcome === 'not-implemented').map((r) => r.path ?? r.name);
    const fresh = coverageDocument(
      buildCoverage(docs, fixtures, results),
      limitCases(fixtures, results),
      notImplemented,
    );
    assert.equal(fresh, readFileSync(COVERAGE_FILE, 'utf8'));
  });
});
