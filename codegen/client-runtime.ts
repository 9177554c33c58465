/**
 * The transport emitted once as src/generated/runtime/client.ts and imported by each surface's
 * client.ts (generated code imports nothing from hand-written code, so this text is emitted).
 * @module
 */

/** Source text of JsonRpcError, ClientOptions and createCaller. */
export const CLIENT_RUNTIME = `/**
 * The JSON-RPC transport every generated client shares: JsonRpcError, ClientOptions and
 * createCaller (batches the calls made in one tick over global fetch).
 * @module
 */

/** A JSON-RPC error from the node (or an HTTP failure mapped to one), with its code and data. */
export class JsonRpcError extends Error {
  /** The JSON-RPC error code (see ErrorCode in each surface's errors.ts). */
  readonly code: number;
  /** The error's structured data, if any. */
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'JsonRpcError';
    this.code = code;
    this.data = data;
  }

  /** True when this error has the given code: \`err.is(ErrorCode.BLOCK_NOT_YET_SYNCED)\`. */
  is(code: number): boolean {
    return this.code === code;
  }
}

/** How the client talks to the node. */
export interface ClientOptions {
  /** Coalesce calls made in the same tick into one batch request (default true, like Aztec's client). */
  readonly batch?: boolean;
  /** Most calls per batch request (default 100, Aztec's limit). */
  readonly maxBatchSize?: number;
  /** Extra time to wait for more calls before sending a batch (default 0: the same tick only). */
  readonly batchWindowMs?: number;
  /** Extra HTTP headers for every request. */
  readonly headers?: Readonly<Record<string, string>>;
}

interface Pending {
  readonly request: { jsonrpc: '2.0'; id: number; method: string; params: unknown[] };
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Sends one call (batched) and resolves with its result. */
export type Caller = <R>(method: string, args: readonly unknown[]) => Promise<R>;

/** Builds the call function: queues calls and sends them as batches over global fetch. */
export function createCaller(url: string, options: ClientOptions): Caller {
  const batch = options.batch ?? true;
  const maxBatchSize = Math.max(1, options.maxBatchSize ?? 100);
  const headers = { 'content-type': 'application/json', ...options.headers };
  let nextId = 0;
  let queue: Pending[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = (): void => {
    const pending = queue;
    queue = [];
    timer = undefined;
    for (let i = 0; i < pending.length; i += maxBatchSize) void send(pending.slice(i, i + maxBatchSize));
  };

  const send = async (calls: Pending[]): Promise<void> => {
    try {
      const body = batch ? calls.map((c) => c.request) : calls[0].request;
      const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
      const payload: unknown = await response.json().catch(() => undefined);
      if (!response.ok) throw httpError(response.status, payload);
      settle(calls, Array.isArray(payload) ? payload : batch ? payload : [payload]);
    } catch (error) {
      for (const c of calls) c.reject(error);
    }
  };

  return <R>(method: string, args: readonly unknown[]): Promise<R> => {
    // Trailing omitted arguments are left out; an undefined in the middle is sent as null.
    const params = [...args];
    while (params.length > 0 && params[params.length - 1] === undefined) params.pop();
    const request = { jsonrpc: '2.0' as const, id: nextId++, method, params: params.map((p) => p ?? null) };
    return new Promise<R>((resolve, reject) => {
      queue.push({ request, resolve: resolve as (value: unknown) => void, reject });
      if (!batch) flush();
      else timer ??= setTimeout(flush, options.batchWindowMs ?? 0);
    });
  };
}

/** Resolves each call from its response: by position, checked by id, else looked up by id. */
function settle(calls: readonly Pending[], payload: unknown): void {
  if (!Array.isArray(payload)) {
    const error = (payload as { error?: unknown } | undefined)?.error;
    const failure = error !== undefined ? toError(error) : new JsonRpcError(-32000, 'Failed request: response is not a batch');
    for (const c of calls) c.reject(failure);
    return;
  }
  for (const [i, c] of calls.entries()) {
    const item = payload[i]?.id === c.request.id ? payload[i] : payload.find((r) => r?.id === c.request.id);
    if (item === undefined) c.reject(new JsonRpcError(-32001, \`RPC id mismatch: no response for id \${c.request.id}\`));
    else if (item.error !== undefined) c.reject(toError(item.error));
    else c.resolve(item.result ?? null);
  }
}

/** An HTTP error status; the body carries \`error.message\` (as the real server sends). */
function httpError(status: number, payload: unknown): JsonRpcError {
  const error = (payload as { error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'number' ? error.code : -32000;
  const message = typeof error?.message === 'string' ? error.message : \`HTTP \${status}\`;
  return new JsonRpcError(code, message, error?.data);
}

function toError(error: unknown): JsonRpcError {
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  return new JsonRpcError(typeof e.code === 'number' ? e.code : -32603, typeof e.message === 'string' ? e.message : 'Unknown error', e.data);
}
`;
