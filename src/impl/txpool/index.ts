/**
 * The mempool's public surface: the pool, its rules' errors, the chain view it reads and the
 * node tx validator.
 * @module
 */
export { TxPool, DEFAULT_TX_POOL_CONFIG } from './tx-pool.ts';
export type { TxPoolConfig, TxPoolDeps, PoolTxStatus, AddOutcome } from './tx-pool.ts';
export { PoolRejection, PoolNotRunning, POOL_REJECTION } from './errors.ts';
export type { PoolRejectionCode } from './errors.ts';
export { createEngineChainView } from './chain-view.ts';
export type { ChainView, EngineChainParts } from './chain-view.ts';
export { createNodeTxValidator, ACCEPT_ALL_PROOFS, DEFAULT_TX_VALIDATOR_CONFIG } from './tx-validator.ts';
export type {
  NodeTxValidator,
  ProofVerifier,
  TxValidatorConfig,
  TxValidatorDeps,
  ValidateOptions,
} from './tx-validator.ts';
export { DROP_REASON } from './pool-rules.ts';
export type { Eviction } from './pool-rules.ts';
export { comparePriority, minimumPriceBumpFee } from './priority.ts';
