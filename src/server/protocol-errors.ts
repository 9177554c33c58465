/**
 * Protocol errors of JSON-RPC 2.0 and of this server (-32700, -32600…-32603, -32000, -32001),
 * with the messages sent on the wire.
 * @module
 */
import {
  INTERNAL_ERROR_MESSAGE,
  InvalidParamsError,
  NotImplementedError,
  RpcErrorCode,
  UnauthorizedError,
} from '../impl/rpc/errors.ts';
import type { JsonRpcErrorObject } from '../impl/rpc/errors.ts';

/** -32700: the body is not JSON. */
export function parseError(detail: string): JsonRpcErrorObject {
  return { code: RpcErrorCode.PARSE_ERROR, message: `Parse error: ${detail}` };
}

/** -32600: the body or an element is not a JSON-RPC 2.0 request (`Invalid Request: <detail>`, JSON-RPC 2.0 wording). */
export function invalidRequest(detail: string): JsonRpcErrorObject {
  return { code: RpcErrorCode.INVALID_REQUEST, message: `Invalid Request: ${detail}` };
}

/** -32600 for a batch above the limit; the detail is worded as the real Aztec server words it. */
export function batchTooLarge(max: number): JsonRpcErrorObject {
  return invalidRequest(`Batch request exceeds maximum allowed size of ${max}`);
}

/** -32601: no such method on this port. */
export function methodNotFound(method: string): JsonRpcErrorObject {
  return { code: RpcErrorCode.METHOD_NOT_FOUND, message: `Method not found: ${method}` };
}

const PARAM_PROBLEM = /^params\[(\d+)\] \(([^)]*)\): (.*)$/s;

/**
 * -32602: the params break the method's schema. `detail` is the validator's message,
 * `params[1] (limit): must be <= 100`, sent as it is; `data` repeats it as `{index, param, rule}`
 * (InvalidParamsError). A detail in another form (none is produced today) is a rule about the
 * params array as a whole: `params[0] (params): <detail>`.
 */
export function invalidParams(detail: string): JsonRpcErrorObject {
  const match = PARAM_PROBLEM.exec(detail);
  const err =
    match === null
      ? new InvalidParamsError(0, 'params', detail)
      : new InvalidParamsError(Number(match[1]), match[2]!, match[3]!);
  return { code: err.code, message: err.message, data: err.data };
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
