/**
 * The shape of a built node and what it is built from: the contract between the role factories
 * (full-node.ts, reader/reader-node.ts, chain-import-file.ts; node.ts picks one) and what watches a
 * node (metrics, main). Kept apart from the factories so those modules import no cycle.
 * @module
 */
import type { Knex } from 'knex';
import type { Config } from '../config/options.ts';
import type { HealthReport, Logger } from '../server/types.ts';
import type { L2Block } from './chain/types.ts';
import type { Clock } from './chain/time.ts';
import type { FunctionSignatureRegistry } from './contracts/function-selector.ts';
import type { SyncSwitch } from './node-config/sync-control.ts';
import type { P2PService } from './p2p/index.ts';
import type { P2PObserver } from './p2p/types.ts';
import type { PublicHandlerSet } from './rpc/public/index.ts';
import type { SetupAllowList } from './setup-allow-list.ts';
import type { FollowerObserver, FollowerState, FollowerStatus } from './sync/follower.ts';
import type { TxPool, TxPoolObserver } from './txpool/tx-pool.ts';
import type { NodeTxValidator } from './txpool/tx-validator.ts';
import type { FundedAccount, ReadEngine } from './engine.ts';
import type { UnwoundTx } from './chain/rollback.ts';
import type { DatabasePoolView } from './reader/pool-view.ts';
import type { AdminParts } from './node-config/admin-parts.ts';

/** Where the parts report their events (metrics/node-metrics.ts implements it). */
export interface NodeObservers {
  readonly pool: TxPoolObserver;
  readonly p2p: P2PObserver;
  readonly follower: FollowerObserver;
  readonly blockBuilt: (block: L2Block, seconds: number, longestStallSeconds: number) => void;
}

/** What a node is built from. */
export interface NodeOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly nodeVersion: string;
  /** Wall clock of the chain (tests may pass a ManualClock and drive `step()`). */
  readonly clock?: Clock;
  /** With --metrics-port: the parts report to it (docs/OPERATIONS.md "Metrics"). */
  readonly metrics?: NodeObservers;
  /** Open the admin side with the node (main does; a test of the bare node leaves it closed). */
  readonly admin?: boolean;
}

/** The sync gate: the production loop and the follower run each step through it (the admin pause/resume drives it). */
export type SyncGate = SyncSwitch;

/** How this node gets its chain. */
export type NodeRole =
  | { readonly kind: 'sequencer' }
  /** `--sequencer=false` without p2p: reads and tx intake only. */
  | { readonly kind: 'standalone' }
  | { readonly kind: 'follower'; readonly over: 'rpc' | 'p2p'; readonly source: string }
  /** `--role rpc`: read-only beside the writer on the same database (src/impl/reader). */
  | { readonly kind: 'reader'; readonly writer: string };

/** A built node (servers not included). */
export interface L2Node {
  readonly db: Knex;
  /** The engine's reads (a reader's engine has no more; the full node's also builds, imports and unwinds). */
  readonly engine: ReadEngine;
  /** The mempool: the node's own, or on a reader the writer's as its database shows it. */
  readonly pool: TxPool | DatabasePoolView;
  /**
   * Unwinds the chain (nodeAdmin_rollbackTo); absent on a role that never writes (a reader's admin
   * side answers READ_ONLY_NODE before it would be called).
   */
  readonly rollbackTo?: (target: number, force: boolean) => Promise<UnwoundTx[]>;
  readonly p2p: P2PService | undefined;
  readonly validateTx: NodeTxValidator;
  readonly allowList: SetupAllowList;
  readonly signatures: FunctionSignatureRegistry;
  readonly publicHandlers: PublicHandlerSet;
  readonly fundedAccounts: readonly FundedAccount[];
  /** Sequencer, follower (over RPC or p2p) or neither. */
  readonly role: NodeRole;
  /** The follower's status while following (undefined otherwise, and before `start()`). */
  followStatus(): FollowerStatus | undefined;
  /** True when this start created the chain (empty or in-memory database): main prints the funded accounts then. */
  readonly newChain: boolean;
  /** The gate the production loop and the follower step through: the admin side's switch when it is open. */
  readonly sync: SyncGate;
  /**
   * The admin side (`NodeOptions.admin`): its sync switch gates this node, its sentinel hears of
   * each finished slot, and on a sequencer its proposer selection and (with p2p) validator duties
   * are wired in (node-admin.ts).
   */
  readonly admin: AdminParts | undefined;
  /** 'syncing' or 'paused'; on a follower its state ('caught-up', 'stopped-on-mismatch' too). */
  syncState(): FollowerState;
  /** Storage open and connected, pool running, p2p running when enabled, the follower running on a follower (node_isReady). */
  isReady(): Promise<boolean>;
  /** The GET /status report. */
  health(): Promise<HealthReport>;
  /** One production step now: sequencer tick (when enabled) then pool revalidation. */
  step(): Promise<void>;
  /** Starts p2p (when enabled), the follower (checking a followed node's chain first) and the production loop. */
  start(): Promise<void>;
  /** Production loop → p2p → pool → engine → database; idempotent. */
  stop(): Promise<void>;
}
