/**
 * The HTTP side of a JSON-RPC port on node:http: Host and origin allow-lists first (403), routing
 * (`POST /`, `GET /status`, `OPTIONS`), admin auth before the body, 405/415/413 with JSON bodies, body size counted while streaming,
 * and a graceful close that lets in-flight requests finish.
 * @module
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonRpcErrorObject } from '../impl/rpc/errors.ts';
import { NodeNotReadyError, RpcErrorCode } from '../impl/rpc/errors.ts';
import { answerPreflight, createCorsPolicy } from './cors.ts';
import { createDispatcher, wholeBodyError } from './json-rpc.ts';
import type { DispatchOutcome } from './json-rpc.ts';
import { internalError, parseError, UNAUTHORIZED_BODY } from './protocol-errors.ts';
import { renderStatus } from './status.ts';
import type {
  AuthCheck,
  HandlerTable,
  HealthProvider,
  Logger,
  MethodDescriptor,
  RpcObserver,
  ServerLimits,
} from './types.ts';
import { createHostCheck, defaultAllowedHosts } from './vhosts.ts';

/** Everything one port serves. */
export interface RpcServerOptions {
  readonly methods: Readonly<Record<string, MethodDescriptor>>;
  readonly handlers: HandlerTable;
  /** When given, every request except `GET /status` and `OPTIONS` must pass it (admin port). */
  readonly auth?: AuthCheck;
  readonly limits: ServerLimits;
  readonly logger: Logger;
  readonly health?: HealthProvider;
  /** Origins browsers may call from: `*`, or exact origins; none (the default) = no CORS at all. */
  readonly corsOrigins?: readonly string[];
  /** Host header names served (`*` = any); default: the loopback names and the bound address. */
  readonly allowedHosts?: readonly string[];
  /** The flags that set the two lists, named in a 403 so the operator knows what to change. */
  readonly allowListFlags?: { readonly vhosts: string; readonly corsOrigin: string };
  /** Sent on every answer, as `[name, value, …]` pairs: the `x-aztec-*` version headers (./version-headers.ts). */
  readonly responseHeaders?: readonly string[];
  readonly mapError?: (err: unknown) => JsonRpcErrorObject;
  /** Metrics of this port (calls, latency, batches, HTTP statuses); none when metrics are off. */
  readonly observer?: RpcObserver;
}

/** A started-or-not JSON-RPC port. */
export interface RpcServer {
  readonly server: Server;
  /** Starts listening; resolves with the bound address (port 0 picks a free one). */
  listen(port: number, host: string): Promise<{ host: string; port: number }>;
  /** Stops accepting, waits up to `graceMs` for in-flight requests, then drops connections. */
  close(graceMs?: number): Promise<void>;
}

const JSON_TYPE = 'application/json';
/** How often, while closing, connections that have become idle are dropped. */
const IDLE_SWEEP_MS = 20;

/** Creates a JSON-RPC 2.0 server for one surface. */
export function createRpcServer(options: RpcServerOptions): RpcServer {
  const { limits, logger, observer } = options;
  const cors = createCorsPolicy(options.corsOrigins ?? []);
  const flags = options.allowListFlags ?? { vhosts: '--vhosts', corsOrigin: '--cors-origin' };
  // Set by listen() when no list is given: the default depends on the address bound.
  let hostAllowed = createHostCheck(options.allowedHosts ?? []);
  const health = options.health ?? (() => ({ healthy: true, version: 'unknown', syncState: 'unknown' }));
  const dispatch = createDispatcher({ ...options, maxBatchSize: limits.maxBatchSize });
  const startedAt = Date.now();
  let closing = false;
  // The x-aztec-* version headers every answer carries, as 4.1.2 sends them (also on errors).
  const versionHeaders = options.responseHeaders ?? [];

  function route(req: IncomingMessage, res: ServerResponse): void {
    // Before anything else, the key included: a DNS-rebinding page or a foreign origin learns nothing.
    if (!hostAllowed(req.headers.host))
      return reject(
        req,
        res,
        403,
        `Forbidden: Host ${quoted(req.headers.host)} is not allowed on this port (${flags.vhosts})`,
      );
    const origin = req.headers.origin;
    if (!cors.allows(origin))
      return reject(
        req,
        res,
        403,
        `Forbidden: origin ${quoted(origin)} is not allowed on this port (${flags.corsOrigin})`,
      );
    if (req.method === 'OPTIONS') return answerPreflight(res, [...cors.headerPairs(origin), ...versionHeaders]);
    const path = pathOf(req.url);
    if (path === '/status') {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return reject(req, res, 405, 'Method Not Allowed: use GET /status', 'GET, HEAD, OPTIONS');
      renderStatus(health, startedAt, closing).then(
        ({ status, body }) => send(res, status, body),
        (err: unknown) => failRequest(res, err),
      );
      return;
    }
    // Aztec checks the key before anything else, so an unauthenticated caller learns nothing.
    if (options.auth !== undefined && !options.auth(req.headers)) return rejectRaw(req, res, 401, UNAUTHORIZED_BODY);
    if (closing) {
      // A request that arrives after close() began (on a kept-alive connection) is not served.
      const error = new NodeNotReadyError('shutting down');
      return rejectRaw(
        req,
        res,
        503,
        JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: error.code, message: error.message, data: error.data },
        }),
      );
    }
    if (path !== '/') return reject(req, res, 404, 'Not Found: JSON-RPC is served at POST /');
    if (req.method !== 'POST') return reject(req, res, 405, 'Method Not Allowed: use POST', 'POST, OPTIONS');
    if (mediaType(req.headers['content-type']) !== JSON_TYPE) {
      return reject(req, res, 415, `Unsupported Media Type: Content-Type must be ${JSON_TYPE}`);
    }
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    if (declared > limits.maxBodyBytes) return tooLarge(req, res);
    readBody(req, limits.maxBodyBytes, (err, body) => {
      if (err !== undefined) return failRequest(res, err);
      if (body === undefined) return tooLarge(req, res);
      try {
        answerBody(res, body);
      } catch (thrown) {
        failRequest(res, thrown);
      }
    });
  }

  function answerBody(res: ServerResponse, body: Buffer): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch (err) {
      const outcome = wholeBodyError(parseError((err as Error).message));
      return send(res, outcome.status, outcome.body!);
    }
    const outcome = dispatch(parsed);
    if (outcome instanceof Promise)
      outcome.then(
        (o) => reply(res, o),
        (err: unknown) => failRequest(res, err),
      );
    else reply(res, outcome);
  }

  function reply(res: ServerResponse, outcome: DispatchOutcome): void {
    if (outcome.body !== undefined) return send(res, outcome.status, outcome.body);
    observer?.responded(outcome.status);
    const headers = [...cors.headerPairs(res.req.headers.origin), ...versionHeaders];
    res.writeHead(outcome.status, closing ? [...headers, 'connection', 'close'] : headers).end();
  }

  function failRequest(res: ServerResponse, err: unknown): void {
    logger.error('request failed', { err });
    if (!res.headersSent) send(res, 500, JSON.stringify({ jsonrpc: '2.0', id: null, error: internalError() }));
    else res.destroy();
  }

  function tooLarge(req: IncomingMessage, res: ServerResponse): void {
    reject(req, res, 413, `Payload Too Large: request body exceeds ${limits.maxBodyBytes} bytes`);
  }

  function send(res: ServerResponse, status: number, body: string): void {
    const headers = [
      ...cors.headerPairs(res.req.headers.origin),
      ...versionHeaders,
      'content-type',
      JSON_TYPE,
      'content-length',
      String(Buffer.byteLength(body)),
    ];
    // While closing, tell keep-alive clients not to reuse this connection.
    if (closing) headers.push('connection', 'close');
    observer?.responded(status);
    res.writeHead(status, headers).end(body);
  }

  /** Answers with a JSON error body carrying `error.message` (the Aztec client reads it, wire/README.md). */
  function reject(req: IncomingMessage, res: ServerResponse, status: number, message: string, allow?: string): void {
    if (allow !== undefined) res.setHeader('allow', allow);
    const code = status === 404 ? RpcErrorCode.METHOD_NOT_FOUND : RpcErrorCode.INVALID_REQUEST;
    rejectRaw(req, res, status, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
  }

  /** Sends an early answer without reading the body; the connection closes so the body is not parsed as a next request. */
  function rejectRaw(req: IncomingMessage, res: ServerResponse, status: number, body: string): void {
    if (!req.complete) res.setHeader('connection', 'close');
    send(res, status, body);
    req.resume();
  }

  const server = createServer((req, res) => {
    try {
      route(req, res);
    } catch (err) {
      failRequest(res, err);
    }
  });

  return {
    server,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          if (options.allowedHosts === undefined)
            hostAllowed = createHostCheck(defaultAllowedHosts(host, address.address));
          resolve({ host: address.address, port: address.port });
        });
      });
    },
    close(graceMs = 10_000) {
      closing = true;
      return new Promise((resolve) => {
        if (!server.listening) return resolve();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
        // A keep-alive connection busy when close() began becomes idle later; drop it soon after.
        const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
        sweep.unref();
        server.close(() => {
          clearTimeout(timer);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}

/**
 * Reads the body, counting bytes as they stream in; calls back once: with the body, with
 * `undefined` once the limit is passed, or with the stream's error.
 */
function readBody(req: IncomingMessage, maxBytes: number, done: (err: Error | undefined, body?: Buffer) => void): void {
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let settled = false;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      settled = true;
      req.off('data', onData);
      return done(undefined, undefined);
    }
    // A small request arrives in one chunk: keep it without an array or a copy.
    if (first === undefined) first = chunk;
    else (more ??= [first]).push(chunk);
  };
  req.on('data', onData);
  req.once('end', () => {
    if (settled) return;
    settled = true;
    done(undefined, more !== undefined ? Buffer.concat(more) : (first ?? Buffer.alloc(0)));
  });
  req.once('error', (err) => {
    if (settled) return;
    settled = true;
    done(err);
  });
}

/** A header value for an error message: quoted, and cut short (it is the caller's text). */
function quoted(value: string | undefined): string {
  return value === undefined ? '(none)' : JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  return q === -1 ? raw : raw.slice(0, q);
}

function mediaType(header: string | undefined): string {
  if (header === JSON_TYPE) return header; // the common case, without allocating
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}
