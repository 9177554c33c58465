/**
 * `@l2node/client/public`: the typed client for openrpc.public.json (`createNodeClient`), its
 * types and error catalogue, and guards that type a rejected call's `code` and `data`.
 * @module
 */
import { ErrorCode, type ErrorData } from '../generated/public/errors.ts';
import { errorGuards, type AnyCatalogueError, type CatalogueError } from './typed-errors.ts';

export type * from '../generated/public/types.ts';
export type { PublicHandlers } from '../generated/public/handlers.ts';
export { ErrorCode, ErrorMessage, type ErrorData, type ErrorName } from '../generated/public/errors.ts';
export { createNodeClient, JsonRpcError, type ClientOptions, type NodeClient } from '../generated/public/client.ts';

const guards = errorGuards<typeof ErrorCode, ErrorData>(ErrorCode);

/** A public-API error narrowed to catalogue error `N` (`NodeError<'BLOCK_NOT_YET_SYNCED'>`). */
export type NodeError<N extends keyof typeof ErrorCode> = CatalogueError<typeof ErrorCode, ErrorData, N>;
/** Any public-API catalogue error; `switch (err.code)` narrows `err.data`. */
export type AnyNodeError = AnyCatalogueError<typeof ErrorCode, ErrorData>;
/** True when `error` is public catalogue error `name`: `if (isNodeError(e, 'BLOCK_NOT_YET_SYNCED')) e.data.latest`. */
export const isNodeError: <N extends keyof typeof ErrorCode>(error: unknown, name: N) => error is NodeError<N> =
  guards.is;
/** True when `error` carries any code of the public catalogue. */
export const isAnyNodeError: (error: unknown) => error is AnyNodeError = guards.isAny;
