/**
 * The conformance suite against this node: the protocol suite and every fixture, zero failures
 * except the listed known ones; cases whose method answers -32001 today are counted and listed as
 * not implemented, never as passing. A test double that alters one field must make the runner fail
 * with a readable diff.
 * @module
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadDocuments } from '../../src/conformance/documents.ts';
import { filterFixtures, loadFixtures } from '../../src/conformance/fixtures.ts';
import { postJson } from '../../src/conformance/http.ts';
import { CHAIN_FILE } from '../../src/conformance/chain/paths.ts';
import { startNode } from '../../src/conformance/node-process.ts';
import type { StartedNode } from '../../src/conformance/node-process.ts';
import { renderReport } from '../../src/conformance/reports.ts';
import { buildCoverage, coverageDocument, limitCases } from '../../src/conformance/coverage.ts';
import type { CaseResult } from '../../src/conformance/results.ts';
import { runSuite } from '../../src/conformance/run.ts';
import { assertNoUnknownFailures, assertNotImplementedList, assertProtocolPasses, LIMITS } from './expectations.ts';

/** Where the integration run leaves its HTML report (git-ignored). */
const REPORT_FILE = fileURLToPath(new URL('../../test-results/conformance/report.html', import.meta.url));
/** The committed coverage matrix (npm run conformance:coverage). */
const COVERAGE_FILE = fileURLToPath(new URL('../../docs/CONFORMANCE-COVERAGE.md', import.meta.url));

const docs = loadDocuments();
const limits = LIMITS;

describe('conformance suite against this node', () => {
  let node: StartedNode;
  let results: CaseResult[];
  before(async () => {
    node = await startNode(['--import-chain', CHAIN_FILE]);
    results = await runSuite({ endpoints: node, docs, fixtures: loadFixtures(), ...limits });
  });
  after(() => node.stop());

  it('protocol suite: every case passes', () => assertProtocolPasses(results));

  it('fixtures: no failures except the known ones', () => assertNoUnknownFailures(results));

  it('not implemented: exactly the listed fixtures, each answered -32001, never passing', (t) => {
    assertNotImplementedList(results, t, 'SQLite');
    const missing = results.filter((r) => r.outcome === 'not-implemented');
    const report = JSON.parse(
      renderReport(
        {
          target: { publicUrl: node.publicUrl, adminUrl: node.adminUrl },
          results,
          coverage: buildCoverage(docs, loadFixtures(), results),
        },
        'json',
      ),
    ) as { notImplemented: string[]; summary: { notImplemented: number } };
    assert.equal(report.summary.notImplemented, missing.length);
    assert.deepEqual(
      report.notImplemented,
      missing.map((r) => r.path),
    );
  });

  it('writes the HTML report and matches the committed coverage matrix', () => {
    const fixtures = loadFixtures();
    const coverage = buildCoverage(docs, fixtures, results);
    mkdirSync(dirname(REPORT_FILE), { recursive: true });
    writeFileSync(
      REPORT_FILE,
      renderReport({ target: { publicUrl: node.publicUrl, adminUrl: node.adminUrl }, results, coverage }, 'html'),
    );
    const notImplemented = results.filter((r) => r.outcome === 'not-implemented').map((r) => r.path ?? r.name);
    const fresh = coverageDocument(coverage, limitCases(fixtures, results), notImplemented);
    assert.equal(
      readFileSync(COVERAGE_FILE, 'utf8'),
      fresh,
      'docs/CONFORMANCE-COVERAGE.md is stale: run npm run conformance:coverage',
    );
    const limits = limitCases(fixtures, results);
    assert.ok(limits.some((l) => l.side === 'inside') && limits.some((l) => l.side === 'outside'));
    assert.deepEqual(
      limits.filter((l) => l.state !== 'pass'),
      [],
      'every limit case passes',
    );
  });

  it('recorded fixtures on the chain pass by value', () => {
    for (const path of [
      'public/node_getL2Tips/chain.io',
      'public/node_getBlock/block-1.io',
      'public/node_sendTx/rejected-low-priority-fee.io',
      'public/node_sendTx/accepted.io',
    ]) {
      const r = results.find((x) => x.path === path);
      assert.equal(r?.outcome, 'pass', path);
      assert.equal(r?.mode, 'value', path);
    }
  });

  it('recorded node-info fixtures pass by value', () => {
    const chainId = results.find((r) => r.path === 'public/node_getChainId/dev-chain.io');
    assert.equal(chainId?.outcome, 'pass');
    assert.equal(chainId?.mode, 'value');
  });
});

describe('runner against a broken implementation', () => {
  let node: StartedNode;
  let proxyUrl: string;
  let close: () => void;
  before(async () => {
    node = await startNode();
    // A test double in front of the node that alters one field of two answers.
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString();
        const answer = await postJson(node.publicUrl, body);
        const text = answer.body.replace('"result":31337', '"result":31338').replace('"result":"4.0.0"', '"result":4');
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    close = () => proxy.close();
  });
  after(async () => {
    close();
    await node.stop();
  });

  it('a changed value fails by value with path, expected and actual', async () => {
    const fixtures = filterFixtures(loadFixtures(), 'node_getChainId/dev-chain');
    const [result] = await runSuite({
      endpoints: { publicUrl: proxyUrl, adminUrl: node.adminUrl },
      docs,
      fixtures,
      protocol: false,
      ...limits,
    });
    assert.equal(result?.outcome, 'fail');
    assert.match(result!.detail, /\$\.result: expected 31337, got 31338/);
  });

  it('a wrongly typed schema-only result fails naming the schema', async () => {
    const fixtures = filterFixtures(loadFixtures(), 'node_getNodeVersion/any-version');
    const [result] = await runSuite({
      endpoints: { publicUrl: proxyUrl, adminUrl: node.adminUrl },
      docs,
      fixtures,
      protocol: false,
      ...limits,
    });
    assert.equal(result?.outcome, 'fail');
    assert.match(result!.detail, /result does not match the result schema of node_getNodeVersion/);
  });
});
