/**
 * Protocol errors of JSON-RPC 2.0 and of this server (-32700, -32600…-32603, -32000, -32001),
 * with the messages sent on the wire.
 * @module
 */
import { INTERNAL_ERROR_MESSAGE, NotImplementedError, RpcErrorCode, UnauthorizedError } from '../impl/rpc/errors.ts';
import type { JsonRpcErrorObject } from '../impl/rpc/errors.ts';

/** -32700: the body is not JSON. */
export function parseError(detail: string): JsonRpcErrorObject {
  return { code: RpcErrorCode.PARSE_ERROR, message: `Parse error: ${detail}` };
}

/** -32600: the body or an element is not a JSON-RPC 2.0 request. */
export function invalidRequest(detail?: string): JsonRpcErrorObject {
  return { code: RpcErrorCode.INVALID_REQUEST, message: detail === undefined ? 'Invalid Request' : `Invalid Request: ${detail}` };
}

/** -32600 for a batch above the limit, worded as the real Aztec server words it. */
export function batchTooLarge(max: number): JsonRpcErrorObject {
  return { code: RpcErrorCode.INVALID_REQUEST, message: `Batch request exceeds maximum allowed size of ${max}` };
}

/** -32601: no such method on this port. */
export function methodNotFound(method: string): JsonRpcErrorObject {
  return { code: RpcErrorCode.METHOD_NOT_FOUND, message: `Method not found: ${method}` };
}

const PARAM_PROBLEM = /^params\[(\d+)\] \(([^)]*)\): (.*)$/s;

/**
 * -32602: the params break the method's schema. `detail` is the validator's message,
 * `params[1] (limit): must be <= 100`; `data` repeats it as `{param, index, rule}`.
 */
export function invalidParams(detail: string): JsonRpcErrorObject {
  const match = PARAM_PROBLEM.exec(detail);
  const message = `Invalid params: ${detail}`;
  if (match === null) return { code: RpcErrorCode.INVALID_PARAMS, message };
  return { code: RpcErrorCode.INVALID_PARAMS, message, data: { param: match[2], index: Number(match[1]), rule: match[3] } };
}

/** -32603: something failed inside; the cause is in the log, not on the wire. */
export function internalError(): JsonRpcErrorObject {
  return { code: RpcErrorCode.INTERNAL_ERROR, message: INTERNAL_ERROR_MESSAGE };
}

/** -32001: the method exists but no handler serves it yet. */
export function notImplemented(method: string): JsonRpcErrorObject {
  const err = new NotImplementedError(method);
  return { code: err.code, message: err.message, data: err.data };
}

/** The exact 401 body of the real Aztec server (reference §3.4). */
export const UNAUTHORIZED_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: null,
  error: { code: UnauthorizedError.code, message: new UnauthorizedError().message },
});
