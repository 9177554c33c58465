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
import { summarize } from '../../src/conformance/results.ts';
import type { CaseResult } from '../../src/conformance/results.ts';
import { runSuite } from '../../src/conformance/run.ts';

/**
 * Failures found by the suite that belong to other parts; each says whose fix it is. Remove an
 * entry when it is fixed (this test fails until then, so the list cannot go stale).
 */
const KNOWN_FAILURES: Readonly<Record<string, string>> = {};

/**
 * The fixtures this node answers with -32001 NOT_IMPLEMENTED today, and why: exactly these, so the
 * list can only shrink (an entry that starts passing, or a new -32001, fails the test).
 */
const NOT_IMPLEMENTED: Readonly<Record<string, string>> = {
  'public/node_getContract/example-1.io': 'contract instances by address: public execution (src/impl/contracts)',
  'public/node_getContract/example-2.io': 'contract instances by address: public execution (src/impl/contracts)',
  'public/node_getContractClass/example-1.io': 'contract classes by id: public execution (src/impl/contracts)',
  'public/node_getContractClass/example-2.io': 'contract classes by id: public execution (src/impl/contracts)',
  'public/node_simulatePublicCalls/example-1.io': 'public simulation: public execution (src/impl/execution)',
  'public/node_simulatePublicCalls/error-gas-too-high.io': 'public simulation: public execution (src/impl/execution)',
};

/** Where the integration run leaves its HTML report (git-ignored). */
const REPORT_FILE = fileURLToPath(new URL('../../test-results/conformance/report.html', import.meta.url));
/** The committed coverage matrix (npm run conformance:coverage). */
const COVERAGE_FILE = fileURLToPath(new URL('../../docs/CONFORMANCE-COVERAGE.md', import.meta.url));

const docs = loadDocuments();
const limits = { maxBodyBytes: 1_048_576, maxBatchSize: 100 };

describe('conformance suite against this node', () => {
  let node: StartedNode;
  let results: CaseResult[];
  before(async () => {
    node = await startNode(['--import-chain', CHAIN_FILE]);
    results = await runSuite({ endpoints: node, docs, fixtures: loadFixtures(), ...limits });
  });
  after(() => node.stop());

  it('protocol suite: every case passes', () => {
    const protocol = results.filter((r) => r.suite === 'protocol');
    assert.ok(protocol.length >= 25, `protocol cases ran (${protocol.length})`);
    assert.deepEqual(protocol.filter((r) => r.outcome !== 'pass').map((r) => `${r.name}: ${r.detail}`), []);
  });

  it('fixtures: no failures except the known ones', () => {
    const failed = Object.fromEntries(results.filter((r) => r.outcome === 'fail').map((r) => [r.path!.slice(0, -3), r.detail]));
    assert.deepEqual(Object.keys(failed).sort(), Object.keys(KNOWN_FAILURES).sort(), `unexpected failures:\n${JSON.stringify(failed, null, 2)}`);
  });

  it('not implemented: exactly the listed fixtures, each answered -32001, never passing', (t) => {
    const missing = results.filter((r) => r.outcome === 'not-implemented');
    assert.deepEqual(missing.map((r) => r.path).sort(), Object.keys(NOT_IMPLEMENTED).sort(), 'update NOT_IMPLEMENTED: the list only shrinks');
    for (const r of missing) assert.match(r.detail, /answered -32001/, r.path);
    const s = summarize(results);
    assert.equal(s.pass + s.fail + s.notImplemented, s.total);
    const report = JSON.parse(renderReport({ target: { publicUrl: node.publicUrl, adminUrl: node.adminUrl }, results, coverage: buildCoverage(docs, loadFixtures(), results) }, 'json')) as { notImplemented: string[]; summary: { notImplemented: number } };
    assert.equal(report.summary.notImplemented, missing.length);
    assert.deepEqual(report.notImplemented, missing.map((r) => r.path));
    t.diagnostic(`${s.total} cases: ${s.pass} pass, ${s.fail} fail (known), ${s.notImplemented} not implemented`);
  });

  it('writes the HTML report and matches the committed coverage matrix', () => {
    const fixtures = loadFixtures();
    const coverage = buildCoverage(docs, fixtures, results);
    mkdirSync(dirname(REPORT_FILE), { recursive: true });
    writeFileSync(REPORT_FILE, renderReport({ target: { publicUrl: node.publicUrl, adminUrl: node.adminUrl }, results, coverage }, 'html'));
    const notImplemented = results.filter((r) => r.outcome === 'not-implemented').map((r) => r.path ?? r.name);
    const fresh = coverageDocument(coverage, limitCases(fixtures, results), notImplemented);
    assert.equal(readFileSync(COVERAGE_FILE, 'utf8'), fresh, 'docs/CONFORMANCE-COVERAGE.md is stale: run npm run conformance:coverage');
    const limits = limitCases(fixtures, results);
    assert.ok(limits.some((l) => l.side === 'inside') && limits.some((l) => l.side === 'outside'));
    assert.deepEqual(limits.filter((l) => l.state !== 'pass'), [], 'every limit case passes');
  });

  it('recorded fixtures on the chain pass by value', () => {
    for (const path of ['public/node_getL2Tips/chain.io', 'public/node_getBlock/block-1.io', 'public/node_sendTx/rejected-low-priority-fee.io', 'public/node_sendTx/accepted.io']) {
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
    const [result] = await runSuite({ endpoints: { publicUrl: proxyUrl, adminUrl: node.adminUrl }, docs, fixtures, protocol: false, ...limits });
    assert.equal(result?.outcome, 'fail');
    assert.match(result!.detail, /\$\.result: expected 31337, got 31338/);
  });

  it('a wrongly typed schema-only result fails naming the schema', async () => {
    const fixtures = filterFixtures(loadFixtures(), 'node_getNodeVersion/any-version');
    const [result] = await runSuite({ endpoints: { publicUrl: proxyUrl, adminUrl: node.adminUrl }, docs, fixtures, protocol: false, ...limits });
    assert.equal(result?.outcome, 'fail');
    assert.match(result!.detail, /result does not match the result schema of node_getNodeVersion/);
  });
});
