/** Startup options: precedence, conversion and refusal (SPEC §5, §8, §9). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OPTIONS } from '../../../src/config/options.ts';
import { ConfigError, parseCommand } from '../../../src/config/parse.ts';
import type { Config } from '../../../src/config/options.ts';

function parse(argv: string[], env: Record<string, string> = {}): Config {
  const command = parseCommand(argv, env);
  assert.equal(command.kind, 'run');
  return command.config;
}

describe('defaults', () => {
  it('default: ports 8080/8880 on 127.0.0.1, ./data, auth on, SPEC constants', () => {
    const config = parse([]);
    assert.equal(config.port, 8080);
    assert.equal(config.adminPort, 8880);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.adminHost, '127.0.0.1');
    assert.equal(config.dataDirectory, './data');
    assert.equal(config.noAdminApiKey, false);
    assert.equal(config.resetAdminApiKey, false);
    assert.equal(config.adminApiKeyHash, undefined);
    assert.equal(config.initialEthPerFeeAsset, 10_000_000n);
    assert.equal(config.maxBodyBytes, 1_048_576);
    assert.equal(config.maxBatchSize, 100);
    assert.equal(config.l1ChainId, 31337);
    assert.equal(config.logLevel, 'info');
    // Metrics are off unless asked for: no port, so no listener.
    assert.equal(config.metricsPort, undefined);
    assert.equal(config.metricsHost, '127.0.0.1');
  });

  it('metrics: --metrics-port / METRICS_PORT and --metrics-host / METRICS_HOST', () => {
    assert.equal(parse(['--metrics-port', '9464']).metricsPort, 9464);
    assert.deepEqual(
      [parse([], { METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' })].map((c) => [c.metricsPort, c.metricsHost]),
      [[0, '0.0.0.0']],
    );
  });
});

describe('precedence', () => {
  it('flags override environment variables, which override defaults', () => {
    assert.equal(parse([], { AZTEC_PORT: '9000' }).port, 9000);
    assert.equal(parse(['--port', '9100'], { AZTEC_PORT: '9000' }).port, 9100);
    assert.equal(parse(['--port=9200'], { AZTEC_PORT: '9000' }).port, 9200);
    assert.equal(parse([], { DATA_DIRECTORY: '/var/lib/l2' }).dataDirectory, '/var/lib/l2');
    assert.equal(parse(['--data-directory', '/srv'], { DATA_DIRECTORY: '/var/lib/l2' }).dataDirectory, '/srv');
  });

  it("--data-directory '' means in memory, from a flag or the environment", () => {
    assert.equal(parse(['--data-directory', '']).dataDirectory, '');
    assert.equal(parse(['--data-directory=']).dataDirectory, '');
    assert.equal(parse([], { DATA_DIRECTORY: '' }).dataDirectory, '');
  });

  it('an empty non-string environment variable counts as unset', () => {
    assert.equal(parse([], { AZTEC_PORT: '' }).port, 8080);
  });
});

describe('values', () => {
  it('booleans: bare flag, =true/false, env true/1/false/0', () => {
    assert.equal(parse(['--no-admin-api-key']).noAdminApiKey, true);
    assert.equal(parse(['--no-admin-api-key=false']).noAdminApiKey, false);
    assert.equal(parse([], { NODE_NO_ADMIN_API_KEY: '1' }).noAdminApiKey, true);
    assert.equal(parse([], { NODE_RESET_ADMIN_API_KEY: 'TRUE' }).resetAdminApiKey, true);
    assert.equal(parse([], { NODE_NO_ADMIN_API_KEY: '0' }).noAdminApiKey, false);
  });

  it('initialEthPerFeeAsset is an exact integer (bigint), beyond 2^53 too', () => {
    assert.equal(
      parse(['--initialEthPerFeeAsset', '123456789012345678901']).initialEthPerFeeAsset,
      123456789012345678901n,
    );
    assert.equal(parse([], { NODE_INITIAL_ETH_PER_FEE_ASSET: '42' }).initialEthPerFeeAsset, 42n);
  });

  it('bot.minFeePadding takes a non-negative number, flag or env', () => {
    assert.equal(parse(['--bot.minFeePadding', '0.5']).botMinFeePadding, 0.5);
    assert.equal(parse([], { BOT_MIN_FEE_PADDING: '7' }).botMinFeePadding, 7);
  });

  it('a lowercase 64-hex hash is accepted', () => {
    assert.equal(parse(['--admin-api-key-hash', 'ab'.repeat(32)]).adminApiKeyHash, 'ab'.repeat(32));
    // As sha256sum or a 0x-printing tool gives it: stored bare and lowercase, so it compares with the key's hash.
    assert.equal(parse(['--admin-api-key-hash', `0x${'AB'.repeat(32)}`]).adminApiKeyHash, 'ab'.repeat(32));
    assert.equal(parse([], { NODE_ADMIN_API_KEY_HASH: 'Ab'.repeat(32) }).adminApiKeyHash, 'ab'.repeat(32));
  });
});

describe('refusals name the flag', () => {
  const refused: [string[], Record<string, string>, RegExp][] = [
    [['--port', '65536'], {}, /--port: must be <= 65535/],
    [['--port', '-1'], {}, /--port/],
    [['--port', '80.5'], {}, /--port/],
    [[], { AZTEC_ADMIN_PORT: 'x' }, /AZTEC_ADMIN_PORT \(--admin-port\)/],
    [['--admin-api-key-hash', 'AB'.repeat(31)], {}, /--admin-api-key-hash: must be a SHA-256 hash, 64 hex characters/],
    [['--admin-api-key-hash', 'ab'.repeat(31)], {}, /--admin-api-key-hash/],
    [['--initialEthPerFeeAsset', '-5'], {}, /--initialEthPerFeeAsset: must be a non-negative integer/],
    [['--initialEthPerFeeAsset', '1e7'], {}, /--initialEthPerFeeAsset/],
    // 0 would make every fee a division by zero: the node could not price a block.
    [['--initialEthPerFeeAsset', '0'], {}, /--initialEthPerFeeAsset: must be >= 1/],
    [['--max-batch-size', '0'], {}, /--max-batch-size: must be >= 1/],
    [['--max-body-bytes', '99999999999999999999'], {}, /--max-body-bytes/],
    [['--unknown'], {}, /unknown flag --unknown/],
    [['--port', '9000', '--admin-port', '9000'], {}, /--port and --admin-port are both 9000/],
    [
      ['--metrics-port', '8080'],
      {},
      /--metrics-port and --port are both 8080; the metrics listener needs a port of its own/,
    ],
    [['--metrics-port', '8880'], {}, /--metrics-port and --admin-port are both 8880/],
    [['--progress-interval-seconds', '0'], {}, /--progress-interval-seconds: must be >= 0\.01/],
    [['stray'], {}, /unexpected argument "stray"/],
    [['--bot.baseFeePadding=2'], {}, /--bot\.baseFeePadding was removed in v4\.0\.0; use --bot\.minFeePadding/],
    [[], { BOT_BASE_FEE_PADDING: '2' }, /BOT_BASE_FEE_PADDING was removed in v4\.0\.0; use BOT_MIN_FEE_PADDING/],
    // A reset with no generated key to reset would be ignored without a word: both flags are named.
    [
      ['--reset-admin-api-key', '--no-admin-api-key'],
      {},
      /^--reset-admin-api-key and --no-admin-api-key cannot be used together/,
    ],
    [
      ['--reset-admin-api-key', '--admin-api-key-hash', 'ab'.repeat(32)],
      {},
      /^--reset-admin-api-key and --admin-api-key-hash cannot be used together/,
    ],
    [
      ['--admin-api-key-hash', 'ab'.repeat(32)],
      { NODE_RESET_ADMIN_API_KEY: 'true' },
      /--reset-admin-api-key and --admin-api-key-hash/,
    ],
  ];
  for (const [argv, env, pattern] of refused) {
    it(`refuses ${argv.join(' ') || JSON.stringify(env)}`, () => {
      assert.throws(
        () => parseCommand(argv, env),
        (err: unknown) => err instanceof ConfigError && pattern.test(err.message),
      );
    });
  }

  it('the v3 name is refused even next to --help', () => {
    assert.throws(() => parseCommand(['--help', '--bot.baseFeePadding', '1'], {}), ConfigError);
  });
});

describe('the table', () => {
  it('every flag and environment variable is unique and every option has a description', () => {
    const flags = OPTIONS.map((o) => o.flag);
    const envs = OPTIONS.flatMap((o) => (o.env ? [o.env] : []));
    assert.equal(new Set(flags).size, flags.length);
    assert.equal(new Set(envs).size, envs.length);
    for (const option of OPTIONS) assert.ok(option.description.length > 10, option.flag);
  });

  it('--help is recognised', () => {
    assert.deepEqual(parseCommand(['--help'], {}), { kind: 'help' });
    assert.deepEqual(parseCommand(['-h'], {}), { kind: 'help' });
  });
});

describe('browser safety options', () => {
  it('defaults: public CORS *, admin CORS none, both Host lists empty (= the bound default)', () => {
    const config = parse([]);
    assert.deepEqual(config.corsOrigin, ['*']);
    assert.deepEqual(config.adminCorsOrigin, []);
    assert.deepEqual(config.vhosts, []);
    assert.deepEqual(config.adminVhosts, []);
  });

  it('origins and hosts are comma-separated, normalised, from flags or the environment', () => {
    assert.deepEqual(parse(['--admin-cors-origin', 'https://Docs.Example, http://localhost:4000']).adminCorsOrigin, [
      'https://docs.example',
      'http://localhost:4000',
    ]);
    assert.deepEqual(parse([], { ADMIN_CORS_ORIGIN: 'https://docs.example' }).adminCorsOrigin, [
      'https://docs.example',
    ]);
    assert.deepEqual(parse([], { CORS_ORIGIN: 'https://app.example' }).corsOrigin, ['https://app.example']);
    assert.deepEqual(parse(['--vhosts', 'Node.Example.,[::1],10.0.0.5']).vhosts, ['node.example', '::1', '10.0.0.5']);
    assert.deepEqual(parse([], { NODE_ADMIN_VHOSTS: '*' }).adminVhosts, ['*']);
    assert.deepEqual(parse([], { NODE_VHOSTS: 'a.example' }).vhosts, ['a.example']);
  });

  it('an origin with a path, or a host with a port, is refused naming the flag', () => {
    assert.throws(
      () => parse(['--admin-cors-origin', 'https://docs.example/playground']),
      (e: Error) => e instanceof ConfigError && /--admin-cors-origin/.test(e.message) && /no path/.test(e.message),
    );
    assert.throws(
      () => parse(['--cors-origin', 'docs.example']),
      (e: Error) => e instanceof ConfigError && /--cors-origin/.test(e.message),
    );
    assert.throws(
      () => parse(['--admin-vhosts', 'node.example:8880']),
      (e: Error) => e instanceof ConfigError && /--admin-vhosts/.test(e.message),
    );
  });

  it('--no-admin-api-key refuses a non-loopback --admin-host, --admin-cors-origin * and --admin-vhosts *, naming both flags and the risk', () => {
    const refused = (argv: string[], other: string) =>
      assert.throws(
        () => parse(['--no-admin-api-key', ...argv]),
        (e: Error) =>
          e instanceof ConfigError &&
          e.message.includes('--no-admin-api-key') &&
          e.message.includes(other) &&
          /upload the whole database/.test(e.message),
      );
    refused(['--admin-host', '0.0.0.0'], '--admin-host 0.0.0.0');
    refused(['--admin-host', '192.168.1.20'], '--admin-host');
    refused(['--admin-cors-origin', '*'], '--admin-cors-origin *');
    refused(['--admin-vhosts', '*'], '--admin-vhosts *');
    assert.throws(
      () => parse([], { NODE_NO_ADMIN_API_KEY: 'true', NODE_ADMIN_HOST: '::' }),
      /--no-admin-api-key with --admin-host ::/,
    );
    // Loopback, named origins and named hosts stay allowed without a key.
    for (const argv of [
      ['--admin-host', 'localhost'],
      ['--admin-host', '::1'],
      ['--admin-host', '127.0.0.2'],
      ['--admin-cors-origin', 'http://localhost:4000'],
      ['--admin-vhosts', 'dev.local'],
    ]) {
      assert.equal(parse(['--no-admin-api-key', ...argv]).noAdminApiKey, true, argv.join(' '));
    }
    // With a key, every combination is the operator's choice.
    assert.deepEqual(parse(['--admin-host', '0.0.0.0', '--admin-cors-origin', '*']).adminCorsOrigin, ['*']);
  });
});
