/**
 * The conformance suite against this node: the protocol suite and every fixture, zero failures
 * except the listed known ones; cases whose method answers -32001 today are counted and listed as
 * not implemented, never as passing. A test double that alters one field must make the runner fail
 * with a readable diff.
 * @module
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadDocuments } from '../../src/conformance/documents.ts';
import { filterFixtures, loadFixtures } from '../../src/conformance/fixtures.ts';
import { postJson } from '../../src/conformance/http.ts';
import { CHAIN_FILE } from '../../src/conformance/chain/paths.ts';
import { startNode } from '../../src/conformance/node-process.ts';
import type { StartedNode } from '../../src/conformance/node-process.ts';
import { renderReport } from '../../src/conformance/reports.ts';
import { buildCoverage } from '../../src/conformance/coverage.ts';
import { summarize } from '../../src/conformance/results.ts';
import type { CaseResult } from '../../src/conformance/results.ts';
import { runSuite } from '../../src/conformance/run.ts';

/**
 * Failures found by the suite that belong to other parts; each says whose fix it is. Remove an
 * entry when it is fixed (this test fails until then, so the list cannot go stale).
 */
const KNOWN_FAILURES: Readonly<Record<string, string>> = {};

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

  it('not implemented: counted and listed, each answered -32001, never passing', (t) => {
    const missing = results.filter((r) => r.outcome === 'not-implemented');
    for (const r of missing) assert.match(r.detail, /answered -32001/, r.path);
    const s = summarize(results);
    assert.equal(s.pass + s.fail + s.notImplemented, s.total);
    const report = JSON.parse(renderReport({ target: { publicUrl: node.publicUrl, adminUrl: node.adminUrl }, results, coverage: buildCoverage(docs, loadFixtures(), results) }, 'json')) as { notImplemented: string[]; summary: { notImplemented: number } };
    assert.equal(report.summary.notImplemented, missing.length);
    assert.deepEqual(report.notImplemented, missing.map((r) => r.path));
    t.diagnostic(`${s.total} cases: ${s.pass} pass, ${s.fail} fail (known), ${s.notImplemented} not implemented`);
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
