/**
 * Typed JSON-RPC errors for the client package: a surface's generated `ErrorCode` and `ErrorData`
 * (its `components/errors` and `x-errors` data schemas) turn a `JsonRpcError` into a union whose
 * `code` narrows `data`.
 * @module
 */
import { JsonRpcError } from '../generated/runtime/client.ts';

/** A JsonRpcError whose `code` is catalogue error `N`'s and whose `data` is that error's data type. */
export type CatalogueError<
  Codes extends Readonly<Record<string, number>>,
  Data extends { [K in keyof Codes]: unknown },
  N extends keyof Codes,
> = JsonRpcError & {
  readonly code: Codes[N];
  readonly data: Data[N];
};

/** One member per catalogue error: `switch (err.code)` narrows `err.data`. */
export type AnyCatalogueError<
  Codes extends Readonly<Record<string, number>>,
  Data extends { [K in keyof Codes]: unknown },
> = {
  [N in keyof Codes]: CatalogueError<Codes, Data, N>;
}[keyof Codes];

/** The two guards a surface exports, typed by its catalogue. */
export interface ErrorGuards<
  Codes extends Readonly<Record<string, number>>,
  Data extends { [K in keyof Codes]: unknown },
> {
  /** True when `error` is catalogue error `name` (by code); narrows `code` and `data`. */
  is<N extends keyof Codes>(error: unknown, name: N): error is CatalogueError<Codes, Data, N>;
  /** True when `error` is a JsonRpcError with any code of this catalogue. */
  isAny(error: unknown): error is AnyCatalogueError<Codes, Data>;
}

/** Builds a surface's guards from its generated `ErrorCode` (its `ErrorData` type is the type argument). */
export function errorGuards<
  Codes extends Readonly<Record<string, number>>,
  Data extends { [K in keyof Codes]: unknown },
>(codes: Codes): ErrorGuards<Codes, Data> {
  const known = new Set<number>(Object.values(codes));
  return {
    is: <N extends keyof Codes>(error: unknown, name: N): error is CatalogueError<Codes, Data, N> =>
      error instanceof JsonRpcError && error.code === codes[name],
    isAny: (error: unknown): error is AnyCatalogueError<Codes, Data> =>
      error instanceof JsonRpcError && known.has(error.code),
  };
}
