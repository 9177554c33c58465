/**
 * The public (`node_`) handler object, composed from one handler module per domain (the method
 * `tags`). A method whose domain is not built yet is simply absent: the server answers -32001.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import { createNodeInfoHandlers } from './node-info.ts';
import type { NodeInfoDeps, NodeInfoHandlers } from './node-info.ts';

/** What the public handlers are built from; engine parts join here as they are built. */
export interface PublicHandlerDeps extends NodeInfoDeps {}

/** The public handlers that exist so far. */
export type PublicHandlerSet = NodeInfoHandlers;

/** Creates the public handler object. */
export function createPublicHandlers(deps: PublicHandlerDeps): PublicHandlerSet {
  // Partial until every domain exists; then `satisfies PublicHandlers` (STYLE: a missing handler is a compile error).
  return {
    ...createNodeInfoHandlers(deps),
  } satisfies Partial<PublicHandlers>;
}
