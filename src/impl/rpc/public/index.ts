/**
 * The public (`node_`) handler object, composed from one handler module per domain (the method
 * `tags`). Typed as the generated interface, so a missing method fails the build; a domain a role
 * does not have (a reader's simulation, a node without a mempool) is stated with
 * `notServedByThisRole` (-32001 naming the method). The validator stats come from the admin side's
 * slot record (src/impl/validators/handlers.ts), which src/main.ts adds to this set.
 * @module
 */
import { publicMethodNames, type PublicHandlers } from '../../../generated/public/handlers.ts';
import type { ValidatorHandlers } from '../../validators/handlers.ts';
import { notServedByThisRole } from '../not-served.ts';
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
import type { NodeInfoDeps, NodeStatusDeps, NodeStatusHandlers } from './node-info.ts';
import { createReceiptHandlers } from './receipts.ts';
import type { ReceiptHandlers } from './receipts.ts';
import { createSimulationHandlers } from './simulation.ts';
import type { SimulationDeps } from './simulation.ts';
import { createStateHandlers } from './state.ts';
import type { StateHandlers } from './state.ts';
import { createTransactionHandlers } from './transactions.ts';
import type { TransactionDeps, TransactionHandlers } from './transactions.ts';
import { createTreeHandlers } from './trees.ts';
import type { TreeHandlers } from './trees.ts';
import type { ChainReader, CheckpointReader, WorldStateReader } from './block-param.ts';

/**
 * The engine parts the chain-facing domains read (one object for all of them), from the engine's read
 * facade (EngineReads): `chain`, `checkpoints`, `l1` and `worldState` (receipts: engine.chain, whose
 * status comes from the pool, txpool/tx-status.ts), plus node status, signatures and allow-list.
 */
export interface EngineHandlerDeps
  extends Omit<NodeStatusDeps, keyof NodeInfoDeps | 'l1'>,
    DebugDeps,
    Omit<CheckpointDeps, 'chain' | 'checkpoints' | 'l1'> {
  readonly chain: ChainReader;
  readonly checkpoints: CheckpointReader;
  readonly worldState: WorldStateReader;
  readonly l1: CheckpointDeps['l1'] & NodeStatusDeps['l1'];
  /** The contract index (engine.contracts); without it node_getContract(Class) are not served. */
  readonly contracts?: ContractDeps['contracts'];
}

/** What the public handlers are built from. */
export interface PublicHandlerDeps extends NodeInfoDeps {
  readonly engine: EngineHandlerDeps;
  /** The mempool and the node's tx validator; without them the `transactions` tag is not served. */
  readonly transactions?: TransactionDeps;
  /** The engine and VM settings of node_simulatePublicCalls; without them (a reader) it is not served. */
  readonly simulation?: SimulationDeps;
}

/** The chain-, state- and node-backed domains (over the engine parts). */
export type EngineHandlers = BlockHandlers &
  CheckpointHandlers &
  ReceiptHandlers &
  StateHandlers &
  TreeHandlers &
  MessageHandlers &
  LogHandlers &
  NodeStatusHandlers &
  ContractHandlers &
  DebugHandlers;

/**
 * Every public method but the validator stats (served over the admin side's slot record,
 * src/impl/validators/handlers.ts): what a node assembles before its admin side opens.
 */
export type PublicHandlerSet = Omit<PublicHandlers, keyof ValidatorHandlers>;

const TRANSACTION_METHODS = [
  'sendTx',
  'isValidTx',
  'getPendingTxs',
  'getPendingTxCount',
  'getTxByHash',
  'getTxsByHash',
  'getMaxPriorityFees',
] as const satisfies readonly (keyof TransactionHandlers)[];

/** The public methods a role states it does not serve. */
const notServed = notServedByThisRole<PublicHandlers>(publicMethodNames);

/** Creates the public handler object: every method, each served or stated as not served by this role. */
export function createPublicHandlers(deps: PublicHandlerDeps): PublicHandlerSet {
  return {
    ...createNodeInfoHandlers(deps),
    ...createEngineHandlers(deps, deps.engine),
    ...(deps.transactions === undefined
      ? notServed(TRANSACTION_METHODS)
      : createTransactionHandlers(deps.transactions)),
    ...(deps.simulation === undefined ? notServed(['simulatePublicCalls']) : createSimulationHandlers(deps.simulation)),
  };
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
    ...(engine.contracts === undefined
      ? notServed(['getContractClass', 'getContract'])
      : createContractHandlers({ contracts: engine.contracts })),
    ...createDebugHandlers(engine),
  };
}
