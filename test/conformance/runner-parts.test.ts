/**
 * Small parts of the runner: the structural diff, the glob filter and the fixture file format.
 * @module
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diffJson, formatDiff } from '../../src/conformance/diff.ts';
import { formatFixture, parseFixture } from '../../src/conformance/fixture-file.ts';
import type { FixtureFlag } from '../../src/conformance/fixture-file.ts';
import { globMatcher, replayOrder } from '../../src/conformance/fixtures.ts';
import { firstExpectedCode } from '../../src/conformance/run.ts';

describe('diffJson', () => {
  it('names the path, the expected and the actual value of each difference', () => {
    const diffs = diffJson({ result: { a: [1, 2], b: 'x' } }, { result: { a: [1, 3], c: true } });
    assert.equal(
      formatDiff(diffs),
      [
        '$.result.a[1]: expected 2, got 3',
        '$.result.b: missing (expected "x")',
        '$.result.c: unexpected (got true)',
      ].join('\n'),
    );
  });
  it('equal values have no differences, and null is not absent', () => {
    assert.deepEqual(diffJson({ a: [{ b: null }] }, { a: [{ b: null }] }), []);
    assert.equal(diffJson({ a: null }, {}).length, 1);
  });
});

describe('globMatcher', () => {
  it('* stays in a segment, ** crosses them', () => {
    assert.ok(globMatcher('node_get*')('node_getBlocks'));
    assert.ok(!globMatcher('node_get*')('public/node_getBlocks/x'));
    assert.ok(globMatcher('public/**')('public/node_getBlocks/limit-101'));
  });
});

describe('fixture files', () => {
  it('round-trip comments, flags in canonical order, requests and responses', () => {
    const text = formatFixture({
      comments: ['a case'],
      flags: ['deliberate-error', 'schema-only'],
      exchanges: [{ request: '{"id":1}', response: '{"id":1}' }],
    });
    assert.equal(text, '# a case\n# flags: schema-only deliberate-error\n>> {"id":1}\n<< {"id":1}\n');
    const f = parseFixture('public/node_x/case.io', text);
    assert.deepEqual(
      [f.method, f.name, [...f.flags], f.requests, f.responses, f.fromDocument],
      ['node_x', 'case', ['schema-only', 'deliberate-error'], ['{"id":1}'], ['{"id":1}'], false],
    );
  });
  it('rejects unknown flags and stray lines', () => {
    assert.throws(() => parseFixture('public/m/c.io', '# flags: schema-onyl\n>> {}\n'), /unknown flag "schema-onyl"/);
    assert.throws(() => parseFixture('public/m/c.io', '>> {}\nhello\n'), /:2: a line starts with/);
  });
});

describe('steps on the other port and replay order', () => {
  const text = formatFixture({
    comments: ['low priority'],
    flags: ['state-changing'],
    exchanges: [
      {
        request: '{"jsonrpc":"2.0","id":1,"method":"nodeAdmin_setConfig","params":[{}]}',
        response: '{"jsonrpc":"2.0","id":1,"result":null}',
        surface: 'admin',
      },
      {
        request: '{"jsonrpc":"2.0","id":1,"method":"node_sendTx","params":[]}',
        response: '{"jsonrpc":"2.0","id":1,"error":{"code":-32020}}',
      },
    ],
  });
  it('writes >>admin for a step on the admin port and reads it back as that target', () => {
    assert.match(text, /^>>admin \{/m);
    const f = parseFixture('public/node_sendTx/x.io', text);
    assert.deepEqual(f.targets, ['admin', 'public']);
    assert.ok(f.flags.has('state-changing'));
  });
  it("the expected code is the answer to the fixture's own method, not to a setup step", () => {
    assert.equal(firstExpectedCode(parseFixture('public/node_sendTx/x.io', text)), -32020);
  });
  it("replays recorded fixtures first, state-changing ones next (path order), documents' examples last", () => {
    const fx = (path: string, flags: FixtureFlag[], fromDocument = false) => ({
      path,
      flags: new Set<FixtureFlag>(flags),
      fromDocument,
    });
    const order = replayOrder([
      fx('public/b/z.io', ['state-changing']),
      fx('public/a/example-1.io', [], true),
      fx('public/c/x.io', []),
      fx('public/a/y.io', ['state-changing']),
      fx('admin/a/x.io', []),
    ]);
    assert.deepEqual(
      order.map((f) => f.path),
      ['admin/a/x.io', 'public/c/x.io', 'public/a/y.io', 'public/b/z.io', 'public/a/example-1.io'],
    );
  });
});
