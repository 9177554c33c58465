/**
 * Node information handlers that need only configuration and package metadata (SPEC §4.9).
 * The rest of the domain (`node_getNodeInfo`, `node_isReady`, …) needs engine parts and stays
 * absent, so the server answers -32001 for it rather than a made-up value.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';

/** What these handlers read. */
export interface NodeInfoDeps {
  readonly nodeVersion: string;
  readonly rollupVersion: number;
  readonly l1ChainId: number;
}

/** The node-info handlers this module serves. */
export type NodeInfoHandlers = Pick<PublicHandlers, 'getNodeVersion' | 'getVersion' | 'getChainId'>;

/** Creates the node-info handlers over configuration. */
export function createNodeInfoHandlers(deps: NodeInfoDeps): NodeInfoHandlers {
  return {
    /** Handler for `node_getNodeVersion`: the package version. */
    async getNodeVersion() {
      return deps.nodeVersion;
    },
    /** Handler for `node_getVersion`: the rollup protocol version from configuration. */
    async getVersion() {
      return deps.rollupVersion;
    },
    /** Handler for `node_getChainId`: the L1 chain id from configuration. */
    async getChainId() {
      return deps.l1ChainId;
    },
  };
}
