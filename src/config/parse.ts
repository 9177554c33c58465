/**
 * Reads the startup options from command-line flags and environment variables, in that order of
 * precedence over the defaults in `OPTIONS`, and refuses anything invalid with a message naming
 * the flag.
 * @module
 */
import { isLoopbackHost, normalizeHostName } from '../server/vhosts.ts';
import { OPTIONS, REMOVED_OPTIONS, LOG_LEVELS } from './options.ts';
import type { Config, OptionSpec } from './options.ts';

/** A startup option was wrong; `message` names the flag or variable. The process exits with 1. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** What the command line asked for: run with a config, or print help. */
export type ParsedCommand = { readonly kind: 'run'; readonly config: Config } | { readonly kind: 'help' };

// SHA-256 in hex as operators paste it: either case, with or without 0x (stored lowercase, bare).
const HASH_PATTERN = /^(0x)?[0-9a-fA-F]{64}$/;
const INTEGER_PATTERN = /^(0|[1-9][0-9]*)$/;
const NUMBER_PATTERN = /^-?[0-9]+(\.[0-9]+)?$/;
// An origin as browsers send it: scheme://host[:port], no path (https://docs.example, http://localhost:4000).
const ORIGIN_PATTERN = /^[a-z][a-z0-9+.-]*:\/\/(\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(:[0-9]{1,5})?$/i;
const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[0-9a-f:.]*:[0-9a-f:.]*|[a-z0-9._~-]+)$/i;

/** Parses `argv` (without node and script) and `env` into a `Config`, or throws `ConfigError`. */
export function parseCommand(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ParsedCommand {
  refuseRemovedNames(argv, env);
  if (argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };
  const fromFlags = readFlags(argv);
  const config: Record<string, unknown> = {};
  for (const option of OPTIONS) {
    const envValue = option.env === undefined ? undefined : env[option.env];
    if (fromFlags.has(option.key)) {
      config[option.key] = convert(option, fromFlags.get(option.key)!, option.flag);
    } else if (envValue !== undefined && !(envValue === '' && option.type !== 'string')) {
      config[option.key] = convert(option, envValue, `${option.env} (${option.flag})`);
    } else {
      config[option.key] = option.default;
    }
  }
  const result = config as unknown as Config;
  if (result.port !== 0 && result.port === result.adminPort && result.host === result.adminHost) {
    throw new ConfigError(
      `--port and --admin-port are both ${result.port}; the public and admin servers need different ports`,
    );
  }
  refuseKeyFlagConflicts(result);
  refuseOpenAdminWithoutKey(result);
  refuseSharedMetricsPort(result);
  return { kind: 'run', config: result };
}

/**
 * Without a key, the admin port is only as safe as who can reach it: refuse the combinations that
 * hand it to the network or to every web page (docs/OPERATIONS.md "Browser safety and hostile callers").
 */
function refuseOpenAdminWithoutKey(config: Config): void {
  if (!config.noAdminApiKey) return;
  const risk = 'could pause sync, roll the chain back or upload the whole database to a location of their choice';
  if (!isLoopbackHost(config.adminHost)) {
    throw new ConfigError(
      `--no-admin-api-key with --admin-host ${config.adminHost} (not a loopback address): anyone who can reach that address ${risk}, without a key. Keep --admin-host on 127.0.0.1 or use an admin API key.`,
    );
  }
  if (config.adminCorsOrigin.includes('*')) {
    throw new ConfigError(
      `--no-admin-api-key with --admin-cors-origin *: any web page opened in a browser on this machine ${risk}, without a key. Name the origins you trust in --admin-cors-origin or use an admin API key.`,
    );
  }
  if (config.adminVhosts.includes('*')) {
    throw new ConfigError(
      `--no-admin-api-key with --admin-vhosts *: a web page using DNS rebinding ${risk}, without a key. Name the host names you use in --admin-vhosts or use an admin API key.`,
    );
  }
}

/** The metrics listener is its own: never the public or admin port (a scrape must not reach JSON-RPC, nor the reverse). */
function refuseSharedMetricsPort(config: Config): void {
  const metrics = config.metricsPort;
  if (metrics === undefined || metrics === 0) return;
  for (const [flag, port] of [
    ['--port', config.port],
    ['--admin-port', config.adminPort],
  ] as const) {
    if (port === metrics)
      throw new ConfigError(
        `--metrics-port and ${flag} are both ${metrics}; the metrics listener needs a port of its own`,
      );
  }
}

/**
 * `--reset-admin-api-key` makes a new generated key; with a given hash or with auth disabled there
 * is none to reset, and starting anyway would ignore the flag without a word.
 */
function refuseKeyFlagConflicts(config: Config): void {
  if (!config.resetAdminApiKey) return;
  const other = config.noAdminApiKey
    ? '--no-admin-api-key'
    : config.adminApiKeyHash !== undefined
      ? '--admin-api-key-hash'
      : undefined;
  if (other === undefined) return;
  const why =
    other === '--no-admin-api-key'
      ? 'authentication is disabled, so there is no key to reset'
      : 'the key is given by its hash, so there is no generated key to reset';
  throw new ConfigError(`--reset-admin-api-key and ${other} cannot be used together: ${why}`);
}

function refuseRemovedNames(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): void {
  for (const removed of REMOVED_OPTIONS) {
    const used = removed.name.startsWith('--')
      ? argv.some((arg) => arg === removed.name || arg.startsWith(`${removed.name}=`))
      : env[removed.name] !== undefined;
    // SPEC §9: the v3 name is a breaking change; say which v4 name replaces it.
    if (used) throw new ConfigError(`${removed.name} was removed in v4.0.0; use ${removed.replacement} instead`);
  }
}

function readFlags(argv: readonly string[]): Map<string, string> {
  const byFlag = new Map(OPTIONS.map((option) => [option.flag, option]));
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const option = byFlag.get(name);
    if (option === undefined) {
      throw new ConfigError(
        arg.startsWith('-')
          ? `unknown flag ${name} (see --help)`
          : `unexpected argument ${JSON.stringify(arg)} (see --help)`,
      );
    }
    if (eq > 0 && name !== arg) {
      values.set(option.key, arg.slice(eq + 1));
    } else if (option.type === 'boolean') {
      values.set(option.key, 'true');
    } else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2))
        throw new ConfigError(`${option.flag} needs a value`);
      values.set(option.key, next);
      i++;
    }
  }
  return values;
}

function convert(option: OptionSpec, text: string, name: string): unknown {
  const fail = (rule: string): never => {
    throw new ConfigError(`invalid value ${JSON.stringify(text)} for ${name}: ${rule}`);
  };
  switch (option.type) {
    case 'string':
      return text;
    case 'boolean': {
      const lower = text.toLowerCase();
      if (lower === 'true' || lower === '1') return true;
      if (lower === 'false' || lower === '0') return false;
      return fail('must be true, false, 1 or 0');
    }
    case 'hash':
      return HASH_PATTERN.test(text)
        ? text.replace(/^0x/, '').toLowerCase()
        : fail('must be a SHA-256 hash, 64 hex characters (optionally 0x-prefixed)');
    case 'list':
      return splitList(text);
    case 'origin-list': {
      const origins = splitList(text);
      for (const o of origins)
        if (o !== '*' && !ORIGIN_PATTERN.test(o))
          fail(
            `${JSON.stringify(o)} is not * or an origin such as https://docs.example (scheme://host[:port], no path)`,
          );
      return origins.map((o) => o.toLowerCase());
    }
    case 'host-list': {
      const hosts = splitList(text);
      for (const h of hosts)
        if (h !== '*' && !HOST_PATTERN.test(h))
          fail(
            `${JSON.stringify(h)} is not * or a host name or address without port, such as node.example or 10.0.0.5`,
          );
      return hosts.map((h) => (h === '*' ? h : normalizeHostName(h)));
    }
    case 'postgres-url':
      return /^postgres(ql)?:\/\/\S+$/.test(text) ? text : fail('must be a postgres:// or postgresql:// URL');
    case 'log-level':
      return (LOG_LEVELS as readonly string[]).includes(text) ? text : fail(`must be one of ${LOG_LEVELS.join(', ')}`);
    case 'bigint': {
      const value = INTEGER_PATTERN.test(text) ? BigInt(text) : fail('must be a non-negative integer');
      if (option.min !== undefined && value < BigInt(option.min)) fail(`must be >= ${option.min}`);
      return value;
    }
    case 'port':
      return checkRange(
        INTEGER_PATTERN.test(text) ? Number(text) : fail('must be an integer from 0 to 65535'),
        0,
        65535,
        fail,
      );
    case 'integer': {
      const value = INTEGER_PATTERN.test(text) ? Number(text) : fail('must be a non-negative integer');
      return Number.isSafeInteger(value) ? checkRange(value, option.min, option.max, fail) : fail('is too large');
    }
    case 'number':
      return checkRange(
        NUMBER_PATTERN.test(text) ? Number(text) : fail('must be a number'),
        option.min,
        option.max,
        fail,
      );
  }
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

function checkRange(
  value: number,
  min: number | undefined,
  max: number | undefined,
  fail: (rule: string) => never,
): number {
  if (!Number.isFinite(value)) fail('is out of range');
  if (min !== undefined && value < min) fail(`must be >= ${min}`);
  if (max !== undefined && value > max) fail(`must be <= ${max}`);
  return value;
}
