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
  validateParams(params: readonly unknown[]): string | null;
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
