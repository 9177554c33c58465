/**
 * Test side of the public-tx builder (src/impl/tx/public-tx-builder.ts): the spec shape the
 * public VM tests write (one fee per gas, an L2 priority fee), a tx context read from a running
 * node (latest header, chain id, rollup version, twice the current minimum fees), a context for
 * in-memory engines that have no pool and so check no anchor, and the example token's deployment.
 * @module
 */

import { computeContractAddress } from '../../src/impl/contracts/contract-address.ts';
import { assembleToken } from '../../src/impl/contracts/examples/token.ts';
import { GRUMPKIN_INFINITY } from '../../src/impl/contracts/grumpkin.ts';
import type { ContractClass, ContractInstance } from '../../src/impl/contracts/registry-events.ts';
import { makeContractClass } from '../../src/impl/contracts/registry-events.ts';
import { DEFAULT_ENGINE_CONFIG } from '../../src/impl/engine.ts';
import { anchorHeaderFromWire, anchorHeaderOf } from '../../src/impl/tx/anchor-header.ts';
import type { BlockHeader, GasFees } from '../../src/impl/tx/index.ts';
import {
  buildPublicTx as buildTx,
  calldata,
  type PublicCall,
  type PublicTxOptions,
} from '../../src/impl/tx/public-tx-builder.ts';
import type { BuiltTx } from '../../src/impl/tx/tx-builder.ts';
import { emptyBlockHeader } from '../../src/impl/world-state/block-header.ts';

export { calldata };

/** One enqueued call: calldata[0] is the selector. */
export type CallSpec = PublicCall;

/**
 * What a built public tx contains: the builder's options without the chain context (a
 * `TxContext` gives it), with one fee per gas for both dimensions and an L2 priority fee.
 */
export type PublicTxSpec = Omit<PublicTxOptions, keyof TxContext | 'maxPriorityFeesPerGas'> & {
  /** Both dimensions; default the context's fees. */
  readonly maxFeePerGas?: bigint;
  /** L2 priority fee: orders txs in the pool and the dev tx source (higher first). */
  readonly priorityFee?: bigint;
};

/** What a tx commits to besides its effects: the chain, an anchor and the fees it offers. */
export interface TxContext {
  readonly chainId: bigint;
  readonly rollupVersion: bigint;
  readonly anchorBlockHeader: BlockHeader;
  readonly maxFeesPerGas: GasFees;
}

/** A built tx: decoded, its wire JSON and hash. */
export type BuiltPublicTx = BuiltTx;

const ZERO_SNAPSHOT = { root: 0n, nextAvailableLeafIndex: 0 };
/**
 * For in-memory engines fed through their tx source (no pool, so no anchor or fee check): the
 * engine defaults' chain id and version, an all-zero anchor and a high fee.
 */
export const IN_MEMORY_CONTEXT: TxContext = {
  chainId: BigInt(DEFAULT_ENGINE_CONFIG.l1ChainId),
  rollupVersion: BigInt(DEFAULT_ENGINE_CONFIG.rollupVersion),
  anchorBlockHeader: anchorHeaderOf(
    emptyBlockHeader({
      l1ToL2MessageTree: ZERO_SNAPSHOT,
      noteHashTree: ZERO_SNAPSHOT,
      nullifierTree: ZERO_SNAPSHOT,
      publicDataTree: ZERO_SNAPSHOT,
    }),
  ),
  maxFeesPerGas: { feePerDaGas: 10n ** 15n, feePerL2Gas: 10n ** 15n },
};

/** Builds a forPublic tx per `spec` in `context`. */
export function buildPublicTx(spec: PublicTxSpec, context: TxContext = IN_MEMORY_CONTEXT): BuiltPublicTx {
  const { maxFeePerGas, priorityFee, ...options } = spec;
  return buildTx({
    ...options,
    chainId: context.chainId,
    rollupVersion: context.rollupVersion,
    anchorBlockHeader: context.anchorBlockHeader,
    gasUsed: spec.gasUsed ?? {
      daGas: spec.teardownGasLimits?.daGas ?? 0,
      l2Gas: (spec.teardownGasLimits?.l2Gas ?? 0) + 20_000,
    },
    maxFeesPerGas:
      maxFeePerGas === undefined ? context.maxFeesPerGas : { feePerDaGas: maxFeePerGas, feePerL2Gas: maxFeePerGas },
    maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: priorityFee ?? 0n },
  });
}

/** The context a running node gives: its latest header as the anchor, twice its current minimum fees. */
export async function nodeTxContext(ok: (method: string, ...params: unknown[]) => Promise<any>): Promise<TxContext> {
  const [header, fees, chainId, version] = await Promise.all([
    ok('node_getBlockHeader', 'latest'),
    ok('node_getCurrentMinFees'),
    ok('node_getChainId'),
    ok('node_getVersion'),
  ]);
  return {
    chainId: BigInt(chainId),
    rollupVersion: BigInt(version),
    anchorBlockHeader: anchorHeaderFromWire(header),
    maxFeesPerGas: { feePerDaGas: BigInt(fees.feePerDaGas) * 2n, feePerL2Gas: BigInt(fees.feePerL2Gas) * 2n },
  };
}

/** The example token as a class and an instance with infinite public keys (deployer 0). */
export function exampleTokenDeployment(salt = 0x5a17n): {
  contractClass: ContractClass;
  instance: ContractInstance;
  signatures: readonly string[];
} {
  const program = assembleToken();
  const contractClass = makeContractClass({
    artifactHash: 0xa57n,
    privateFunctionsRoot: 0n,
    packedBytecode: program.bytecode,
  });
  const publicKeys = {
    masterNullifierPublicKey: GRUMPKIN_INFINITY,
    masterIncomingViewingPublicKey: GRUMPKIN_INFINITY,
    masterOutgoingViewingPublicKey: GRUMPKIN_INFINITY,
    masterTaggingPublicKey: GRUMPKIN_INFINITY,
  };
  const preimage = {
    salt,
    deployer: 0n,
    originalContractClassId: contractClass.id,
    initializationHash: 0n,
    publicKeys,
  };
  const instance: ContractInstance = {
    ...preimage,
    address: computeContractAddress(preimage),
    version: 1,
    currentContractClassId: contractClass.id,
  };
  return { contractClass, instance, signatures: program.signatures };
}
