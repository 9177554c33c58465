/**
 * Judges the answers to one fixture: by value, against the schemas (`schema-only`), as a document
 * example, or as an unauthorized call. A -32001 answer where something else is expected is
 * `not-implemented`, never a pass.
 * @module
 */
import { diffJson, formatDiff } from './diff.ts';
import type { Documents, Surface } from './documents.ts';
import type { MethodDescriptor } from '../generated/public/methods.ts';
import type { CheckMode, Outcome } from './results.ts';

const NOT_IMPLEMENTED = -32001;
const INVALID_PARAMS = -32602;
/** Codes any method may answer without declaring them (JSON-RPC framing; docs/ARCHITECTURE.md). */
const UNDECLARED_OK = new Set([-32700, -32600, -32601, -32603, -32002]);

/** The verdict on one exchange or element. */
export interface Verdict {
  readonly outcome: Outcome;
  readonly detail: string;
}

/** Context of one element: where it was sent and how to judge it. */
export interface ElementContext {
  readonly docs: Documents;
  readonly surface: Surface;
  readonly mode: CheckMode;
}

type Json = Record<string, unknown>;

/** Judges an expected answer (object or batch array) against the actual one, element by element. */
export function judge(ctx: ElementContext, request: unknown, expected: unknown, actual: unknown): Verdict {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual))
      return fail(`expected a batch answer (array of ${expected.length}), got ${brief(actual)}`);
    if (actual.length !== expected.length)
      return fail(`expected ${expected.length} answers in the batch, got ${actual.length}`);
    // Answers to requests that are not notifications, in order: the method of element i.
    const calls = Array.isArray(request) ? request.filter((r) => isObject(r) && Object.hasOwn(r, 'id')) : [];
    const bad = expected
      .map((e, i) => ({ i, v: judgeElement(ctx, calls[i], e, actual[i]) }))
      .filter((b) => b.v.outcome !== 'pass');
    if (bad.length === 0) return pass();
    const outcome = bad.some((b) => b.v.outcome === 'fail') ? 'fail' : 'not-implemented';
    return { outcome, detail: bad.map((b) => `[${b.i}] ${b.v.detail}`).join('\n') };
  }
  return judgeElement(ctx, request, expected, actual);
}

function judgeElement(ctx: ElementContext, request: unknown, expected: unknown, actual: unknown): Verdict {
  if (!isObject(actual)) return fail(`expected a JSON-RPC response object, got ${brief(actual)}`);
  if (!isObject(expected)) return fail("the fixture's expected answer is not an object");
  const actualError = isObject(actual.error) ? actual.error : undefined;
  const expectedError = isObject(expected.error) ? expected.error : undefined;
  if (actualError?.code === NOT_IMPLEMENTED && expectedError?.code !== NOT_IMPLEMENTED) {
    return { outcome: 'not-implemented', detail: `answered -32001 ${JSON.stringify(actualError.message)}` };
  }
  if (ctx.mode === 'value') {
    const diffs = diffJson(expected, actual);
    return diffs.length === 0 ? pass() : fail(`response differs:\n${formatDiff(diffs)}`);
  }
  if (!Object.is(actual.id, expected.id))
    return fail(`id: expected ${JSON.stringify(expected.id)}, got ${JSON.stringify(actual.id)}`);
  if (actual.jsonrpc !== '2.0') return fail(`jsonrpc: expected "2.0", got ${JSON.stringify(actual.jsonrpc)}`);
  const method = isObject(request) && typeof request.method === 'string' ? request.method : undefined;
  const descriptor = method === undefined ? undefined : ctx.docs.methods[ctx.surface][method];
  const hasResult = Object.hasOwn(actual, 'result');
  if (hasResult === (actualError !== undefined)) return fail('a response carries exactly one of result and error');
  if (ctx.mode === 'schema-only' || deliberate(descriptor, request)) {
    // The kind of answer and the error code are part of the case; only values may differ.
    if (expectedError === undefined && actualError !== undefined)
      return fail(`expected a result, got error ${brief(actualError)}`);
    if (expectedError !== undefined && actualError === undefined)
      return fail(`expected error ${expectedError.code}, got result ${brief(actual.result)}`);
    if (expectedError !== undefined && actualError!.code !== expectedError.code) {
      return fail(
        `expected error code ${expectedError.code}, got ${actualError!.code} ${JSON.stringify(actualError!.message)}`,
      );
    }
    // -32602 names the offending parameter (InvalidParamsErrorData); which one is not a matter of wording.
    const want =
      expectedError?.code === INVALID_PARAMS && isObject(expectedError.data) ? expectedError.data : undefined;
    const got = isObject(actualError?.data) ? actualError.data : {};
    if (want !== undefined && (got.index !== want.index || got.param !== want.param)) {
      return fail(
        `-32602 must name params[${want.index}] (${want.param}); got data ${brief(actualError?.data)}, message ${JSON.stringify(actualError?.message)}`,
      );
    }
  }
  if (actualError !== undefined) return checkError(ctx, descriptor, actualError);
  if (descriptor === undefined) return fail(`method ${method} is not on the ${ctx.surface} surface`);
  const problem = descriptor.validateResult(actual.result);
  return problem === null ? pass() : fail(`result does not match the result schema of ${descriptor.name}: ${problem}`);
}

/** An error answer: its code is declared for the method (or a framing code) and its data fits. */
function checkError(ctx: ElementContext, descriptor: MethodDescriptor | undefined, error: Json): Verdict {
  const code = error.code;
  if (typeof code !== 'number' || !Number.isInteger(code))
    return fail(`error.code must be an integer, got ${brief(code)}`);
  if (typeof error.message !== 'string' || error.message === '')
    return fail('error.message must be a non-empty string');
  if (descriptor !== undefined && !descriptor.errors.includes(code) && !UNDECLARED_OK.has(code)) {
    return fail(
      `error ${code} ${JSON.stringify(error.message)} is not declared for ${descriptor.name} (declared: ${descriptor.errors.join(', ')})`,
    );
  }
  const entry = ctx.docs.errors[ctx.surface].get(code);
  if (entry === undefined) return fail(`error ${code} is not in the ${ctx.surface} error catalogue`);
  const problem = entry.validateData(error.data);
  return problem === null ? pass() : fail(`error ${code} (${entry.name}) ${problem}`);
}

/** True when the request's params break the method's schema, so -32602 is the only right answer. */
export function deliberate(descriptor: MethodDescriptor | undefined, request: unknown): boolean {
  if (descriptor === undefined || !isObject(request)) return false;
  return paramsProblem(descriptor, request.params) !== null;
}

/** Validates params as the server sees them (null optionals and trailing absents dropped); null when valid. */
export function paramsProblem(descriptor: MethodDescriptor, params: unknown): string | null {
  if (params === undefined) params = [];
  if (!Array.isArray(params)) return 'params must be an array (by position)';
  if (params.length > descriptor.params.length)
    return `too many params: ${descriptor.name} takes at most ${descriptor.params.length}`;
  const out = params.map((v, i) => (v === null && !descriptor.params[i]!.required ? undefined : v));
  while (out.length > 0 && out[out.length - 1] === undefined) out.pop();
  return descriptor.validateParams(out);
}

function pass(): Verdict {
  return { outcome: 'pass', detail: '' };
}

function fail(detail: string): Verdict {
  return { outcome: 'fail', detail };
}

function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
