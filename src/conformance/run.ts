/**
 * Runs the conformance suite against an implementation: the protocol suite first, then every
 * fixture, one result per case.
 * @module
 */
import { judge } from './check.ts';
import type { Verdict } from './check.ts';
import type { Documents } from './documents.ts';
import type { Fixture } from './fixture-file.ts';
import { replayOrder } from './fixtures.ts';
import { postJson } from './http.ts';
import type { Endpoints } from './http.ts';
import { PROTOCOL_CASES } from './protocol-suite.ts';
import type { ProtocolOptions } from './protocol-suite.ts';
import type { CaseResult, CheckMode } from './results.ts';
import { isObject } from './check.ts';

/** Options of one run. */
export interface RunOptions extends ProtocolOptions {
  readonly endpoints: Endpoints;
  readonly docs: Documents;
  readonly fixtures: readonly Fixture[];
  /** Runs the protocol suite too (default true). */
  readonly protocol?: boolean;
  /** Called after each case, for progress output. */
  readonly onResult?: (result: CaseResult) => void;
}

/** Runs the suite and returns every case's result, protocol cases first. */
export async function runSuite(options: RunOptions): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  const record = (r: CaseResult) => {
    results.push(r);
    options.onResult?.(r);
  };
  if (options.protocol !== false) {
    for (const c of PROTOCOL_CASES) {
      const started = performance.now();
      let detail: string;
      try {
        detail = await c.run(options.endpoints, options);
      } catch (err) {
        detail = `request failed: ${(err as Error).message}`;
      }
      record({
        suite: 'protocol',
        method: 'protocol',
        name: c.name,
        mode: 'protocol',
        outcome: detail === '' ? 'pass' : 'fail',
        detail,
        ms: elapsed(started),
      });
    }
  }
  // State-changing fixtures after the others, documents' examples last (see replayOrder).
  for (const fixture of replayOrder(options.fixtures)) record(await runFixture(fixture, options));
  return results;
}

/** How a fixture is judged (see CheckMode). */
export function modeOf(fixture: Fixture): CheckMode {
  if (fixture.flags.has('schema-only')) return 'schema-only';
  if (!fixture.fromDocument) return 'value';
  return firstExpectedCode(fixture) === -32000 ? 'unauthorized' : 'document';
}

/** Replays one fixture. */
export async function runFixture(fixture: Fixture, options: RunOptions): Promise<CaseResult> {
  const started = performance.now();
  const mode = modeOf(fixture);
  const { endpoints, docs } = options;
  const urlOf = (target: 'public' | 'admin') => (target === 'admin' ? endpoints.adminUrl : endpoints.publicUrl);
  // Document examples of UNAUTHORIZED are sent without a key: that is the situation they describe.
  // A step sent to the admin port from a public fixture (`>>admin `) carries the key.
  const keyOf = (target: 'public' | 'admin') =>
    (fixture.flags.has('needs-api-key') && mode !== 'unauthorized') ||
    (target === 'admin' && fixture.surface === 'public')
      ? endpoints.apiKey
      : undefined;
  const base = {
    suite: fixture.surface,
    method: fixture.method,
    name: fixture.name,
    path: fixture.path,
    mode,
    expectedCode: firstExpectedCode(fixture),
  };
  let actualCode: number | null | undefined;
  const verdicts: Verdict[] = [];
  let next = 0;
  const own = ownAnswerIndex(fixture);
  try {
    for (const [i, text] of fixture.requests.entries()) {
      const target = fixture.targets[i] ?? fixture.surface;
      const res = await postJson(urlOf(target), text, keyOf(target));
      const request = tryParse(text);
      if (!expectsAnswer(request)) {
        verdicts.push(
          res.status === 204 && res.body === ''
            ? ok()
            : bad(`a notification gets HTTP 204 and no body; got ${res.status} ${res.body.slice(0, 200)}`),
        );
        continue;
      }
      const expectedText = fixture.responses[next++];
      if (expectedText === undefined) throw new Error('the fixture has fewer "<<" lines than answered requests');
      const actual = tryParse(res.body);
      if (next - 1 === own) actualCode = codeOf(actual);
      if (mode === 'unauthorized') {
        verdicts.push(unauthorized(res.status, actual, JSON.parse(expectedText)));
        continue;
      }
      if (actual === undefined) {
        verdicts.push(bad(`HTTP ${res.status}, body is not JSON: ${res.body.slice(0, 200)}`));
        continue;
      }
      verdicts.push(judge({ docs, surface: target, mode }, request, JSON.parse(expectedText), actual));
    }
  } catch (err) {
    verdicts.push(bad(`request failed: ${(err as Error).message}`));
  }
  const failed = verdicts.filter((v) => v.outcome === 'fail');
  const missing = verdicts.filter((v) => v.outcome === 'not-implemented');
  const outcome = failed.length > 0 ? 'fail' : missing.length > 0 ? 'not-implemented' : 'pass';
  const detail = [...failed, ...missing].map((v) => v.detail).join('\n');
  return { ...base, outcome, detail, ms: elapsed(started), ...(actualCode === undefined ? {} : { actualCode }) };
}

/** The 401 answer with the documents' exact body (id null), whatever id the fixture used. */
function unauthorized(status: number, actual: unknown, expected: unknown): Verdict {
  const error = isObject(expected) ? expected.error : undefined;
  const want = JSON.stringify({ jsonrpc: '2.0', id: null, error });
  if (status !== 401)
    return bad(`sent without an API key: expected HTTP 401, got ${status} ${JSON.stringify(actual)?.slice(0, 200)}`);
  return JSON.stringify(actual) === want
    ? ok()
    : bad(`sent without an API key: expected body ${want}, got ${JSON.stringify(actual)?.slice(0, 300)}`);
}

/** False for a notification or an all-notification batch: those get no answer. */
function expectsAnswer(request: unknown): boolean {
  if (Array.isArray(request))
    return request.length === 0 || request.some((r) => !isObject(r) || Object.hasOwn(r, 'id'));
  return !isObject(request) || Object.hasOwn(request, 'id');
}

/**
 * The error code of the expected answer to the first request that calls the fixture's own method
 * (steps before it, e.g. a config change sent first, do not count); null when it is a result.
 */
export function firstExpectedCode(fixture: Pick<Fixture, 'requests' | 'responses' | 'method'>): number | null {
  const i = ownAnswerIndex(fixture);
  const answer = fixture.responses[i] === undefined ? undefined : tryParse(fixture.responses[i]);
  return codeOf(answer) ?? null;
}

/** Index (among the answers) of the answer to the first request of the fixture's own method; 0 when none. */
function ownAnswerIndex(fixture: Pick<Fixture, 'requests' | 'method'>): number {
  let answer = 0;
  for (const text of fixture.requests) {
    const request = tryParse(text);
    if (!expectsAnswer(request)) continue;
    if (isObject(request) && request.method === fixture.method) return answer;
    answer++;
  }
  return 0;
}

function codeOf(answer: unknown): number | null | undefined {
  const one = Array.isArray(answer) ? answer[0] : answer;
  if (!isObject(one)) return undefined;
  return isObject(one.error) && typeof one.error.code === 'number' ? one.error.code : null;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function ok(): Verdict {
  return { outcome: 'pass', detail: '' };
}

function bad(detail: string): Verdict {
  return { outcome: 'fail', detail };
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
