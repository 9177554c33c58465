/**
 * The declarative table of every startup option: flag, environment variable, type, default,
 * description and validation. Parsing, `--help` and docs/OPERATIONS.md are all built from it.
 * @module
 */

/** How an option's text value is read. */
export type OptionType = 'string' | 'boolean' | 'port' | 'integer' | 'number' | 'bigint' | 'hash' | 'log-level';

/** One startup option. `key` names the field of `Config`. */
export interface OptionSpec {
  readonly key: keyof Config;
  readonly flag: string;
  readonly env?: string;
  readonly type: OptionType;
  readonly default: string | number | boolean | bigint | undefined;
  readonly description: string;
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
  logLevel: LogLevel;
  maxBodyBytes: number;
  maxBatchSize: number;
  corsOrigin: string;
  l1ChainId: number;
  rollupVersion: number;
  shutdownTimeoutMs: number;
}

/** Every option, in the order `--help` and the docs list them. */
export const OPTIONS: readonly OptionSpec[] = [
  { key: 'port', flag: '--port', env: 'AZTEC_PORT', type: 'port', default: 8080, description: 'Public JSON-RPC port (SPEC §1). 0 picks a free port.' },
  { key: 'host', flag: '--host', env: 'NODE_HOST', type: 'string', default: '127.0.0.1', description: 'Address the public JSON-RPC server binds to; 0.0.0.0 for all interfaces.' },
  { key: 'adminPort', flag: '--admin-port', env: 'AZTEC_ADMIN_PORT', type: 'port', default: 8880, description: 'Admin JSON-RPC port (SPEC §1). 0 picks a free port.' },
  { key: 'adminHost', flag: '--admin-host', env: 'NODE_ADMIN_HOST', type: 'string', default: '127.0.0.1', description: 'Address the admin JSON-RPC server binds to. Keep it private.' },
  { key: 'dataDirectory', flag: '--data-directory', env: 'DATA_DIRECTORY', type: 'string', default: './data', description: "Directory for the database and the admin key hash; '' keeps everything in memory and writes nothing." },
  { key: 'adminApiKeyHash', flag: '--admin-api-key-hash', env: 'NODE_ADMIN_API_KEY_HASH', type: 'hash', default: undefined, description: 'Use this pre-generated SHA-256 hash (64 lowercase hex) of the admin API key (SPEC §5).' },
  { key: 'noAdminApiKey', flag: '--no-admin-api-key', env: 'NODE_NO_ADMIN_API_KEY', type: 'boolean', default: false, description: 'Disable admin API key authentication entirely (SPEC §5). Not for production.' },
  { key: 'resetAdminApiKey', flag: '--reset-admin-api-key', env: 'NODE_RESET_ADMIN_API_KEY', type: 'boolean', default: false, description: 'Generate, print and persist a new admin API key, replacing the stored one (SPEC §3).' },
  { key: 'initialEthPerFeeAsset', flag: '--initialEthPerFeeAsset', env: 'NODE_INITIAL_ETH_PER_FEE_ASSET', type: 'bigint', default: 10000000n, description: 'Initial ETH per fee asset, an integer with 1e12 precision (10000000 = 0.00001 ETH) (SPEC §8, §9).' },
  { key: 'botMinFeePadding', flag: '--bot.minFeePadding', env: 'BOT_MIN_FEE_PADDING', type: 'number', default: 3, min: 0, description: 'How much the bot pads the minimum fee it pays (v4 name of --bot.baseFeePadding, SPEC §9).' },
  { key: 'logLevel', flag: '--log-level', env: 'LOG_LEVEL', type: 'log-level', default: 'info', description: `Least severe level written to stderr as JSON lines: ${LOG_LEVELS.join(', ')}.` },
  { key: 'maxBodyBytes', flag: '--max-body-bytes', env: 'RPC_MAX_BODY_BYTES', type: 'integer', default: 1048576, min: 1, description: 'Largest request body in bytes; larger bodies get HTTP 413.' },
  { key: 'maxBatchSize', flag: '--max-batch-size', env: 'RPC_MAX_BATCH_SIZE', type: 'integer', default: 100, min: 1, description: 'Most requests in one JSON-RPC batch; larger batches get -32600.' },
  { key: 'corsOrigin', flag: '--cors-origin', env: 'CORS_ORIGIN', type: 'string', default: '*', description: 'Value of Access-Control-Allow-Origin on both ports.' },
  { key: 'l1ChainId', flag: '--l1-chain-id', env: 'L1_CHAIN_ID', type: 'integer', default: 31337, min: 0, description: 'L1 chain id, returned by node_getChainId.' },
  { key: 'rollupVersion', flag: '--rollup-version', env: 'ROLLUP_VERSION', type: 'integer', default: 1, min: 0, description: 'Rollup protocol version, returned by node_getVersion.' },
  { key: 'shutdownTimeoutMs', flag: '--shutdown-timeout-ms', env: 'NODE_SHUTDOWN_TIMEOUT_MS', type: 'integer', default: 10000, min: 0, description: 'How long SIGINT/SIGTERM waits for in-flight requests before closing connections.' },
];

/** v3 names that v4 removed, with their replacement (SPEC §9). */
export const REMOVED_OPTIONS: readonly { readonly name: string; readonly replacement: string }[] = [
  { name: '--bot.baseFeePadding', replacement: '--bot.minFeePadding' },
  { name: 'BOT_BASE_FEE_PADDING', replacement: 'BOT_MIN_FEE_PADDING' },
];
