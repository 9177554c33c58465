/**
 * JSON-RPC 2.0 dispatch of one parsed body: a single request or a batch take the same path.
 * Envelope check (-32600), method lookup on this surface (-32601), params normalisation and the
 * generated validator (-32602), then the handler; errors become wire errors in one place.
 * @module
 */
import { RpcErrorCode, toJsonRpcError } from '../impl/rpc/errors.ts';
import type { JsonRpcErrorObject } from '../impl/rpc/errors.ts';
import { batchTooLarge, internalError, invalidParams, invalidRequest, methodNotFound, notImplemented } from './protocol-errors.ts';
import type { HandlerTable, Logger, MethodDescriptor } from './types.ts';

/** What the dispatcher needs. */
export interface DispatchOptions {
  readonly methods: Readonly<Record<string, MethodDescriptor>>;
  readonly handlers: HandlerTable;
  readonly maxBatchSize: number;
  readonly logger: Logger;
  /** Maps a thrown value to a wire error; defaults to `toJsonRpcError`. */
  readonly mapError?: (err: unknown) => JsonRpcErrorObject;
}

/** The HTTP answer to a body: status and JSON text, or no body at all (204). */
export interface DispatchOutcome {
  readonly status: number;
  readonly body: string | undefined;
}

type RequestId = string | number | null;

/** Creates the function that answers one parsed JSON body. */
export function createDispatcher(options: DispatchOptions): (parsed: unknown) => Promise<DispatchOutcome> {
  const mapError = options.mapError ?? toJsonRpcError;
  const { methods, handlers, logger } = options;
  // Per-call timing and its log fields only when debug lines are written (hot path, batches).
  const debugCalls = logger.enabled?.('debug') ?? true;

  async function callMethod(method: string, rawParams: unknown, id: RequestId | undefined): Promise<{ result: unknown } | { error: JsonRpcErrorObject }> {
    if (!Object.hasOwn(methods, method)) return { error: methodNotFound(method) };
    const descriptor = methods[method]!;
    if (rawParams !== undefined && !Array.isArray(rawParams)) {
      return { error: invalidParams('params[0] (params): must be an array, by position') };
    }
    const normalized = normalizeParams(descriptor, (rawParams ?? []) as unknown[]);
    if (typeof normalized === 'string') return { error: invalidParams(normalized) };
    const problem = descriptor.validateParams(normalized);
    if (problem !== null) return { error: invalidParams(problem) };
    const handler = findHandler(handlers, descriptor.handler);
    if (handler === undefined) return { error: notImplemented(method) };
    const started = debugCalls ? performance.now() : 0;
    try {
      const result = await handler.apply(handlers, normalized);
      if (debugCalls) logger.debug('rpc call', { method, id, ms: Math.round(performance.now() - started) });
      return { result: result === undefined ? null : result };
    } catch (err) {
      const error = mapError(err);
      if (error.code === RpcErrorCode.INTERNAL_ERROR) logger.error('handler failed', { method, id, err });
      else if (debugCalls) logger.debug('rpc error', { method, id, code: error.code });
      return { error };
    }
  }

  async function answer(element: unknown): Promise<string | undefined> {
    if (typeof element !== 'object' || element === null || Array.isArray(element)) {
      return respond(null, { error: invalidRequest('not a request object') });
    }
    const request = element as Record<string, unknown>;
    const isNotification = !Object.hasOwn(request, 'id');
    const id = request.id;
    if (!isNotification && !isValidId(id)) return respond(null, { error: invalidRequest('id must be a string, number or null') });
    const replyId = isNotification ? null : (id as RequestId);
    if (request.jsonrpc !== '2.0') return respond(replyId, { error: invalidRequest('jsonrpc must be "2.0"') });
    if (typeof request.method !== 'string' || request.method === '') {
      return respond(replyId, { error: invalidRequest('method must be a non-empty string') });
    }
    const outcome = await callMethod(request.method, request.params, isNotification ? undefined : replyId);
    // JSON-RPC 2.0 §4.1: a notification is never answered, not even with an error.
    return isNotification ? undefined : respond(replyId, outcome);
  }

  function respond(id: RequestId, outcome: { result: unknown } | { error: JsonRpcErrorObject }): string {
    if ('error' in outcome) return JSON.stringify({ jsonrpc: '2.0', id, error: outcome.error });
    try {
      return JSON.stringify({ jsonrpc: '2.0', id, result: outcome.result });
    } catch (err) {
      logger.error('result not serializable', { id, err });
      return JSON.stringify({ jsonrpc: '2.0', id, error: internalError() });
    }
  }

  return async function dispatch(parsed: unknown): Promise<DispatchOutcome> {
    if (Array.isArray(parsed)) {
      if (parsed.length === 0) return wholeBodyError(invalidRequest('empty batch'));
      if (parsed.length > options.maxBatchSize) return wholeBodyError(batchTooLarge(options.maxBatchSize));
      // Elements run concurrently; Promise.all keeps request order in the answer.
      const answers = (await Promise.all(parsed.map(answer))).filter((a) => a !== undefined);
      return answers.length === 0 ? { status: 204, body: undefined } : { status: 200, body: `[${answers.join(',')}]` };
    }
    if (typeof parsed !== 'object' || parsed === null) return wholeBodyError(invalidRequest('body must be an object or an array'));
    const single = await answer(parsed);
    return single === undefined ? { status: 204, body: undefined } : { status: 200, body: single };
  };
}

/** A rejection of the whole body: HTTP 400 with one error, `id: null` (docs/OPERATIONS.md). */
export function wholeBodyError(error: JsonRpcErrorObject): DispatchOutcome {
  return { status: 400, body: JSON.stringify({ jsonrpc: '2.0', id: null, error }) };
}

function isValidId(id: unknown): boolean {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/**
 * Turns `null` optionals into `undefined` and drops trailing omitted ones (the Aztec client sends
 * `null` for an `undefined` argument, shared/wire/README.md); a missing required one is named.
 */
function normalizeParams(descriptor: MethodDescriptor, params: readonly unknown[]): unknown[] | string {
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

function findHandler(handlers: HandlerTable, name: string): ((...args: unknown[]) => unknown) | undefined {
  // `name` comes from the generated table, never from the request; still skip Object.prototype.
  if (name in Object.prototype) return undefined;
  const candidate = (handlers as Record<string, unknown>)[name];
  return typeof candidate === 'function' ? (candidate as (...args: unknown[]) => unknown) : undefined;
}
