/**
 * The node's Prometheus metrics (prom-client) on one registry: the JSON-RPC families
 * (rpc-metrics.ts), and chain, pool, sync, p2p and storage. Events (blocks built and imported,
 * pool admissions and drops, gossip) are counted by the observers the node hands to its parts;
 * levels (tips, pending txs, peers, lag, database state and size) are read from the node once per
 * scrape (`refresh`). Node's default process metrics come with the registry. Created only when
 * `--metrics-port` is set: without it no part has an observer and nothing is counted.
 * docs/OPERATIONS.md "Metrics" lists every family.
 * @module
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { L2Block } from '../chain/types.ts';
import type { CacheSize } from '../engine.ts';
import type { L2Node } from '../node-types.ts';
import type { GossipTopicKind, P2PObserver } from '../p2p/types.ts';
import { DropReason } from '../sequencer/block-builder.ts';
import { DatabaseState, databaseHealth, SQLITE_FILE_NAME } from '../store/database.ts';
import type { FollowerObserver, FollowerState } from '../sync/follower.ts';
import type { Eviction } from '../txpool/pool-rules.ts';
import { DROP_REASON } from '../txpool/pool-rules.ts';
import { PoolStore } from '../txpool/pool-store.ts';
import type { TxPoolObserver } from '../txpool/tx-pool.ts';
import { RpcMetrics } from './rpc-metrics.ts';
import { HistogramData, histogramValues, registerScraped } from './scraped-metric.ts';

const TIPS = ['proposed', 'checkpointed', 'proven', 'finalized'] as const;
const SYNC_STATES: readonly FollowerState[] = ['syncing', 'caught-up', 'paused', 'stopped-on-mismatch'];
/** Seconds to build or verify one block (tens of ms on SQLite, more with public calls or Postgres). */
const BLOCK_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Event-loop stalls, around the 20 ms goal of issue #21 (docs/PERFORMANCE.md, reads while building blocks). */
const STALL_SECONDS_BUCKETS = [0.002, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1];
const TXS_BUCKETS = [0, 1, 2, 4, 8, 16, 32, 64, 128];
const MANA_BUCKETS = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];
const QUERY_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];

/** The drop reasons the pool and the block builder record, as bounded label values. */
function dropReasonLabel(reason: string): string {
  switch (reason) {
    case DROP_REASON.LOW_PRIORITY:
      return 'evicted';
    case DROP_REASON.INSUFFICIENT_BALANCE:
    case DropReason.INSUFFICIENT_BALANCE:
      return 'insufficient_balance';
    case DROP_REASON.EXISTING_NULLIFIER:
    case DropReason.EXISTING_NULLIFIER:
      return 'existing_nullifier';
    case DROP_REASON.EXPIRED:
      return 'expired';
    case DropReason.PUBLIC_CALLS:
      return 'public_calls';
    default:
      if (reason.startsWith('Replaced by tx')) return 'replaced';
      if (reason.startsWith('not accepted by the followed node')) return 'refused_by_followed_node';
      return 'other';
  }
}

/** One metric family's definition. */
type Family = {
  readonly kind: 'gauge' | 'counter' | 'histogram';
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly buckets?: readonly number[];
};

/**
 * Every family the node sets, by the name the class uses: its kind, exposition name, help text,
 * label names and (histograms) buckets. Registered in this order, before the RPC families.
 */
const FAMILIES = {
  // chain
  tipBlock: {
    kind: 'gauge',
    name: 'l2node_chain_tip_block_number',
    help: 'Block number of each chain tip',
    labelNames: ['tip'],
  },
  tipCheckpoint: {
    kind: 'gauge',
    name: 'l2node_chain_tip_checkpoint_number',
    help: 'Checkpoint number of each chain tip (proposed: the latest checkpoint)',
    labelNames: ['tip'],
  },
  blocksBuilt: {
    kind: 'counter',
    name: 'l2node_blocks_built_total',
    help: 'Blocks this node built and committed (sequencer)',
    labelNames: [],
  },
  blocksImported: {
    kind: 'counter',
    name: 'l2node_blocks_imported_total',
    help: 'Blocks taken from another node (follower or peers) and verified by re-applying them',
    labelNames: [],
  },
  buildSeconds: {
    kind: 'histogram',
    name: 'l2node_block_build_duration_seconds',
    help: 'Seconds from taking the candidate txs to the committed block',
    labelNames: [],
    buckets: BLOCK_SECONDS_BUCKETS,
  },
  buildStallSeconds: {
    kind: 'histogram',
    name: 'l2node_block_build_event_loop_stall_seconds',
    help: 'Longest event-loop stall while building and committing one block (how long a request arriving then waited)',
    labelNames: [],
    buckets: STALL_SECONDS_BUCKETS,
  },
  applySeconds: {
    kind: 'histogram',
    name: 'l2node_block_apply_duration_seconds',
    help: 'Seconds to verify and store one imported block (re-applying its tx effects)',
    labelNames: [],
    buckets: BLOCK_SECONDS_BUCKETS,
  },
  blockTxs: {
    kind: 'histogram',
    name: 'l2node_block_txs',
    help: 'Txs per block, built here or imported',
    labelNames: ['origin'],
    buckets: TXS_BUCKETS,
  },
  blockMana: {
    kind: 'histogram',
    name: 'l2node_block_mana_used',
    help: 'Mana (L2 gas) used per block, built here or imported',
    labelNames: ['origin'],
    buckets: MANA_BUCKETS,
  },
  minFee: {
    kind: 'gauge',
    name: 'l2node_min_fee_per_gas',
    help: 'Current minimum fee per unit of gas (node_getCurrentMinFees), FeeJuice base units',
    labelNames: ['gas'],
  },
  // pool
  pending: {
    kind: 'gauge',
    name: 'l2node_txpool_pending',
    help: 'Pending txs in the mempool',
    labelNames: [],
  },
  pendingBytes: {
    kind: 'gauge',
    name: 'l2node_txpool_pending_bytes',
    help: "Bytes of the pending txs' wire JSON",
    labelNames: [],
  },
  // memory
  cacheBytes: {
    kind: 'gauge',
    name: 'l2node_cache_bytes',
    help: "Bytes each in-memory cache holds against its bound: answers' JSON text, decoded blocks' stored JSON, world-state node hashes at ~128 bytes each",
    labelNames: ['cache'],
  },
  cacheEntries: {
    kind: 'gauge',
    name: 'l2node_cache_entries',
    help: 'Entries each in-memory cache holds',
    labelNames: ['cache'],
  },
  admitted: {
    kind: 'counter',
    name: 'l2node_txpool_admitted_total',
    help: 'Txs newly admitted to the pool (RPC or gossip)',
    labelNames: [],
  },
  rejected: {
    kind: 'counter',
    name: 'l2node_txpool_rejected_total',
    help: 'Txs a pool rule refused, by rejection code',
    labelNames: ['code'],
  },
  dropped: {
    kind: 'counter',
    name: 'l2node_txpool_dropped_total',
    help: 'Pending txs that left the pool without being mined, by reason',
    labelNames: ['reason'],
  },
  evicted: {
    kind: 'counter',
    name: 'l2node_txpool_evicted_total',
    help: 'Pending txs pushed out by higher-paying ones (pool full, or replaced on a nullifier conflict)',
    labelNames: [],
  },
  // sync
  syncState: {
    kind: 'gauge',
    name: 'l2node_sync_state',
    help: '1 for the current sync state (syncing, caught-up, paused, stopped-on-mismatch)',
    labelNames: ['state'],
  },
  behind: {
    kind: 'gauge',
    name: 'l2node_sync_behind_blocks',
    help: "Blocks between this follower's tip and its source's (0 on a sequencer)",
    labelNames: [],
  },
  lagSeconds: {
    kind: 'gauge',
    name: 'l2node_sync_lag_seconds',
    help: "Seconds since this follower was last at its source's tip (0 while there)",
    labelNames: [],
  },
  syncRate: {
    kind: 'gauge',
    name: 'l2node_sync_blocks_per_second',
    help: 'Blocks per second of the current catch-up (0 when not catching up)',
    labelNames: [],
  },
  syncTarget: {
    kind: 'gauge',
    name: 'l2node_sync_target_block',
    help: "Block the current catch-up goes to (the source's tip; 0 when not catching up)",
    labelNames: [],
  },
  syncEta: {
    kind: 'gauge',
    name: 'l2node_sync_eta_seconds',
    help: 'Estimated seconds to the end of the current catch-up (0 when not catching up)',
    labelNames: [],
  },
  // p2p
  peers: {
    kind: 'gauge',
    name: 'l2node_p2p_peers',
    help: 'Peers by state: connected, on the tx topic, banned',
    labelNames: ['state'],
  },
  gossipIn: {
    kind: 'counter',
    name: 'l2node_p2p_gossip_received_total',
    help: 'Gossip messages received by topic and verdict (accept, reject: sender penalised, ignore)',
    labelNames: ['topic', 'verdict'],
  },
  gossipOut: {
    kind: 'counter',
    name: 'l2node_p2p_gossip_published_total',
    help: 'Gossip messages this node published, by topic',
    labelNames: ['topic'],
  },
  scoreDrops: {
    kind: 'counter',
    name: 'l2node_p2p_peer_score_drops_total',
    help: 'Peer score penalties (invalid gossip or served data that does not verify)',
    labelNames: [],
  },
  bans: {
    kind: 'counter',
    name: 'l2node_p2p_peer_bans_total',
    help: 'Peers banned after their score crossed the threshold',
    labelNames: [],
  },
  // storage
  dbInfo: {
    kind: 'gauge',
    name: 'l2node_db_info',
    help: '1, labelled with the database engine (sqlite or postgres)',
    labelNames: ['engine'],
  },
  dbConnected: {
    kind: 'gauge',
    name: 'l2node_db_connected',
    help: '1 while the database is connected, 0 while reconnecting',
    labelNames: [],
  },
  dbReconnects: {
    kind: 'gauge',
    name: 'l2node_db_reconnect_attempts',
    help: 'Failed reconnect probes since the connection was lost (0 while connected)',
    labelNames: [],
  },
  dbFiles: {
    kind: 'gauge',
    name: 'l2node_db_sqlite_file_bytes',
    help: 'Size of the SQLite database file and its write-ahead log',
    labelNames: ['file'],
  },
  dbPool: {
    kind: 'gauge',
    name: 'l2node_db_pool_connections',
    help: 'Postgres pool connections: used, free, and acquisitions waiting',
    labelNames: ['state'],
  },
} as const satisfies Readonly<Record<string, Family>>;

type LabelOf<F> = F extends { readonly labelNames: readonly (infer L extends string)[] } ? L : never;
type MetricOf<F> = F extends { readonly kind: 'gauge' }
  ? Gauge<LabelOf<F>>
  : F extends { readonly kind: 'counter' }
    ? Counter<LabelOf<F>>
    : Histogram<LabelOf<F>>;
/** The registered families, by the names of FAMILIES. */
type Families = { readonly [K in keyof typeof FAMILIES]: MetricOf<(typeof FAMILIES)[K]> };

/** Registers every family of FAMILIES on `registry`. */
function registerFamilies(registry: Registry): Families {
  const out: Record<string, Gauge | Counter | Histogram> = {};
  for (const [key, f] of Object.entries(FAMILIES) as [string, Family][]) {
    const config = { name: f.name, help: f.help, labelNames: [...f.labelNames], registers: [registry] };
    if (f.kind === 'gauge') out[key] = new Gauge(config);
    else if (f.kind === 'counter') out[key] = new Counter(config);
    else out[key] = new Histogram({ ...config, buckets: [...(f.buckets ?? [])] });
  }
  return out as unknown as Families;
}

/** Every metric of one node. */
export class NodeMetrics {
  readonly registry = new Registry();
  readonly rpc: RpcMetrics;
  readonly #node: { current?: L2Node } = {};
  readonly #dataDirectory: string;

  /** The node's families (FAMILIES), registered first so the exposition order stays theirs. */
  readonly #m = registerFamilies(this.registry);
  /** Per query, so plain numbers handed over at scrape time (scraped-metric.ts), like the RPC families. */
  readonly #queries = new HistogramData(QUERY_BUCKETS);

  constructor(options: { dataDirectory: string }) {
    this.#dataDirectory = options.dataDirectory;
    this.rpc = new RpcMetrics(this.registry);
    registerScraped(
      this.registry,
      'l2node_db_query_duration_seconds',
      'histogram',
      'Seconds per database query through knex (on SQLite the hot prepared statements of store/sql.ts are not timed)',
      () => histogramValues('l2node_db_query_duration_seconds', {}, this.#queries),
    );
    collectDefaultMetrics({ register: this.registry });
  }

  /** The pool's observer. */
  readonly pool: TxPoolObserver = {
    admitted: () => this.#m.admitted.inc(),
    rejected: (code) => this.#m.rejected.labels(code).inc(),
    dropped: (evictions: readonly Eviction[]) => {
      for (const e of evictions) {
        const reason = dropReasonLabel(e.reason);
        this.#m.dropped.labels(reason).inc();
        if (reason === 'evicted' || reason === 'replaced') this.#m.evicted.inc();
      }
    },
  };

  /** The follower's observer. */
  readonly follower: FollowerObserver = {
    blockImported: (block, seconds) => {
      this.#m.blocksImported.inc();
      this.#m.applySeconds.observe(seconds);
      this.#blockShape('imported', block);
    },
  };

  /** The p2p service's observer. */
  readonly p2p: P2PObserver = {
    gossipIn: (topic: GossipTopicKind, verdict) => this.#m.gossipIn.labels(topic, verdict).inc(),
    gossipOut: (topic) => this.#m.gossipOut.labels(topic).inc(),
    peerPenalized: (banned) => {
      this.#m.scoreDrops.inc();
      if (banned) this.#m.bans.inc();
    },
  };

  /** The sequencer's build observer. */
  readonly blockBuilt = (block: L2Block, seconds: number, longestStallSeconds: number): void => {
    this.#m.blocksBuilt.inc();
    this.#m.buildSeconds.observe(seconds);
    this.#m.buildStallSeconds.observe(longestStallSeconds);
    this.#blockShape('built', block);
  };

  /** Times every knex query of `db`. */
  watchQueries(db: Knex): void {
    const started = new Map<string, number>();
    db.on('query', (q: { __knexQueryUid?: string }) => {
      if (q.__knexQueryUid !== undefined) started.set(q.__knexQueryUid, performance.now());
    });
    const end = (_: unknown, q: { __knexQueryUid?: string }) => {
      const uid = q?.__knexQueryUid;
      const t = uid === undefined ? undefined : started.get(uid);
      if (t === undefined) return;
      started.delete(uid!);
      this.#queries.observe((performance.now() - t) / 1000);
    };
    db.on('query-response', end);
    db.on('query-error', end);
  }

  /** Caches outside the engine (the public server's answer caches) whose fill the scrapes read. */
  watchCaches(sizes: () => readonly CacheSize[]): void {
    this.#caches = sizes;
  }

  #caches: () => readonly CacheSize[] = () => [];

  /** The node whose levels the scrapes read. */
  watchNode(node: L2Node): void {
    this.#node.current = node;
    this.watchQueries(node.db);
  }

  /** Reads the levels (tips, pool, sync, p2p, storage) from the node; called before each scrape. */
  async refresh(): Promise<void> {
    const node = this.#node.current;
    if (node === undefined) return;
    const health = databaseHealth(node.db);
    const connected = health.state === DatabaseState.CONNECTED;
    this.#m.dbInfo.reset();
    this.#m.dbInfo.labels(health.engine).set(1);
    this.#m.dbConnected.set(connected ? 1 : 0);
    this.#m.dbReconnects.set(health.report().reconnectAttempts);
    // Each group on its own: one that fails (a reader's view, a lost connection) leaves the others fresh.
    const groups = [
      () => this.#storageSize(node, health.engine),
      async () => {
        const fees = node.engine.getCurrentMinFees();
        this.#m.minFee.labels('da').set(Number(fees.feePerDaGas));
        this.#m.minFee.labels('l2').set(Number(fees.feePerL2Gas));
      },
      async () => this.#syncLevels(node),
      async () => this.#p2pLevels(node),
      async () => {
        for (const c of [...node.engine.cacheSizes(), ...this.#caches()]) {
          this.#m.cacheBytes.labels(c.cache).set(c.bytes);
          this.#m.cacheEntries.labels(c.cache).set(c.entries);
        }
      },
    ];
    // The levels below need the database; a scrape must not wait on a reconnect.
    if (connected)
      groups.push(
        () => this.#chainLevels(node),
        () => this.#poolLevels(node),
      );
    const failed = (await Promise.allSettled(groups.map((g) => g()))).find((r) => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }

  async #chainLevels(node: L2Node): Promise<void> {
    const tips = await node.engine.chain.getL2Tips();
    this.#m.tipBlock.labels('proposed').set(tips.proposed.number);
    this.#m.tipCheckpoint.labels('proposed').set(tips.checkpointed.checkpoint.number);
    for (const tip of TIPS.slice(1) as readonly ('checkpointed' | 'proven' | 'finalized')[]) {
      this.#m.tipBlock.labels(tip).set(tips[tip].block.number);
      this.#m.tipCheckpoint.labels(tip).set(tips[tip].checkpoint.number);
    }
  }

  async #poolLevels(node: L2Node): Promise<void> {
    // A --role rpc reader's pool is a view over the writer's rows: its count is asynchronous.
    const count: unknown = node.pool.pendingCount;
    this.#m.pending.set(
      Number(typeof count === 'function' ? await (count as () => Promise<number>).call(node.pool) : count),
    );
    this.#m.pendingBytes.set(await new PoolStore(node.db).pendingBytes());
  }

  #syncLevels(node: L2Node): void {
    const state = node.syncState();
    for (const s of SYNC_STATES) this.#m.syncState.labels(s).set(s === state ? 1 : 0);
    const follow = node.followStatus();
    this.#m.behind.set(follow?.behindBlocks ?? 0);
    this.#m.lagSeconds.set(follow?.lagSeconds ?? 0);
    const p = follow?.progress;
    this.#m.syncRate.set(p?.blocksPerSecond ?? 0);
    this.#m.syncTarget.set(p?.target ?? 0);
    this.#m.syncEta.set(p?.etaSeconds ?? 0);
  }

  #p2pLevels(node: L2Node): void {
    const p2p = node.p2p;
    const running = p2p?.isReady() === true;
    this.#m.peers.labels('connected').set(running ? p2p.getPeers().length : 0);
    this.#m.peers.labels('tx_topic').set(running ? p2p.getTxTopicPeers().length : 0);
    this.#m.peers.labels('banned').set(running ? p2p.getBannedPeers().length : 0);
  }

  async #storageSize(node: L2Node, engine: 'sqlite' | 'postgres'): Promise<void> {
    if (engine === 'postgres') {
      const pool = (node.db.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } })
        .pool;
      if (pool === undefined) return;
      this.#m.dbPool.labels('used').set(pool.numUsed());
      this.#m.dbPool.labels('free').set(pool.numFree());
      this.#m.dbPool.labels('pending').set(pool.numPendingAcquires());
      return;
    }
    if (this.#dataDirectory === '') return; // in memory
    const file = join(this.#dataDirectory, SQLITE_FILE_NAME);
    const size = async (path: string) => (await stat(path).catch(() => undefined))?.size ?? 0;
    this.#m.dbFiles.labels('db').set(await size(file));
    this.#m.dbFiles.labels('wal').set(await size(`${file}-wal`));
  }

  #blockShape(origin: 'built' | 'imported', block: L2Block): void {
    this.#m.blockTxs.labels(origin).observe(block.body.txEffects.length);
    this.#m.blockMana.labels(origin).observe(Number(block.header.totalManaUsed));
  }
}
