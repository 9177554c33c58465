/**
 * The declarative table of every startup option: flag, environment variable, type, default,
 * description and validation. Parsing, `--help` and docs/OPERATIONS.md are all built from it.
 * @module
 */

/** How an option's text value is read. */
export type OptionType =
  | 'string'
  | 'boolean'
  | 'port'
  | 'integer'
  | 'number'
  | 'bigint'
  | 'hash'
  | 'log-level'
  | 'list'
  | 'postgres-url'
  | 'origin-list'
  | 'host-list';

/** One startup option. `key` names the field of `Config`. */
export interface OptionSpec {
  readonly key: keyof Config;
  readonly flag: string;
  readonly env?: string;
  readonly type: OptionType;
  readonly default: string | number | boolean | bigint | readonly string[] | undefined;
  readonly description: string;
  /** How --help and the docs show a default that depends on other options. */
  readonly shownDefault?: string;
  /** Extra bounds on integers and numbers (inclusive). */
  readonly min?: number;
  readonly max?: number;
}

/** Log levels, most verbose first. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
/** One of `LOG_LEVELS`. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The node's resolved configuration. */
export interface Config {
  port: number;
  adminPort: number;
  host: string;
  adminHost: string;
  dataDirectory: string;
  adminApiKeyHash: string | undefined;
  noAdminApiKey: boolean;
  resetAdminApiKey: boolean;
  initialEthPerFeeAsset: bigint;
  botMinFeePadding: number;
  /** The tx bot (src/impl/bot, docs/OPERATIONS.md "The tx bot"). */
  botEnabled: boolean;
  botTxsPerSecond: number;
  botNoteHashesPerTx: number;
  botPrivateLogsPerTx: number;
  /** Fee payer addresses as given (checked when the bot starts); empty = the funded dev accounts. */
  botFeePayer: readonly string[];
  /** Public JSON-RPC URL the bot sends to; undefined = this node, in process. */
  botUrl: string | undefined;
  botReportIntervalSeconds: number;
  logLevel: LogLevel;
  maxBodyBytes: number;
  maxBatchSize: number;
  /** Origins browsers may call the public port from (`*` = any). */
  corsOrigin: readonly string[];
  /** Origins browsers may call the admin port from; empty = none. */
  adminCorsOrigin: readonly string[];
  /** Host header names the public port serves (`*` = any); empty = the default (loopback names and the bound address). */
  vhosts: readonly string[];
  /** The same for the admin port. */
  adminVhosts: readonly string[];
  l1ChainId: number;
  rollupVersion: number;
  shutdownTimeoutMs: number;
  databaseUrl: string | undefined;
  slotDurationSeconds: number;
  slotsPerEpoch: number;
  genesisTime: bigint;
  proofDelaySeconds: number;
  finalityDepth: number;
  maxTxsPerBlock: number;
  minTxsPerBlock: number;
  buildEmptyBlocks: boolean;
  maxL2GasPerBlock: number;
  maxDaGasPerBlock: number;
  sequencer: boolean;
  sequencerPollingIntervalMs: number;
  p2pEnabled: boolean;
  p2pHost: string;
  p2pPort: number;
  p2pBootstrapPeers: readonly string[];
  maxPendingTxCount: number;
  /** RPC URL of the node to follow (--follow); undefined = not following over RPC. */
  follow: string | undefined;
  /** A chain file to serve (--import-chain, docs/CONFORMANCE.md); undefined = none. */
  importChain?: string | undefined;
  /** 'full' (default) or 'rpc': a read-only process serving the public port from a writer's Postgres database (docs/OPERATIONS.md). */
  role?: string;
  /** With --role rpc: the writer's public JSON-RPC URL, node_sendTx is forwarded there. */
  writerUrl?: string | undefined;
  /** With --role rpc on a hot-standby replica: not ready while replication lags more than this (ms); undefined = no limit. */
  maxReplicationLagMs?: number | undefined;
  /** Validator keystore file or directory (docs/KEYSTORE.md); undefined = the dev validator. */
  keystore?: string | undefined;
  /** Registered attesters this node does not run (genesis configuration, docs/KEYSTORE.md). */
  registeredValidators?: readonly string[];
  /** Snapshot to restore into an empty data directory at start (docs/OPERATIONS.md "Starting from a snapshot"). */
  snapshot?: string | undefined;
  /** Port of the Prometheus metrics listener (docs/OPERATIONS.md "Metrics"); undefined = no metrics. */
  metricsPort?: number | undefined;
  metricsHost?: string;
  /** Seconds between progress lines of long work: follower catch-up, --import-chain, snapshot copies. */
  progressIntervalSeconds?: number;
}

/** Every option, in the order `--help` and the docs list them. */
export const OPTIONS: readonly OptionSpec[] = [
  {
    key: 'port',
    flag: '--port',
    env: 'AZTEC_PORT',
    type: 'port',
    default: 8080,
    description: 'Public JSON-RPC port (SPEC §1). 0 picks a free port.',
  },
  {
    key: 'host',
    flag: '--host',
    env: 'NODE_HOST',
    type: 'string',
    default: '127.0.0.1',
    description: 'Address the public JSON-RPC server binds to; 0.0.0.0 for all interfaces.',
  },
  {
    key: 'adminPort',
    flag: '--admin-port',
    env: 'AZTEC_ADMIN_PORT',
    type: 'port',
    default: 8880,
    description: 'Admin JSON-RPC port (SPEC §1). 0 picks a free port.',
  },
  {
    key: 'adminHost',
    flag: '--admin-host',
    env: 'NODE_ADMIN_HOST',
    type: 'string',
    default: '127.0.0.1',
    description: 'Address the admin JSON-RPC server binds to. Keep it private.',
  },
  {
    key: 'dataDirectory',
    flag: '--data-directory',
    env: 'DATA_DIRECTORY',
    type: 'string',
    default: './data',
    description: "Directory for the database and the admin key hash; '' keeps everything in memory and writes nothing.",
  },
  {
    key: 'adminApiKeyHash',
    flag: '--admin-api-key-hash',
    env: 'NODE_ADMIN_API_KEY_HASH',
    type: 'hash',
    default: undefined,
    description:
      'Use this pre-generated SHA-256 hash (64 hex characters, either case, 0x optional) of the admin API key (SPEC §5).',
  },
  {
    key: 'noAdminApiKey',
    flag: '--no-admin-api-key',
    env: 'NODE_NO_ADMIN_API_KEY',
    type: 'boolean',
    default: false,
    description: 'Disable admin API key authentication entirely (SPEC §5). Not for production.',
  },
  {
    key: 'resetAdminApiKey',
    flag: '--reset-admin-api-key',
    env: 'NODE_RESET_ADMIN_API_KEY',
    type: 'boolean',
    default: false,
    description: 'Generate, print and persist a new admin API key, replacing the stored one (SPEC §3).',
  },
  {
    key: 'initialEthPerFeeAsset',
    flag: '--initialEthPerFeeAsset',
    env: 'NODE_INITIAL_ETH_PER_FEE_ASSET',
    type: 'bigint',
    default: 10000000n,
    min: 1,
    description:
      'Initial ETH per fee asset, a positive integer with 1e12 precision (10000000 = 0.00001 ETH) (SPEC §8, §9). Fixed when the chain is created: a data directory keeps its first value.',
  },
  {
    key: 'botMinFeePadding',
    flag: '--bot.minFeePadding',
    env: 'BOT_MIN_FEE_PADDING',
    type: 'number',
    default: 3,
    min: 0,
    description:
      'How much the bot overpays the current minimum fees, as a fraction: max fees per gas = node_getCurrentMinFees × (1 + padding), rounded up; 3 offers 4×, 0.5 offers 1.5× (v4 name of --bot.baseFeePadding, SPEC §9).',
  },
  {
    key: 'botEnabled',
    flag: '--bot.enabled',
    env: 'BOT_ENABLED',
    type: 'boolean',
    default: false,
    description:
      'Run the tx bot: real-format private txs paid by --bot.feePayer (default: the funded dev accounts), sent through node_sendTx at --bot.txsPerSecond, with a log line of counts every --bot.reportIntervalSeconds.',
  },
  {
    key: 'botTxsPerSecond',
    flag: '--bot.txsPerSecond',
    env: 'BOT_TXS_PER_SECOND',
    type: 'number',
    default: 1,
    min: 0.01,
    max: 1000,
    description:
      'Txs the bot sends per second (evenly spaced, no bursts). It backs off while the pool refuses with LOW_PRIORITY_FEE.',
  },
  {
    key: 'botNoteHashesPerTx',
    flag: '--bot.noteHashesPerTx',
    env: 'BOT_NOTE_HASHES_PER_TX',
    type: 'integer',
    default: 1,
    min: 0,
    max: 64,
    description: 'Note hashes in each bot tx (besides its one unique nullifier).',
  },
  {
    key: 'botPrivateLogsPerTx',
    flag: '--bot.privateLogsPerTx',
    env: 'BOT_PRIVATE_LOGS_PER_TX',
    type: 'integer',
    default: 1,
    min: 0,
    max: 64,
    description: 'Tagged private logs in each bot tx.',
  },
  {
    key: 'botFeePayer',
    flag: '--bot.feePayer',
    env: 'BOT_FEE_PAYER',
    type: 'list',
    default: [],
    description:
      'Comma-separated fee payer addresses (0x hex, funded with FeeJuice), used round robin; none = the funded dev accounts.',
  },
  {
    key: 'botUrl',
    flag: '--bot.url',
    env: 'BOT_NODE_URL',
    type: 'string',
    default: undefined,
    description:
      'Public JSON-RPC URL of the node the bot reads from and sends to; none = this node, in process (the same dispatch as its RPC).',
  },
  {
    key: 'botReportIntervalSeconds',
    flag: '--bot.reportIntervalSeconds',
    env: 'BOT_REPORT_INTERVAL_SECONDS',
    type: 'integer',
    default: 10,
    min: 1,
    description: 'Seconds between the bot\'s "bot report" log lines (sent, accepted, rejected by code, mined).',
  },
  {
    key: 'logLevel',
    flag: '--log-level',
    env: 'LOG_LEVEL',
    type: 'log-level',
    default: 'info',
    description: `Least severe level written to stderr as JSON lines: ${LOG_LEVELS.join(', ')}.`,
  },
  {
    key: 'maxBodyBytes',
    flag: '--max-body-bytes',
    env: 'RPC_MAX_BODY_BYTES',
    type: 'integer',
    default: 1048576,
    min: 1,
    description: 'Largest request body in bytes; larger bodies get HTTP 413.',
  },
  {
    key: 'maxBatchSize',
    flag: '--max-batch-size',
    env: 'RPC_MAX_BATCH_SIZE',
    type: 'integer',
    default: 100,
    min: 1,
    description: 'Most requests in one JSON-RPC batch; larger batches get -32600.',
  },
  {
    key: 'corsOrigin',
    flag: '--cors-origin',
    env: 'CORS_ORIGIN',
    type: 'origin-list',
    default: ['*'],
    description:
      'Origins browsers may call the public port from: * (any), or comma-separated origins such as https://app.example, each answered with exactly itself. A request from another origin gets 403.',
  },
  {
    key: 'adminCorsOrigin',
    flag: '--admin-cors-origin',
    env: 'ADMIN_CORS_ORIGIN',
    type: 'origin-list',
    default: [],
    description:
      "Origins browsers may call the admin port from (comma-separated, or *). None by default: no CORS headers, preflights and requests from any page refused with 403. Add the docs site's origin here to use its playground for admin calls.",
  },
  {
    key: 'vhosts',
    flag: '--vhosts',
    env: 'NODE_VHOSTS',
    type: 'host-list',
    default: [],
    shownDefault: 'localhost,127.0.0.1,[::1],<bound address>',
    description:
      "Host header names the public port serves (comma-separated, or * for any); another Host gets 403 (stops DNS rebinding). Bound to 0.0.0.0 or ::, the default also has this machine's interface addresses.",
  },
  {
    key: 'adminVhosts',
    flag: '--admin-vhosts',
    env: 'NODE_ADMIN_VHOSTS',
    type: 'host-list',
    default: [],
    shownDefault: 'localhost,127.0.0.1,[::1],<bound address>',
    description: 'Host header names the admin port serves (comma-separated, or * for any); another Host gets 403.',
  },
  {
    key: 'l1ChainId',
    flag: '--l1-chain-id',
    env: 'L1_CHAIN_ID',
    type: 'integer',
    default: 31337,
    min: 0,
    description: 'L1 chain id, returned by node_getChainId.',
  },
  {
    key: 'rollupVersion',
    flag: '--rollup-version',
    env: 'ROLLUP_VERSION',
    type: 'integer',
    default: 1,
    min: 0,
    description: 'Rollup protocol version, returned by node_getVersion.',
  },
  {
    key: 'shutdownTimeoutMs',
    flag: '--shutdown-timeout-ms',
    env: 'NODE_SHUTDOWN_TIMEOUT_MS',
    type: 'integer',
    default: 10000,
    min: 0,
    description: 'How long SIGINT/SIGTERM waits for in-flight requests before closing connections.',
  },
  {
    key: 'databaseUrl',
    flag: '--database-url',
    env: 'DATABASE_URL',
    type: 'postgres-url',
    default: undefined,
    description:
      'postgres://user:pass@host:port/db — keep the chain in Postgres instead of the SQLite file in the data directory.',
  },
  {
    key: 'genesisTime',
    flag: '--genesis-time',
    env: 'L2_GENESIS_TIME',
    type: 'bigint',
    default: 1735689600n,
    description: 'Unix time (seconds) of slot 0. Never change it for an existing data directory.',
  },
  {
    key: 'slotDurationSeconds',
    flag: '--slot-duration',
    env: 'AZTEC_SLOT_DURATION',
    type: 'integer',
    default: 12,
    min: 1,
    description:
      'Seconds per L2 slot (the dev L1 makes a block as often). Never change it for an existing data directory.',
  },
  {
    key: 'slotsPerEpoch',
    flag: '--slots-per-epoch',
    env: 'AZTEC_EPOCH_DURATION',
    type: 'integer',
    default: 32,
    min: 1,
    description: 'Slots per epoch (proving and finality work per epoch).',
  },
  {
    key: 'proofDelaySeconds',
    flag: '--proof-delay',
    env: 'PROOF_DELAY_SECONDS',
    type: 'integer',
    default: 24,
    min: 0,
    description: 'Seconds after an epoch ends until the dev prover marks it proven.',
  },
  {
    key: 'finalityDepth',
    flag: '--finality-depth',
    env: 'FINALITY_DEPTH',
    type: 'integer',
    default: 2,
    min: 0,
    description: 'L1 blocks on top of a proof before its blocks count as finalized.',
  },
  {
    key: 'sequencer',
    flag: '--sequencer',
    env: 'SEQUENCER_ENABLED',
    type: 'boolean',
    default: true,
    description:
      "Build blocks (this node is the dev chain's sequencer). --sequencer=false only serves reads and fills the mempool.",
  },
  {
    key: 'sequencerPollingIntervalMs',
    flag: '--sequencer-polling-interval-ms',
    env: 'SEQ_POLLING_INTERVAL_MS',
    type: 'integer',
    default: 500,
    min: 10,
    description: 'How often the sequencer checks whether to build a block or seal a checkpoint.',
  },
  {
    key: 'maxTxsPerBlock',
    flag: '--max-txs-per-block',
    env: 'SEQ_MAX_TX_PER_BLOCK',
    type: 'integer',
    default: 32,
    min: 1,
    description: 'Most txs in one block.',
  },
  {
    key: 'minTxsPerBlock',
    flag: '--min-txs-per-block',
    env: 'SEQ_MIN_TX_PER_BLOCK',
    type: 'integer',
    default: 1,
    min: 0,
    description: 'Fewest pending txs the sequencer waits for before it builds a block.',
  },
  {
    key: 'buildEmptyBlocks',
    flag: '--build-empty-blocks',
    env: 'SEQ_BUILD_EMPTY_BLOCKS',
    type: 'boolean',
    default: false,
    description: 'Build a block every slot even without txs.',
  },
  {
    key: 'maxL2GasPerBlock',
    flag: '--max-l2-block-gas',
    env: 'SEQ_MAX_L2_BLOCK_GAS',
    type: 'integer',
    default: 100000000,
    min: 1,
    description: 'Most L2 gas one block (and one tx) may use.',
  },
  {
    key: 'maxDaGasPerBlock',
    flag: '--max-da-block-gas',
    env: 'SEQ_MAX_DA_BLOCK_GAS',
    type: 'integer',
    default: 10000000,
    min: 1,
    description: 'Most DA gas one block (and one tx) may use.',
  },
  {
    key: 'maxPendingTxCount',
    flag: '--max-pending-tx-count',
    env: 'P2P_MAX_PENDING_TX_COUNT',
    type: 'integer',
    default: 1000,
    min: 0,
    description: 'Mempool capacity; a fuller pool evicts the lowest-priority tx or refuses the new one.',
  },
  {
    key: 'p2pEnabled',
    flag: '--p2p-enabled',
    env: 'P2P_ENABLED',
    type: 'boolean',
    default: false,
    description: 'Run the libp2p service (tx gossip, ENR). Also on whenever bootstrap peers are given.',
  },
  {
    key: 'p2pHost',
    flag: '--p2p-host',
    env: 'P2P_HOST',
    type: 'string',
    default: '127.0.0.1',
    description: 'Address the p2p service listens on; 0.0.0.0 for all interfaces.',
  },
  {
    key: 'p2pPort',
    flag: '--p2p-port',
    env: 'P2P_PORT',
    type: 'port',
    default: 40400,
    description: 'TCP port of the p2p service. 0 picks a free port.',
  },
  {
    key: 'p2pBootstrapPeers',
    flag: '--p2p-bootstrap-peers',
    env: 'P2P_BOOTSTRAP_PEERS',
    type: 'list',
    default: [],
    description: 'Comma-separated peers to dial: multiaddrs with /p2p/<id>, or enr: records. Turns p2p on.',
  },
  {
    key: 'follow',
    flag: '--follow',
    env: 'NODE_FOLLOW_URL',
    type: 'string',
    default: undefined,
    description:
      'Public JSON-RPC URL of a node to follow: take its blocks, verify each by re-applying it, build none (implies --sequencer=false). Txs sent here are forwarded to it (gossiped instead when p2p is on). Start with the same chain flags as that node; a different genesis or chain id refuses to start.',
  },
  {
    key: 'importChain',
    flag: '--import-chain',
    env: 'L2NODE_IMPORT_CHAIN',
    type: 'string',
    default: undefined,
    description:
      "Serve this chain file (the conformance chain, docs/CONFORMANCE.md): imported through block and checkpoint verification on an empty data directory, then served with the sequencer off and the clock frozen at the file's time.",
  },
  {
    key: 'role',
    flag: '--role',
    env: 'NODE_ROLE',
    type: 'string',
    default: 'full',
    description:
      "'full' or 'rpc'. rpc: a read-only process beside a full node (the writer) on the same Postgres database (--database-url required, never migrated): serves the public port from it, builds and writes nothing, forwards node_sendTx to --writer-url; state-changing admin methods answer -32053.",
  },
  {
    key: 'writerUrl',
    flag: '--writer-url',
    env: 'NODE_WRITER_URL',
    type: 'string',
    default: undefined,
    description:
      'With --role rpc: public JSON-RPC URL of the writer (the full node on the same database); node_sendTx is forwarded there.',
  },
  {
    key: 'maxReplicationLagMs',
    flag: '--max-replication-lag-ms',
    env: 'NODE_MAX_REPLICATION_LAG_MS',
    type: 'integer',
    default: undefined,
    min: 1,
    description:
      'With --role rpc on a Postgres hot-standby replica: GET /status answers 503 (not ready) while the replica replays WAL more than this many milliseconds behind the primary. Unset: no limit (the lag is still reported).',
  },
  {
    key: 'keystore',
    flag: '--keystore',
    env: 'KEY_STORE_DIRECTORY',
    type: 'string',
    default: undefined,
    description:
      "Validator keystore: a JSON file, or a directory whose *.json files are all read (docs/KEYSTORE.md). Its attesters are the registered validator set, every one in each committee; nodeAdmin_reloadKeystore re-reads it. Without it the node runs the dev validator (documented development key, docs/KEYSTORE.md), the set's only member and every slot's proposer.",
  },
  {
    key: 'registeredValidators',
    flag: '--registered-validators',
    env: 'REGISTERED_VALIDATORS',
    type: 'list',
    default: [],
    description:
      "Comma-separated attester addresses (0x + 40 hex) registered besides this node's own validators: the rest of the genesis validator set, the same on every node. They sit in every committee and propose their slots; the sequencer builds only in slots whose proposer is one of this node's validators (docs/KEYSTORE.md).",
  },
  {
    key: 'snapshot',
    flag: '--snapshot',
    env: 'NODE_SNAPSHOT',
    type: 'string',
    default: undefined,
    description:
      'Snapshot to start from (a path or file:// URL of a directory written by nodeAdmin_startSnapshotUpload, or an http(s):// URL it was uploaded to): restored, checksum verified, into the data directory when it holds no database yet, then the node continues that chain. A data directory that already has a database is used as it is (a warning is logged) (docs/OPERATIONS.md).',
  },
  {
    key: 'metricsPort',
    flag: '--metrics-port',
    env: 'METRICS_PORT',
    type: 'port',
    default: undefined,
    description:
      'Serve Prometheus metrics at GET /metrics on this port, a listener of its own (never the public or admin port); none = no metrics and no listener. 0 picks a free port (docs/OPERATIONS.md "Metrics").',
  },
  {
    key: 'metricsHost',
    flag: '--metrics-host',
    env: 'METRICS_HOST',
    type: 'string',
    default: '127.0.0.1',
    description:
      'Address the metrics listener binds to; 0.0.0.0 for all interfaces (for a Prometheus server on another host).',
  },
  {
    key: 'progressIntervalSeconds',
    flag: '--progress-interval-seconds',
    env: 'NODE_PROGRESS_INTERVAL_SECONDS',
    type: 'number',
    default: 10,
    min: 0.01,
    max: 3600,
    description:
      'Seconds between progress log lines of long work: a follower catching up (done/target, blocks per second, ETA), --import-chain, snapshot upload and restore (bytes done/total).',
  },
];

/** v3 names that v4 removed, with their replacement (SPEC §9). */
export const REMOVED_OPTIONS: readonly { readonly name: string; readonly replacement: string }[] = [
  { name: '--bot.baseFeePadding', replacement: '--bot.minFeePadding' },
  { name: 'BOT_BASE_FEE_PADDING', replacement: 'BOT_MIN_FEE_PADDING' },
];
