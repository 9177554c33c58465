/**
 * `@l2node/client`: the public client and everything of `./public`, plus the admin and dev
 * client factories and their error guards (their types live in `./admin` and `./dev`, where names
 * cannot collide with the public ones).
 * @module
 */
export * from './public.ts';
export {
  createNodeAdminClient,
  isNodeAdminError,
  isAnyNodeAdminError,
  type AdminClientOptions,
  type NodeAdminClient,
  type NodeAdminError,
  type AnyNodeAdminError,
} from './admin.ts';
export { createDevClient, isDevError, type DevClient, type DevError } from './dev.ts';
