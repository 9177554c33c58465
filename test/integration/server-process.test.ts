/** The node as a process: admin key lifecycle, refused configurations, runtime check, signals (SPEC §3, §5, §9). */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { post, send } from './server-harness.ts';
import { BIN, cleanEnv, printedKey, runNode, startNode, tempDir } from './server-process-harness.ts';

const adminBatch = [{ jsonrpc: '2.0', id: 0, method: 'nodeAdmin_getConfig', params: [] }];
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function adminStatus(url: string, key?: string): Promise<number> {
  return (await post(url, adminBatch, key === undefined ? {} : { 'x-api-key': key })).status;
}

describe('admin API key lifecycle', () => {
  it('first start prints a key once, stores only its SHA-256 with mode 0600; restart reuses it silently', async () => {
    const cwd = await tempDir();
    const first = await startNode([], { cwd });
    const key = printedKey(first.stdout());
    assert.ok(key, `a key is printed on stdout:\n${first.stdout()}`);
    assert.match(first.stdout(), /x-api-key/);
    assert.ok(!first.stderr().includes(key), 'the key is not in the logs');
    const file = join(cwd, 'data', 'admin', 'api_key_hash');
    assert.equal(await readFile(file, 'utf8'), sha256(key));
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal(await adminStatus(first.adminUrl, key), 200);
    assert.equal(await adminStatus(first.adminUrl), 401);
    assert.equal(await first.stop(), 0);

    const second = await startNode([], { cwd });
    assert.equal(second.stdout(), '', 'nothing is printed on restart');
    assert.equal(await adminStatus(second.adminUrl, key), 200);
    assert.equal(await second.stop(), 0);
  });

  it('--reset-admin-api-key prints a new key and the old one stops working', async () => {
    const cwd = await tempDir();
    const first = await startNode([], { cwd });
    const oldKey = printedKey(first.stdout())!;
    await first.stop();
    const reset = await startNode(['--reset-admin-api-key'], { cwd });
    const newKey = printedKey(reset.stdout());
    assert.ok(newKey && newKey !== oldKey);
    assert.equal(await readFile(join(cwd, 'data', 'admin', 'api_key_hash'), 'utf8'), sha256(newKey));
    assert.equal(await adminStatus(reset.adminUrl, oldKey), 401);
    assert.equal(await adminStatus(reset.adminUrl, newKey), 200);
    await reset.stop();
  });

  it('NODE_RESET_ADMIN_API_KEY=true does the same', async () => {
    const cwd = await tempDir();
    const first = await startNode([], { cwd });
    const oldKey = printedKey(first.stdout())!;
    await first.stop();
    const reset = await startNode([], { cwd, env: cleanEnv({ NODE_RESET_ADMIN_API_KEY: 'true' }) });
    assert.notEqual(printedKey(reset.stdout()), oldKey);
    await reset.stop();
  });

  it('--admin-api-key-hash uses the given hash, prints and writes nothing', async () => {
    const cwd = await tempDir();
    const key = 'operator-chosen-key';
    const node = await startNode(['--admin-api-key-hash', sha256(key)], { cwd });
    assert.doesNotMatch(node.stdout(), /Admin API key|x-api-key/);
    assert.equal(existsSync(join(cwd, 'data', 'admin', 'api_key_hash')), false);
    assert.equal(await adminStatus(node.adminUrl, key), 200);
    assert.equal((await post(node.adminUrl, adminBatch, { authorization: `Bearer ${key}` })).status, 200);
    assert.equal(await adminStatus(node.adminUrl, 'other'), 401);
    await node.stop();
  });

  it('NODE_ADMIN_API_KEY_HASH is the environment form', async () => {
    const node = await startNode([], {
      cwd: await tempDir(),
      env: cleanEnv({ NODE_ADMIN_API_KEY_HASH: sha256('env-key') }),
    });
    assert.equal(await adminStatus(node.adminUrl, 'env-key'), 200);
    await node.stop();
  });

  it('--no-admin-api-key disables auth with a loud warning and prints no key', async () => {
    const cwd = await tempDir();
    const node = await startNode(['--no-admin-api-key'], { cwd });
    assert.doesNotMatch(node.stdout(), /Admin API key|x-api-key/);
    assert.equal(await adminStatus(node.adminUrl), 200);
    const warning = node
      .stderr()
      .split('\n')
      .find((l) => l.includes('"level":"warn"'));
    assert.match(warning ?? '', /DISABLED/);
    await node.stop();
  });

  it("--data-directory '' keeps everything in memory: a new key each start, nothing written", async () => {
    const cwd = await tempDir();
    const first = await startNode(['--data-directory', ''], { cwd });
    const second = await startNode(['--data-directory', ''], { cwd });
    const [a, b] = [printedKey(first.stdout()), printedKey(second.stdout())];
    assert.ok(a && b && a !== b);
    assert.equal(await adminStatus(second.adminUrl, b), 200);
    await Promise.all([first.stop(), second.stop()]);
    assert.deepEqual(await readdir(cwd), []);
  });

  it('DATA_DIRECTORY sets where the key hash is kept', async () => {
    const cwd = await tempDir();
    const node = await startNode([], { cwd, env: cleanEnv({ DATA_DIRECTORY: 'state' }) });
    assert.ok(existsSync(join(cwd, 'state', 'admin', 'api_key_hash')));
    await node.stop();
  });
});

describe('both ports', () => {
  it('GET /status answers on both ports without a key; the public port needs none', async () => {
    const node = await startNode([], { cwd: await tempDir() });
    for (const url of [node.publicUrl, node.adminUrl]) {
      const res = await send(url, { method: 'GET', path: '/status' });
      assert.equal(res.status, 200);
      assert.equal(res.json().status, 'ok');
      assert.equal(
        res.json().version,
        JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')).version,
      );
    }
    await node.stop();
  });

  it('the public port serves the generated table: config-backed node-info, -32602 before dispatch, the chain behind the rest', async () => {
    const node = await startNode(['--data-directory', '', '--l1-chain-id', '11155111', '--rollup-version', '7'], {
      cwd: await tempDir(),
    });
    const version = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')).version;
    const res = await post(node.publicUrl, [
      { jsonrpc: '2.0', id: 0, method: 'node_getNodeVersion', params: [] },
      { jsonrpc: '2.0', id: 1, method: 'node_getChainId', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'node_getVersion', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'node_getBlockNumber', params: [] },
      { jsonrpc: '2.0', id: 4, method: 'node_getBlocks', params: [0, 1] },
      { jsonrpc: '2.0', id: 5, method: 'node_getBlockHeader', params: [null] },
    ]);
    assert.equal(res.status, 200);
    const [nodeVersion, chainId, rollupVersion, blockNumber, blocks, header] = res.json();
    assert.deepEqual(nodeVersion, { jsonrpc: '2.0', id: 0, result: version });
    assert.equal(chainId.result, 11155111);
    assert.equal(rollupVersion.result, 7);
    assert.deepEqual(blockNumber, { jsonrpc: '2.0', id: 3, result: 0 });
    assert.equal(blocks.error.code, -32602);
    assert.match(blocks.error.message, /params\[0\] \(from\)/);
    assert.equal(
      header.result.globalVariables.blockNumber,
      0,
      'null for an optional param passes validation: the latest (genesis) header',
    );
    await node.stop();
  });

  it('a public method on the admin port is -32601, and an admin method on the public port too', async () => {
    const node = await startNode(['--no-admin-api-key'], { cwd: await tempDir() });
    const onAdmin = await post(node.adminUrl, [{ jsonrpc: '2.0', id: 0, method: 'node_getNodeVersion', params: [] }]);
    assert.equal(onAdmin.json()[0].error.code, -32601);
    const onPublic = await post(node.publicUrl, [{ jsonrpc: '2.0', id: 0, method: 'nodeAdmin_getConfig', params: [] }]);
    assert.equal(onPublic.json()[0].error.code, -32601);
    await node.stop();
  });
});

describe('refused configurations exit 1 naming the flag', () => {
  const cases: [string, string[], Record<string, string>, RegExp][] = [
    ['v3 flag --bot.baseFeePadding', ['--bot.baseFeePadding', '3'], {}, /--bot\.baseFeePadding.*--bot\.minFeePadding/],
    [
      'v3 variable BOT_BASE_FEE_PADDING',
      [],
      { BOT_BASE_FEE_PADDING: '3' },
      /BOT_BASE_FEE_PADDING.*BOT_MIN_FEE_PADDING/,
    ],
    ['port out of range', ['--port', '70000'], {}, /--port/],
    ['admin port not a number', ['--admin-port', 'eighty'], {}, /--admin-port/],
    ['hash with a non-hex character', ['--admin-api-key-hash', 'g'.repeat(64)], {}, /--admin-api-key-hash/],
    ['short hash in env', [], { NODE_ADMIN_API_KEY_HASH: 'abc' }, /NODE_ADMIN_API_KEY_HASH/],
    ['negative amount', ['--initialEthPerFeeAsset', '-1'], {}, /--initialEthPerFeeAsset/],
    [
      'zero exchange rate (no fee could be priced)',
      ['--initialEthPerFeeAsset', '0'],
      {},
      /--initialEthPerFeeAsset: must be >= 1/,
    ],
    ['negative fee padding', ['--bot.minFeePadding', '-2'], {}, /--bot\.minFeePadding/],
    ['unknown flag', ['--frobnicate'], {}, /--frobnicate/],
    ['flag without its value', ['--port'], {}, /--port needs a value/],
    ['bad boolean env', [], { NODE_NO_ADMIN_API_KEY: 'maybe' }, /NODE_NO_ADMIN_API_KEY/],
    ['bad log level', ['--log-level', 'loud'], {}, /--log-level/],
    // A keyless admin port opened to the network or to web pages: both flags and the risk named.
    [
      '--no-admin-api-key with a non-loopback --admin-host',
      ['--no-admin-api-key', '--admin-host', '0.0.0.0'],
      {},
      /--no-admin-api-key with --admin-host 0\.0\.0\.0.*anyone who can reach that address.*upload the whole database/,
    ],
    [
      '--no-admin-api-key with --admin-cors-origin *',
      ['--no-admin-api-key', '--admin-cors-origin', '*'],
      {},
      /--no-admin-api-key with --admin-cors-origin \*.*any web page.*upload the whole database/,
    ],
    [
      '--no-admin-api-key with --admin-vhosts *',
      ['--no-admin-api-key', '--admin-vhosts', '*'],
      {},
      /--no-admin-api-key with --admin-vhosts \*.*DNS rebinding.*upload the whole database/,
    ],
    [
      'the same from the environment',
      [],
      { NODE_NO_ADMIN_API_KEY: 'true', ADMIN_CORS_ORIGIN: '*' },
      /--no-admin-api-key with --admin-cors-origin \*/,
    ],
  ];
  for (const [title, args, env, pattern] of cases) {
    it(title, async () => {
      const cwd = await tempDir();
      const { code, stderr } = await runNode(args, { cwd, env: cleanEnv(env) });
      assert.equal(code, 1);
      assert.match(stderr, pattern);
      assert.deepEqual(await readdir(cwd), [], 'nothing is written before the config is valid');
    });
  }
});

describe('process', () => {
  it('--help lists every flag with its environment variable and default, and exits 0', async () => {
    const { code, stdout } = await runNode(['--help'], { cwd: await tempDir() });
    assert.equal(code, 0);
    for (const expected of [
      '--port',
      'AZTEC_PORT',
      '8080',
      '--admin-port',
      '8880',
      '--data-directory',
      'DATA_DIRECTORY',
      './data',
      '--admin-api-key-hash',
      'NODE_ADMIN_API_KEY_HASH',
      '--no-admin-api-key',
      'NODE_NO_ADMIN_API_KEY',
      '--reset-admin-api-key',
      'NODE_RESET_ADMIN_API_KEY',
      '--initialEthPerFeeAsset',
      'NODE_INITIAL_ETH_PER_FEE_ASSET',
      '10000000',
      '--bot.minFeePadding',
      'BOT_MIN_FEE_PADDING',
      '--log-level',
      'LOG_LEVEL',
      '--max-body-bytes',
      '1048576',
      '--max-batch-size',
      '100',
    ]) {
      assert.ok(stdout.includes(expected), `help mentions ${expected}`);
    }
  });

  it('SIGTERM finishes and exits 0; SIGINT too', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const node = await startNode(['--data-directory', ''], { cwd: await tempDir() });
      assert.equal(await node.stop(signal), 0, signal);
      assert.match(node.stderr(), /"msg":"stopped"/);
    }
  });

  it('runs with the node runtime (young generation bound, malloc arenas) in the same process; values the user gives win', async () => {
    // /proc/<pid>/cmdline and environ are NUL-separated; the pid is the one spawned (process.execve).
    const started = async (env: Record<string, string>) => {
      const node = await startNode(['--data-directory', ''], { cwd: await tempDir(), env: cleanEnv(env) });
      const argv = readFileSync(`/proc/${node.pid}/cmdline`, 'utf8').split('\0');
      const environ = readFileSync(`/proc/${node.pid}/environ`, 'utf8').split('\0');
      assert.equal(await node.stop(), 0, 'SIGTERM reaches the replaced process');
      return { argv, environ };
    };
    const plain = await started({});
    assert.ok(
      plain.argv.includes('--max-semi-space-size=16') &&
        plain.argv.includes('--expose-gc') &&
        plain.argv.includes('--heap-growing-percent=50'),
      plain.argv.join(' '),
    );
    assert.ok(plain.environ.includes('MALLOC_ARENA_MAX=2'));
    assert.ok(plain.argv.includes(BIN) && plain.argv.includes('--data-directory'), 'same script and arguments');
    const own = await started({ NODE_OPTIONS: '--max-semi-space-size=32', MALLOC_ARENA_MAX: '4' });
    assert.ok(!own.argv.some((a) => a.startsWith('--max-semi-space-size')), own.argv.join(' '));
    assert.ok(
      own.environ.includes('MALLOC_ARENA_MAX=4') && own.environ.includes('NODE_OPTIONS=--max-semi-space-size=32'),
    );
  });

  it('logs are JSON lines with a level on stderr', async () => {
    const node = await startNode(['--data-directory', ''], { cwd: await tempDir() });
    await node.stop();
    const lines = node.stderr().trim().split('\n');
    for (const line of lines) assert.equal(typeof JSON.parse(line).level, 'string');
  });

  it('a port already in use exits 1', async () => {
    const node = await startNode(['--data-directory', ''], { cwd: await tempDir() });
    const busy = new URL(node.publicUrl).port;
    const { code, stderr } = await runNode(['--data-directory', '', '--port', busy, '--admin-port', '0'], {
      cwd: await tempDir(),
    });
    await node.stop();
    assert.equal(code, 1);
    assert.match(stderr, /EADDRINUSE/);
  });

  it('on a Node.js older than 24.12.0, bin/l2node.js exits 1 naming both versions', async (t) => {
    const old = findOldNode();
    assert.ok(old, 'a system Node.js older than 24.12 is installed for this test (Debian: /usr/bin/node)');
    const version = execFileSync(old, ['--version'], { encoding: 'utf8' }).trim();
    const { code, stderr } = await runNode([], { cwd: await tempDir(), node: old });
    assert.equal(code, 1);
    assert.ok(stderr.includes(version), `names the version found (${version}): ${stderr}`);
    assert.ok(stderr.includes('24.12.0'), 'names the version needed');
    t.diagnostic(`checked with ${old} ${version}`);
  });

  it('npm start serves both ports on the Node.js from node_modules', { timeout: 30_000 }, async () => {
    const npm = findOnPath('npm');
    assert.ok(npm, 'npm is installed');
    const root = fileURLToPath(new URL('../..', import.meta.url));
    // detached: npm runs the script through sh, so the signal goes to the whole process group.
    const child = spawn(npm, ['start', '--silent', '--', '--port', '0', '--admin-port', '0', '--data-directory', ''], {
      cwd: root,
      env: cleanEnv(),
      detached: true,
    });
    let stderr = '';
    // 'close' waits for every holder of the pipes, i.e. the node process npm started.
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const started = await new Promise<boolean>((resolve) => {
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
        if (stderr.includes('"surface":"admin"')) resolve(true);
      });
      void closed.then(() => resolve(false));
    });
    assert.ok(started, `npm start listens on both ports: ${stderr}`);
    process.kill(-child.pid!, 'SIGTERM');
    await closed;
    assert.match(stderr, /"msg":"stopped"/);
  });
});

function findOldNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node', '/bin/node']) {
    if (!existsSync(candidate)) continue;
    const [major, minor] = execFileSync(candidate, ['--version'], { encoding: 'utf8' })
      .trim()
      .slice(1)
      .split('.')
      .map(Number);
    if (major! < 24 || (major === 24 && minor! < 12)) return candidate;
  }
  return undefined;
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) if (existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}
