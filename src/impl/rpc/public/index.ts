/**
 * The public (`node_`) handler object, composed from one handler module per domain (the method
 * `tags`). A method whose domain is not built yet is simply absent: the server answers -32001.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import { createBlockHandlers } from './blocks.ts';
import type { BlockHandlers } from './blocks.ts';
import { createCheckpointHandlers } from './checkpoints.ts';
import type { CheckpointDeps, CheckpointHandlers } from './checkpoints.ts';
import { createContractHandlers } from './contracts.ts';
import type { ContractDeps, ContractHandlers } from './contracts.ts';
import { createDebugHandlers } from './debug.ts';
import type { DebugDeps, DebugHandlers } from './debug.ts';
import { createLogHandlers } from './logs.ts';
import type { LogHandlers } from './logs.ts';
import { createMessageHandlers } from './messages.ts';
import type { MessageHandlers } from './messages.ts';
import { createNodeInfoHandlers, createNodeStatusHandlers } from './node-info.ts';
import type { NodeInfoDeps, NodeInfoHandlers, NodeStatusDeps, NodeStatusHandlers } from './node-info.ts';
import { createReceiptHandlers } from './receipts.ts';
import type { ReceiptHandlers } from './receipts.ts';
import { createSimulationHandlers } from './simulation.ts';
import type { SimulationDeps, SimulationHandlers } from './simulation.ts';
import { createStateHandlers } from './state.ts';
import type { StateHandlers } from './state.ts';
import { createTransactionHandlers } from './transactions.ts';
import type { TransactionDeps, TransactionHandlers } from './transactions.ts';
import { createTreeHandlers } from './trees.ts';
import type { TreeHandlers } from './trees.ts';
import { createValidatorHandlers } from './validators.ts';
import type { ValidatorHandlers } from './validators.ts';
import type { ChainReader, CheckpointReader, WorldStateReader } from './block-param.ts';

/**
 * The engine parts the chain-facing domains read (one object for all of them):
 * `chain` = engine.chain, `checkpoints` = engine.state.store, `l1` = engine.l1, `worldState` = the
 * real WorldState (receipts: engine.chain, whose status comes from the pool, txpool/tx-status.ts), plus node status, signatures and allow-list.
 */
export interface EngineHandlerDeps
  extends Omit<NodeStatusDeps, keyof NodeInfoDeps | 'l1'>,
    DebugDeps,
    Omit<CheckpointDeps, 'chain' | 'checkpoints' | 'l1'> {
  readonly chain: ChainReader;
  readonly checkpoints: CheckpointReader;
  readonly worldState: WorldStateReader;
  readonly l1: CheckpointDeps['l1'] & NodeStatusDeps['l1'];
  /** The contract index (engine.state.store.contracts); without it node_getContract(Class) answer -32001. */
  readonly contracts?: ContractDeps['contracts'];
}

/**
 * What the public handlers are built from; without `engine`, only configuration-backed methods
 * are served, and without `transactions` (the mempool and the node's tx validator) none of the
 * `transactions` tag.
 */
export interface PublicHandlerDeps extends NodeInfoDeps {
  readonly engine?: EngineHandlerDeps;
  readonly transactions?: TransactionDeps;
  /** The engine and VM settings of node_simulatePublicCalls (absent: -32001). */
  readonly simulation?: SimulationDeps;
}

/** The handlers served once an engine is given. */
export type EngineHandlers = BlockHandlers &
  CheckpointHandlers &
  ReceiptHandlers &
  StateHandlers &
  TreeHandlers &
  MessageHandlers &
  LogHandlers &
  NodeStatusHandlers &
  ContractHandlers &
  ValidatorHandlers &
  DebugHandlers;

/** The public handlers that exist so far. */
export type PublicHandlerSet = NodeInfoHandlers &
  Partial<EngineHandlers> &
  Partial<TransactionHandlers> &
  Partial<SimulationHandlers>;

/** Creates the public handler object. */
export function createPublicHandlers(deps: PublicHandlerDeps): PublicHandlerSet {
  // Partial until every domain exists; then `satisfies PublicHandlers` (STYLE: a missing handler is a compile error).
  return {
    ...createNodeInfoHandlers(deps),
    ...(deps.engine === undefined ? {} : createEngineHandlers(deps, deps.engine)),
    ...(deps.transactions === undefined ? {} : createTransactionHandlers(deps.transactions)),
    ...(deps.simulation === undefined ? {} : createSimulationHandlers(deps.simulation)),
  } satisfies Partial<PublicHandlers>;
}

/** The chain-, state- and node-backed domains over one set of engine parts. */
export function createEngineHandlers(config: NodeInfoDeps, engine: EngineHandlerDeps): EngineHandlers {
  return {
    ...createBlockHandlers(engine),
    ...createCheckpointHandlers(engine),
    ...createReceiptHandlers(engine),
    ...createStateHandlers(engine),
    ...createTreeHandlers(engine),
    ...createMessageHandlers(engine),
    ...createLogHandlers(engine),
    ...createNodeStatusHandlers({ ...config, ...engine }),
    ...createContractHandlers(engine.contracts === undefined ? undefined : { contracts: engine.contracts }),
    ...createValidatorHandlers(),
    ...createDebugHandlers(engine),
  } satisfies Partial<PublicHandlers>;
}
