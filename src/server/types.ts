/**
 * The shapes the server is given: a method table entry (structurally the generated
 * `MethodDescriptor`, docs/ARCHITECTURE.md; the server does not import generated code), the
 * handler object, limits, logger and health provider.
 * @module
 */

/** One method of a surface, as the generated `methods.ts` describes it. */
export interface MethodDescriptor {
  readonly name: string;
  readonly handler: string;
  readonly params: readonly { readonly name: string; readonly required: boolean }[];
  /** Normalises `params` in place (unknown members removed, hex lower-cased) as the document says. */
  validateParams(params: unknown[]): string | null;
  validateResult(result: unknown): string | null;
  readonly errors: readonly number[];
  readonly deprecated: boolean;
  readonly extension: boolean;
}

/** Handlers keyed by `MethodDescriptor.handler`; a missing one answers -32001. */
export type HandlerTable = object;

/** Request limits. */
export interface ServerLimits {
  readonly maxBodyBytes: number;
  readonly maxBatchSize: number;
}

/** Structured fields attached to a log line. */
export type LogFields = Readonly<Record<string, unknown>>;

/** A JSON-lines logger. */
export interface Logger {
  trace(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  fatal(msg: string, fields?: LogFields): void;
  /** Whether lines at `level` are written; lets hot paths skip building fields for dropped lines. */
  enabled?(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'): boolean;
}

/** What `GET /status` reports; `healthy: false` answers 503. */
export interface HealthReport {
  readonly healthy: boolean;
  readonly version: string;
  readonly syncState: string;
  readonly [extra: string]: unknown;
}

/** Called on every `GET /status`. */
export type HealthProvider = () => HealthReport | Promise<HealthReport>;

/** Decides whether a request may reach the admin surface; given the request headers only. */
export type AuthCheck = (headers: Readonly<Record<string, string | string[] | undefined>>) => boolean;

/**
 * Counts and times what one JSON-RPC port does (the metrics, src/impl/metrics). The server takes
 * one handle per method of its table when it is built, so a call costs a field read, no lookup.
 */
export interface RpcObserver {
  /** The handle of a method of this port's table; `undefined` for every name not in it (one label, bounded). */
  method(name: string | undefined): RpcMethodObserver;
  /** A JSON-RPC batch of `size` requests arrived. */
  batch(size: number): void;
  /** An HTTP answer was sent with `status`. */
  responded(status: number): void;
}

/** One method's counters. */
export interface RpcMethodObserver {
  /** A call begins (counted in flight); returns its start time for `done`. */
  start(): number;
  /** The call that began at `started` ended: `code` 0 for a result, else its JSON-RPC error code. */
  done(started: number, code: number): void;
}
