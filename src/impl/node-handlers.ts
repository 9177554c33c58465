/**
 * The engine side of the public handlers' dependencies, as every role builds them from its engine
 * (full-node.ts, reader/reader-node.ts): the reads, the node's status, and the registries.
 * @module
 */
import type { EngineReads } from './engine.ts';
import type { FunctionSignatureRegistry } from './contracts/function-selector.ts';
import type { EngineHandlerDeps } from './rpc/public/index.ts';
import type { SetupAllowList } from './setup-allow-list.ts';

/** What differs between roles: readiness, the ENR (p2p), the world state as reported, the contract index. */
export interface RoleHandlerParts {
  isReady(): Promise<boolean>;
  getEncodedEnr(): string | undefined;
  readonly signatures: FunctionSignatureRegistry;
  readonly allowList: SetupAllowList;
  /** The world state as this role reports it (default: the engine's). */
  readonly worldState?: EngineHandlerDeps['worldState'];
  /** Serve node_getContract(Class) from the engine's contract index. */
  readonly contracts: boolean;
}

/** The public handlers' engine dependencies over `engine`. */
export function engineHandlerDeps(engine: EngineReads, role: RoleHandlerParts): EngineHandlerDeps {
  return {
    chain: engine.chain,
    checkpoints: engine.checkpoints,
    worldState: role.worldState ?? engine.worldState,
    l1: engine.l1,
    protocolContractAddresses: engine.protocolContractAddresses,
    realProofs: false,
    getCurrentMinFees: () => engine.getCurrentMinFees(),
    isReady: role.isReady,
    getEncodedEnr: role.getEncodedEnr,
    signatures: role.signatures,
    allowList: () => role.allowList.list(),
    ...(role.contracts && { contracts: engine.contracts }),
  };
}
