/**
 * Node information handlers (tag `node-info`, SPEC §4.9). The first three need only configuration
 * and package metadata; the rest read engine parts (L1 addresses, protocol contracts, fees,
 * readiness, ENR) and are served once an engine is passed in.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import type { GasFees } from '../../chain/types.ts';
import type { L1Chain } from '../../l1/l1-chain.ts';
import { toWireGasFees } from '../../encoding/wire/headers.ts';
import { toWireL1ContractAddresses, toWireProtocolContractAddresses } from '../../encoding/wire/node-info.ts';
import type { ProtocolContractAddresses } from '../../encoding/wire/node-info.ts';

/** What the configuration-only handlers read. */
export interface NodeInfoDeps {
  readonly nodeVersion: string;
  readonly rollupVersion: number;
  readonly l1ChainId: number;
}

/** The configuration-only node-info handlers. */
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

/** What the engine-backed node-info handlers read. */
export interface NodeStatusDeps extends NodeInfoDeps {
  /** `engine.l1` (its contract addresses). */
  readonly l1: Pick<L1Chain, 'addresses'>;
  /** `engine.protocolContractAddresses`. */
  readonly protocolContractAddresses: ProtocolContractAddresses;
  /** Whether the node verifies real proofs (configuration). */
  readonly realProofs: boolean;
  /** `engine.getCurrentMinFees`. */
  getCurrentMinFees(): GasFees;
  /** True when the mempool / P2P service runs and node_sendTx can accept txs. */
  isReady(): boolean | Promise<boolean>;
  /** The node's `enr:…` record; undefined while P2P is disabled or not wired. */
  getEncodedEnr(): string | undefined;
}

/** The engine-backed node-info handlers. */
export type NodeStatusHandlers = Pick<
  PublicHandlers,
  | 'getNodeInfo'
  | 'getL1ContractAddresses'
  | 'getProtocolContractAddresses'
  | 'getCurrentMinFees'
  | 'isReady'
  | 'getEncodedEnr'
>;

/** Creates the engine-backed node-info handlers. */
export function createNodeStatusHandlers(deps: NodeStatusDeps): NodeStatusHandlers {
  return {
    /** Handler for `node_getNodeInfo`: `enr` omitted when P2P is disabled. */
    async getNodeInfo() {
      const enr = deps.getEncodedEnr();
      return {
        nodeVersion: deps.nodeVersion,
        l1ChainId: deps.l1ChainId,
        rollupVersion: deps.rollupVersion,
        ...(enr !== undefined && { enr }),
        l1ContractAddresses: toWireL1ContractAddresses(deps.l1.addresses),
        protocolContractAddresses: toWireProtocolContractAddresses(deps.protocolContractAddresses),
        realProofs: deps.realProofs,
      };
    },
    /** Handler for `node_getL1ContractAddresses`. */
    async getL1ContractAddresses() {
      return toWireL1ContractAddresses(deps.l1.addresses);
    },
    /** Handler for `node_getProtocolContractAddresses`. */
    async getProtocolContractAddresses() {
      return toWireProtocolContractAddresses(deps.protocolContractAddresses);
    },
    /** Handler for `node_getCurrentMinFees`: from the L1 fee model and the chain's congestion. */
    async getCurrentMinFees() {
      return toWireGasFees(deps.getCurrentMinFees());
    },
    /** Handler for `node_isReady`: readiness of tx intake, not of sync. */
    async isReady() {
      return deps.isReady();
    },
    /** Handler for `node_getEncodedEnr`: `null` while P2P is disabled. */
    async getEncodedEnr() {
      return deps.getEncodedEnr() ?? null;
    },
  };
}
