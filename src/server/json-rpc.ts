/**
 * JSON-RPC 2.0 dispatch of one parsed body: a single request or a batch take the same path.
 * Envelope check (-32600), method lookup on this surface (-32601), params normalisation and the
 * generated validator (-32602), then the handler; errors become wire errors in one place.
 *
 * Hot path (issue #12): a call whose handler answers synchronously is answered synchronously, and
 * one whose handler returns a promise costs that promise plus one `then`, not a chain of `async`
 * layers; the method table is a Map built once and handler functions are looked up once.
 * @module
 */

import type { JsonRpcErrorObject } from '../impl/rpc/errors.ts';
import { RpcErrorCode } from '../impl/rpc/errors.ts';
import { toJsonRpcError } from '../impl/rpc/wire-errors.ts';
import {
  batchTooLarge,
  internalError,
  invalidParams,
  invalidRequest,
  methodNotFound,
  notImplemented,
} from './protocol-errors.ts';
import { SerializedResult } from './serialized-result.ts';
import type { HandlerTable, Logger, MethodDescriptor, RpcMethodObserver, RpcObserver } from './types.ts';

/** What the dispatcher needs. */
export interface DispatchOptions {
  readonly methods: Readonly<Record<string, MethodDescriptor>>;
  readonly handlers: HandlerTable;
  readonly maxBatchSize: number;
  readonly logger: Logger;
  /** Maps a thrown value to a wire error; defaults to `toJsonRpcError`. */
  readonly mapError?: (err: unknown) => JsonRpcErrorObject;
  /** Metrics: calls by method and outcome, latency, batch sizes. */
  readonly observer?: RpcObserver;
}

/** The HTTP answer to a body: status and JSON text, or no body at all (204). */
export interface DispatchOutcome {
  readonly status: number;
  readonly body: string | undefined;
}

/** A value now, or later when the handler is asynchronous. */
export type MaybePromise<T> = T | Promise<T>;

type RequestId = string | number | null;
type CallOutcome =
  | { readonly result: unknown; readonly error?: undefined }
  | { readonly result?: undefined; readonly error: JsonRpcErrorObject };
type Handler = (...args: unknown[]) => unknown;

/** A method of this surface with what dispatch needs precomputed. */
interface Route {
  readonly descriptor: MethodDescriptor;
  readonly takesNoParams: boolean;
  /** The handler function, once found on the handler table. */
  handler: Handler | undefined;
  /** This method's metrics handle, taken once. */
  readonly observer: RpcMethodObserver | undefined;
}

const NO_PARAMS: readonly unknown[] = Object.freeze([]);
const NO_CONTENT: DispatchOutcome = Object.freeze({ status: 204, body: undefined });

/** Creates the function that answers one parsed JSON body (synchronously when every handler did). */
export function createDispatcher(options: DispatchOptions): (parsed: unknown) => MaybePromise<DispatchOutcome> {
  const mapError = options.mapError ?? toJsonRpcError;
  const { handlers, logger, maxBatchSize, observer } = options;
  const unknownMethod = observer?.method(undefined);
  // Per-call timing and its log fields only when debug lines are written (hot path, batches).
  const debugCalls = logger.enabled?.('debug') ?? true;
  const routes = new Map<string, Route>();
  for (const [name, descriptor] of Object.entries(options.methods)) {
    routes.set(name, {
      descriptor,
      takesNoParams: descriptor.params.length === 0,
      handler: undefined,
      observer: observer?.method(name),
    });
  }

  /**
   * Validates and runs one call; `finish` turns its outcome into what the caller wants (the answer
   * text), so an asynchronous handler costs one `then` here and no further promise per call.
   */
  function callMethod<T>(
    method: string,
    rawParams: unknown,
    id: RequestId | undefined,
    finish: (outcome: CallOutcome) => T,
  ): MaybePromise<T> {
    const route = routes.get(method);
    if (route === undefined) {
      unknownMethod?.done(unknownMethod.start(), RpcErrorCode.METHOD_NOT_FOUND);
      return finish({ error: methodNotFound(method) });
    }
    const { descriptor } = route;
    const started = route.observer !== undefined ? route.observer.start() : debugCalls ? performance.now() : 0;
    let params: readonly unknown[] | string;
    if (rawParams === undefined || (route.takesNoParams && Array.isArray(rawParams) && rawParams.length === 0)) {
      params = route.takesNoParams ? NO_PARAMS : normalizeParamsOrProblem(descriptor, NO_PARAMS);
    } else if (!Array.isArray(rawParams)) {
      return finish(refused(route, started, invalidParams('params[0] (params): must be an array, by position')));
    } else {
      params = normalizeParamsOrProblem(descriptor, rawParams);
    }
    if (typeof params === 'string') return finish(refused(route, started, invalidParams(params)));
    const problem = descriptor.validateParams(params as unknown[]);
    if (problem !== null) return finish(refused(route, started, invalidParams(problem)));
    // Looked up once; a missing one is looked up again next time (and answers -32001 now).
    const handler = route.handler ?? (route.handler = findHandler(handlers, descriptor.handler));
    if (handler === undefined) return finish(refused(route, started, notImplemented(method)));
    let result: unknown;
    try {
      result = handler.apply(handlers, params as unknown[]);
    } catch (err) {
      return finish(failed(route, id, started, err));
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value) => finish(succeeded(route, id, started, value)),
        (err: unknown) => finish(failed(route, id, started, err)),
      );
    }
    return finish(succeeded(route, id, started, result));
  }

  function succeeded(route: Route, id: RequestId | undefined, started: number, result: unknown): CallOutcome {
    route.observer?.done(started, 0);
    if (debugCalls)
      logger.debug('rpc call', { method: route.descriptor.name, id, ms: Math.round(performance.now() - started) });
    return { result: result === undefined ? null : result };
  }

  function failed(route: Route, id: RequestId | undefined, started: number, err: unknown): CallOutcome {
    const error = mapError(err);
    const method = route.descriptor.name;
    route.observer?.done(started, error.code);
    if (error.code === RpcErrorCode.INTERNAL_ERROR) logger.error('handler failed', { method, id, err });
    else if (debugCalls) logger.debug('rpc error', { method, id, code: error.code });
    return { error };
  }

  /** A call refused before its handler ran (params, not implemented). */
  function refused(route: Route, started: number, error: JsonRpcErrorObject): CallOutcome {
    route.observer?.done(started, error.code);
    return { error };
  }

  /** The answer text of one request object; `undefined` for a notification. */
  function answer(element: unknown): MaybePromise<string | undefined> {
    if (typeof element !== 'object' || element === null || Array.isArray(element)) {
      return respond(null, { error: invalidRequest('not a request object') });
    }
    const request = element as Record<string, unknown>;
    const isNotification = !Object.hasOwn(request, 'id');
    const id = request.id;
    if (!isNotification && !isValidId(id))
      return respond(null, { error: invalidRequest('id must be a string, number or null') });
    const replyId = isNotification ? null : (id as RequestId);
    if (request.jsonrpc !== '2.0') return respond(replyId, { error: invalidRequest('jsonrpc must be "2.0"') });
    const method = request.method;
    if (typeof method !== 'string' || method === '') {
      return respond(replyId, { error: invalidRequest('method must be a non-empty string') });
    }
    // JSON-RPC 2.0 §4.1: a notification is never answered, not even with an error.
    if (isNotification) return callMethod(method, request.params, undefined, ignoreOutcome);
    return callMethod(method, request.params, replyId, (outcome) => respond(replyId, outcome));
  }

  function respond(id: RequestId, outcome: CallOutcome): string {
    if (outcome.error !== undefined) return JSON.stringify({ jsonrpc: '2.0', id, error: outcome.error });
    let result: string | undefined;
    try {
      // A result already in text form (an answer cache's bytes) is written as it is.
      result = outcome.result instanceof SerializedResult ? outcome.result.json : JSON.stringify(outcome.result);
    } catch (err) {
      logger.error('result not serializable', { id, err });
      return JSON.stringify({ jsonrpc: '2.0', id, error: internalError() });
    }
    // The envelope around the result's text, byte for byte what stringifying the whole object
    // gives (a result without a JSON form is left out the same way), without building the object.
    const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)}`;
    return result === undefined ? `${head}}` : `${head},"result":${result}}`;
  }

  /**
   * Elements run concurrently; the answer keeps request order. Pending elements fill their slot
   * when they settle (no `Promise.all`, one reaction per pending element).
   */
  function answerBatch(elements: readonly unknown[]): MaybePromise<DispatchOutcome> {
    const answers = new Array<string | undefined>(elements.length);
    let pending = 0;
    let whole: PromiseWithResolvers<DispatchOutcome> | undefined;
    for (let i = 0; i < elements.length; i++) {
      const a = answer(elements[i]);
      if (!(a instanceof Promise)) {
        answers[i] = a;
        continue;
      }
      pending++;
      whole ??= Promise.withResolvers<DispatchOutcome>();
      const { resolve, reject } = whole;
      a.then((text) => {
        answers[i] = text;
        if (--pending === 0) resolve(batchOutcome(answers));
      }, reject);
    }
    return whole === undefined ? batchOutcome(answers) : whole.promise;
  }

  return function dispatch(parsed: unknown): MaybePromise<DispatchOutcome> {
    if (Array.isArray(parsed)) {
      observer?.batch(parsed.length);
      if (parsed.length === 0) return wholeBodyError(invalidRequest('empty batch'));
      if (parsed.length > maxBatchSize) return wholeBodyError(batchTooLarge(maxBatchSize));
      return answerBatch(parsed);
    }
    if (typeof parsed !== 'object' || parsed === null)
      return wholeBodyError(invalidRequest('body must be an object or an array'));
    const single = answer(parsed);
    return single instanceof Promise ? single.then(singleOutcome) : singleOutcome(single);
  };
}

function ignoreOutcome(): undefined {
  return undefined;
}

function singleOutcome(answer: string | undefined): DispatchOutcome {
  return answer === undefined ? NO_CONTENT : { status: 200, body: answer };
}

function batchOutcome(answers: readonly (string | undefined)[]): DispatchOutcome {
  const present = answers.filter((a) => a !== undefined);
  return present.length === 0 ? NO_CONTENT : { status: 200, body: `[${present.join(',')}]` };
}

/** A rejection of the whole body: HTTP 400 with one error, `id: null` (docs/OPERATIONS.md). */
export function wholeBodyError(error: JsonRpcErrorObject): DispatchOutcome {
  return { status: 400, body: JSON.stringify({ jsonrpc: '2.0', id: null, error }) };
}

function isValidId(id: unknown): boolean {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value instanceof Promise ||
    (typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function')
  );
}

/**
 * Turns `null` optionals into `undefined` and drops trailing omitted ones (the Aztec client sends
 * `null` for an `undefined` argument, test/wire/README.md); a missing required one is named.
 */
function normalizeParamsOrProblem(descriptor: MethodDescriptor, params: readonly unknown[]): unknown[] | string {
  const declared = descriptor.params;
  if (params.length > declared.length) {
    return `params[${declared.length}] (extra): must be absent; ${descriptor.name} takes at most ${declared.length} params`;
  }
  const out = params.map((value, i) => (value === null && !declared[i]!.required ? undefined : value));
  while (out.length > 0 && out[out.length - 1] === undefined) out.pop();
  for (let i = 0; i < declared.length; i++) {
    if (declared[i]!.required && out[i] === undefined) return `params[${i}] (${declared[i]!.name}): is required`;
  }
  return out;
}

function findHandler(handlers: HandlerTable, name: string): Handler | undefined {
  // `name` comes from the method table, never from the request; still skip Object.prototype.
  if (name in Object.prototype) return undefined;
  const candidate = (handlers as Record<string, unknown>)[name];
  return typeof candidate === 'function' ? (candidate as Handler) : undefined;
}
