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
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { L2Block } from '../chain/types.ts';
import type { L2Node } from '../node-types.ts';
import type { GossipTopicKind, P2PObserver } from '../p2p/types.ts';
import { databaseHealth, DatabaseState, SQLITE_FILE_NAME } from '../store/database.ts';
import type { FollowerObserver, FollowerState } from '../sync/follower.ts';
import type { Eviction } from '../txpool/pool-rules.ts';
import { DROP_REASON } from '../txpool/pool-rules.ts';
import type { TxPoolObserver } from '../txpool/tx-pool.ts';
import { DropReason } from '../sequencer/block-builder.ts';
import { RpcMetrics } from './rpc-metrics.ts';
import { HistogramData, histogramValues, registerScraped } from './scraped-metric.ts';

const TIPS = ['proposed', 'checkpointed', 'proven', 'finalized'] as const;
const SYNC_STATES: readonly FollowerState[] = ['syncing', 'caught-up', 'paused', 'stopped-on-mismatch'];
/** Seconds to build or verify one block (tens of ms on SQLite, more with public calls or Postgres). */
const BLOCK_SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
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

/** Every metric of one node. */
export class NodeMetrics {
  readonly registry = new Registry();
  readonly rpc: RpcMetrics;
  readonly #node: { current?: L2Node } = {};
  readonly #dataDirectory: string;

  // chain
  readonly #tipBlock = this.#gauge('l2node_chain_tip_block_number', 'Block number of each chain tip', ['tip']);
  readonly #tipCheckpoint = this.#gauge(
    'l2node_chain_tip_checkpoint_number',
    'Checkpoint number of each chain tip (proposed: the latest checkpoint)',
    ['tip'],
  );
  readonly #blocksBuilt = new Counter({
    name: 'l2node_blocks_built_total',
    help: 'Blocks this node built and committed (sequencer)',
    registers: [this.registry],
  });
  readonly #blocksImported = new Counter({
    name: 'l2node_blocks_imported_total',
    help: 'Blocks taken from another node (follower or peers) and verified by re-applying them',
    registers: [this.registry],
  });
  readonly #buildSeconds = new Histogram({
    name: 'l2node_block_build_duration_seconds',
    help: 'Seconds from taking the candidate txs to the committed block',
    buckets: BLOCK_SECONDS_BUCKETS,
    registers: [this.registry],
  });
  readonly #applySeconds = new Histogram({
    name: 'l2node_block_apply_duration_seconds',
    help: 'Seconds to verify and store one imported block (re-applying its tx effects)',
    buckets: BLOCK_SECONDS_BUCKETS,
    registers: [this.registry],
  });
  readonly #blockTxs = new Histogram({
    name: 'l2node_block_txs',
    help: 'Txs per block, built here or imported',
    labelNames: ['origin'],
    buckets: TXS_BUCKETS,
    registers: [this.registry],
  });
  readonly #blockMana = new Histogram({
    name: 'l2node_block_mana_used',
    help: 'Mana (L2 gas) used per block, built here or imported',
    labelNames: ['origin'],
    buckets: MANA_BUCKETS,
    registers: [this.registry],
  });
  readonly #minFee = this.#gauge(
    'l2node_min_fee_per_gas',
    'Current minimum fee per unit of gas (node_getCurrentMinFees), FeeJuice base units',
    ['gas'],
  );
  // pool
  readonly #pending = this.#gauge('l2node_txpool_pending', 'Pending txs in the mempool');
  readonly #pendingBytes = this.#gauge('l2node_txpool_pending_bytes', "Bytes of the pending txs' wire JSON");
  readonly #admitted = new Counter({
    name: 'l2node_txpool_admitted_total',
    help: 'Txs newly admitted to the pool (RPC or gossip)',
    registers: [this.registry],
  });
  readonly #rejected = new Counter({
    name: 'l2node_txpool_rejected_total',
    help: 'Txs a pool rule refused, by rejection code',
    labelNames: ['code'],
    registers: [this.registry],
  });
  readonly #dropped = new Counter({
    name: 'l2node_txpool_dropped_total',
    help: 'Pending txs that left the pool without being mined, by reason',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly #evicted = new Counter({
    name: 'l2node_txpool_evicted_total',
    help: 'Pending txs pushed out by higher-paying ones (pool full, or replaced on a nullifier conflict)',
    registers: [this.registry],
  });
  // sync
  readonly #syncState = this.#gauge(
    'l2node_sync_state',
    '1 for the current sync state (syncing, caught-up, paused, stopped-on-mismatch)',
    ['state'],
  );
  readonly #behind = this.#gauge(
    'l2node_sync_behind_blocks',
    "Blocks between this follower's tip and its source's (0 on a sequencer)",
  );
  readonly #lagSeconds = this.#gauge(
    'l2node_sync_lag_seconds',
    "Seconds since this follower was last at its source's tip (0 while there)",
  );
  readonly #syncRate = this.#gauge(
    'l2node_sync_blocks_per_second',
    'Blocks per second of the current catch-up (0 when not catching up)',
  );
  readonly #syncTarget = this.#gauge(
    'l2node_sync_target_block',
    "Block the current catch-up goes to (the source's tip; 0 when not catching up)",
  );
  readonly #syncEta = this.#gauge(
    'l2node_sync_eta_seconds',
    'Estimated seconds to the end of the current catch-up (0 when not catching up)',
  );
  // p2p
  readonly #peers = this.#gauge('l2node_p2p_peers', 'Peers by state: connected, on the tx topic, banned', ['state']);
  readonly #gossipIn = new Counter({
    name: 'l2node_p2p_gossip_received_total',
    help: 'Gossip messages received by topic and verdict (accept, reject: sender penalised, ignore)',
    labelNames: ['topic', 'verdict'],
    registers: [this.registry],
  });
  readonly #gossipOut = new Counter({
    name: 'l2node_p2p_gossip_published_total',
    help: 'Gossip messages this node published, by topic',
    labelNames: ['topic'],
    registers: [this.registry],
  });
  readonly #scoreDrops = new Counter({
    name: 'l2node_p2p_peer_score_drops_total',
    help: 'Peer score penalties (invalid gossip or served data that does not verify)',
    registers: [this.registry],
  });
  readonly #bans = new Counter({
    name: 'l2node_p2p_peer_bans_total',
    help: 'Peers banned after their score crossed the threshold',
    registers: [this.registry],
  });
  // storage
  readonly #dbInfo = this.#gauge('l2node_db_info', '1, labelled with the database engine (sqlite or postgres)', [
    'engine',
  ]);
  readonly #dbConnected = this.#gauge('l2node_db_connected', '1 while the database is connected, 0 while reconnecting');
  readonly #dbReconnects = this.#gauge(
    'l2node_db_reconnect_attempts',
    'Failed reconnect probes since the connection was lost (0 while connected)',
  );
  /** Per query, so plain numbers handed over at scrape time (scraped-metric.ts), like the RPC families. */
  readonly #queries = new HistogramData(QUERY_BUCKETS);
  readonly #dbFiles = this.#gauge(
    'l2node_db_sqlite_file_bytes',
    'Size of the SQLite database file and its write-ahead log',
    ['file'],
  );
  readonly #dbPool = this.#gauge(
    'l2node_db_pool_connections',
    'Postgres pool connections: used, free, and acquisitions waiting',
    ['state'],
  );

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
    admitted: () => this.#admitted.inc(),
    rejected: (code) => this.#rejected.labels(code).inc(),
    dropped: (evictions: readonly Eviction[]) => {
      for (const e of evictions) {
        const reason = dropReasonLabel(e.reason);
        this.#dropped.labels(reason).inc();
        if (reason === 'evicted' || reason === 'replaced') this.#evicted.inc();
      }
    },
  };

  /** The follower's observer. */
  readonly follower: FollowerObserver = {
    blockImported: (block, seconds) => {
      this.#blocksImported.inc();
      this.#applySeconds.observe(seconds);
      this.#blockShape('imported', block);
    },
  };

  /** The p2p service's observer. */
  readonly p2p: P2PObserver = {
    gossipIn: (topic: GossipTopicKind, verdict) => this.#gossipIn.labels(topic, verdict).inc(),
    gossipOut: (topic) => this.#gossipOut.labels(topic).inc(),
    peerPenalized: (banned) => {
      this.#scoreDrops.inc();
      if (banned) this.#bans.inc();
    },
  };

  /** The sequencer's build observer. */
  readonly blockBuilt = (block: L2Block, seconds: number): void => {
    this.#blocksBuilt.inc();
    this.#buildSeconds.observe(seconds);
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
    this.#dbInfo.reset();
    this.#dbInfo.labels(health.engine).set(1);
    this.#dbConnected.set(connected ? 1 : 0);
    this.#dbReconnects.set(health.report().reconnectAttempts);
    // Each group on its own: one that fails (a reader's view, a lost connection) leaves the others fresh.
    const groups = [
      () => this.#storageSize(node, health.engine),
      async () => {
        const fees = node.engine.getCurrentMinFees();
        this.#minFee.labels('da').set(Number(fees.feePerDaGas));
        this.#minFee.labels('l2').set(Number(fees.feePerL2Gas));
      },
      async () => this.#syncLevels(node),
      async () => this.#p2pLevels(node),
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
    this.#tipBlock.labels('proposed').set(tips.proposed.number);
    this.#tipCheckpoint.labels('proposed').set(tips.checkpointed.checkpoint.number);
    for (const tip of TIPS.slice(1) as readonly ('checkpointed' | 'proven' | 'finalized')[]) {
      this.#tipBlock.labels(tip).set(tips[tip].block.number);
      this.#tipCheckpoint.labels(tip).set(tips[tip].checkpoint.number);
    }
  }

  async #poolLevels(node: L2Node): Promise<void> {
    // A --role rpc reader's pool is a view over the writer's rows: its count is asynchronous.
    const count: unknown = node.pool.pendingCount;
    this.#pending.set(
      Number(typeof count === 'function' ? await (count as () => Promise<number>).call(node.pool) : count),
    );
    const bytes = (await node
      .db('txpool_txs')
      .sum({ bytes: node.db.raw('length(wire_json)') })
      .first()) as { bytes: number | string | null } | undefined;
    this.#pendingBytes.set(Number(bytes?.bytes ?? 0));
  }

  #syncLevels(node: L2Node): void {
    const state = node.syncState();
    for (const s of SYNC_STATES) this.#syncState.labels(s).set(s === state ? 1 : 0);
    const follow = node.followStatus();
    this.#behind.set(follow?.behindBlocks ?? 0);
    this.#lagSeconds.set(follow?.lagSeconds ?? 0);
    const p = follow?.progress;
    this.#syncRate.set(p?.blocksPerSecond ?? 0);
    this.#syncTarget.set(p?.target ?? 0);
    this.#syncEta.set(p?.etaSeconds ?? 0);
  }

  #p2pLevels(node: L2Node): void {
    const p2p = node.p2p;
    const running = p2p?.isReady() === true;
    this.#peers.labels('connected').set(running ? p2p.getPeers().length : 0);
    this.#peers.labels('tx_topic').set(running ? p2p.getTxTopicPeers().length : 0);
    this.#peers.labels('banned').set(running ? p2p.getBannedPeers().length : 0);
  }

  async #storageSize(node: L2Node, engine: 'sqlite' | 'postgres'): Promise<void> {
    if (engine === 'postgres') {
      const pool = (node.db.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } })
        .pool;
      if (pool === undefined) return;
      this.#dbPool.labels('used').set(pool.numUsed());
      this.#dbPool.labels('free').set(pool.numFree());
      this.#dbPool.labels('pending').set(pool.numPendingAcquires());
      return;
    }
    if (this.#dataDirectory === '') return; // in memory
    const file = join(this.#dataDirectory, SQLITE_FILE_NAME);
    const size = async (path: string) => (await stat(path).catch(() => undefined))?.size ?? 0;
    this.#dbFiles.labels('db').set(await size(file));
    this.#dbFiles.labels('wal').set(await size(`${file}-wal`));
  }

  #blockShape(origin: 'built' | 'imported', block: L2Block): void {
    this.#blockTxs.labels(origin).observe(block.body.txEffects.length);
    this.#blockMana.labels(origin).observe(Number(block.header.totalManaUsed));
  }

  #gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }
}
