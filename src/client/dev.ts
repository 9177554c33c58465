/**
 * `@l2node/client/dev`: the typed client for openrpc.dev.json (`createDevClient`, served on the
 * admin port with the admin key), its types and error catalogue.
 * @module
 */
import { ErrorCode, type ErrorData } from '../generated/dev/errors.ts';
import { errorGuards, type CatalogueError } from './typed-errors.ts';

export type * from '../generated/dev/types.ts';
export type { DevHandlers } from '../generated/dev/handlers.ts';
export { ErrorCode, ErrorMessage, type ErrorData, type ErrorName } from '../generated/dev/errors.ts';
export {
  createDevClient,
  JsonRpcError,
  type AdminClientOptions,
  type ClientOptions,
  type DevClient,
} from '../generated/dev/client.ts';

/** A dev-API error narrowed to catalogue error `N`. */
export type DevError<N extends keyof typeof ErrorCode> = CatalogueError<typeof ErrorCode, ErrorData, N>;
/** True when `error` is dev catalogue error `name`. */
export const isDevError: <N extends keyof typeof ErrorCode>(error: unknown, name: N) => error is DevError<N> =
  errorGuards<typeof ErrorCode, ErrorData>(ErrorCode).is;
