/**
 * `@l2node/client/admin`: the typed client for openrpc.admin.json (`createNodeAdminClient`, API key
 * required), its types and error catalogue, and guards that type a rejected call's `code` and `data`.
 * @module
 */
import { ErrorCode, type ErrorData } from '../generated/admin/errors.ts';
import { errorGuards, type AnyCatalogueError, type CatalogueError } from './typed-errors.ts';

export type * from '../generated/admin/types.ts';
export type { AdminHandlers } from '../generated/admin/handlers.ts';
export { ErrorCode, ErrorMessage, type ErrorData, type ErrorName } from '../generated/admin/errors.ts';
export {
  createNodeAdminClient,
  JsonRpcError,
  type AdminClientOptions,
  type ClientOptions,
  type NodeAdminClient,
} from '../generated/admin/client.ts';

const guards = errorGuards<typeof ErrorCode, ErrorData>(ErrorCode);

/** An admin-API error narrowed to catalogue error `N`. */
export type NodeAdminError<N extends keyof typeof ErrorCode> = CatalogueError<typeof ErrorCode, ErrorData, N>;
/** Any admin-API catalogue error; `switch (err.code)` narrows `err.data`. */
export type AnyNodeAdminError = AnyCatalogueError<typeof ErrorCode, ErrorData>;
/** True when `error` is admin catalogue error `name`. */
export const isNodeAdminError: <N extends keyof typeof ErrorCode>(
  error: unknown,
  name: N,
) => error is NodeAdminError<N> = guards.is;
/** True when `error` carries any code of the admin catalogue. */
export const isAnyNodeAdminError: (error: unknown) => error is AnyNodeAdminError = guards.isAny;
