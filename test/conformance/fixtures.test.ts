/**
 * The fixture check: every fixture's requests fit the documents (method on the right surface,
 * params through the generated validators) and every expected answer does too (result schema;
 * errors declared for the method with data matching the error's data schema in `x-errors`).
 * Requests whose params are invalid on purpose — and only they — are marked `deliberate-error`.
 * @module
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isObject, paramsProblem } from '../../src/conformance/check.ts';
import { loadDocuments } from '../../src/conformance/documents.ts';
import type { Fixture } from '../../src/conformance/fixture-file.ts';
import { loadFixtures } from '../../src/conformance/fixtures.ts';

const docs = loadDocuments();
const fixtures = loadFixtures();
/** Framing errors: never declared per method (docs/ARCHITECTURE.md), so any method may expect them. */
const FRAMING = new Set([-32700, -32600, -32601]);

describe('conformance fixtures', () => {
  it('exist for both surfaces', () => {
    assert.ok(fixtures.filter((f) => f.surface === 'public').length > 100, 'public fixtures');
    assert.ok(fixtures.filter((f) => f.surface === 'admin').length > 20, 'admin fixtures');
  });

  for (const fixture of fixtures) {
    it(`${fixture.path}: request and expected answer fit the documents`, () => checkFixture(fixture));
  }
});

function checkFixture(f: Fixture): void {
  assert.ok(Object.hasOwn(docs.methods[f.surface], f.method), `${f.method} is not a ${f.surface} method`);
  assert.equal(
    f.flags.has('needs-api-key'),
    f.surface === 'admin',
    'admin fixtures, and only they, carry needs-api-key',
  );
  assert.equal(f.targets.length, f.requests.length, 'one target port per request');
  assert.ok(
    f.fromDocument ||
      f.requests.some(
        (t) => (JSON.parse(t) as { method?: unknown }).method === f.method || Array.isArray(JSON.parse(t)),
      ),
    `some request calls ${f.method}`,
  );
  let invalidParams = 0;
  // The method (and port) of each answered request element, in answer order.
  const answered: { method: string; surface: 'public' | 'admin' }[][] = [];
  f.requests.forEach((text, i) => {
    const surface = f.targets[i]!;
    const methods = docs.methods[surface];
    const request = JSON.parse(text) as unknown;
    const elements = Array.isArray(request) ? request : [request];
    for (const element of elements) {
      assert.ok(isObject(element), 'every request element is an object');
      assert.equal(element.jsonrpc, '2.0');
      assert.equal(typeof element.method, 'string');
      const descriptor = methods[element.method as string];
      assert.ok(descriptor !== undefined, `${String(element.method)} is served on the ${surface} port`);
      if (paramsProblem(descriptor, element.params) !== null) invalidParams++;
    }
    if (elements.some((e) => isObject(e) && Object.hasOwn(e, 'id')))
      answered.push(elements.map((e) => ({ method: (e as { method: string }).method, surface })));
  });
  assert.equal(f.responses.length, answered.length, 'one "<<" line per answered request');
  const codes = f.responses.flatMap((text, k) => {
    const answer = JSON.parse(text) as unknown;
    return (Array.isArray(answer) ? answer : [answer]).map((a, i) =>
      checkAnswer(a, answered[k]![i] ?? answered[k]![0]!),
    );
  });
  const deliberate = f.flags.has('deliberate-error');
  const protocolError = codes.some((c) => c === -32602 || (c !== null && FRAMING.has(c)));
  if (deliberate) assert.ok(protocolError, 'a deliberate-error fixture expects a protocol error');
  if (invalidParams > 0) {
    const problem = paramsProblem(
      docs.methods[f.surface][f.method]!,
      (JSON.parse(f.requests[0]!) as { params: unknown }).params,
    );
    assert.ok(deliberate, `params break the schema: mark the fixture deliberate-error (${problem})`);
  }
  // -32602 is only right for params invalid on purpose (the schema, or a rule the method documents beyond it).
  if (codes.includes(-32602)) assert.ok(deliberate, 'a fixture that expects -32602 is marked deliberate-error');
}

/** Checks one expected answer; returns its error code, or null for a result. */
function checkAnswer(
  answer: unknown,
  { method, surface }: { method: string; surface: 'public' | 'admin' },
): number | null {
  assert.ok(isObject(answer), 'an expected answer is an object');
  assert.equal(answer.jsonrpc, '2.0');
  const descriptor = docs.methods[surface][method]!;
  if (Object.hasOwn(answer, 'result')) {
    assert.ok(!Object.hasOwn(answer, 'error'), 'result and error are exclusive');
    assert.equal(descriptor.validateResult(answer.result), null, 'expected result fits the result schema');
    return null;
  }
  assert.ok(isObject(answer.error), 'an answer has a result or an error object');
  const code = answer.error.code as number;
  assert.ok(
    FRAMING.has(code) || descriptor.errors.includes(code),
    `error ${code} is declared for ${method} (declared: ${descriptor.errors.join(', ')})`,
  );
  const entry = docs.errors[surface].get(code);
  assert.ok(entry !== undefined, `error ${code} is in the ${surface} catalogue`);
  assert.equal(entry.validateData(answer.error.data), null, `error ${code} data fits ${entry.name}'s data schema`);
  return code;
}
