/**
 * The three npm packages as their users get them (docs/PACKAGES.md): `npm run pack`, each tarball
 * installed into a fresh project outside the repository (l2node globally, under a temporary npm
 * prefix), then: `l2node --help`; the installed conformance runner against a node started from the
 * installed l2node package on the conformance package's chain file (0 failures); a consumer file
 * compiled with `tsc --strict` (nodenext) and run as plain Node ESM (typed calls, admin key, typed
 * errors); the README's "Use it from your project" snippet, run as is, sends a tx the node accepts.
 * @module
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { type StartedNode, startNode } from '../../src/conformance/node-process.ts';

const run = promisify(execFile);
/** npm installs, packing and whole conformance runs take minutes on a busy machine: each step and hook has its own bound, above npm test's 180 s default. */
const LONG = { timeout: 900_000 };
const ROOT = join(import.meta.dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
/** The Node.js on PATH first (this test's, 24.12), then the rest: what a user's shell would run. */
const PATH = `${join(process.execPath, '..')}:${process.env.PATH ?? '/usr/bin:/bin'}`;
/** A user's shell: without the npm_* variables `npm test` sets, which carry this repository's .npmrc
 *  (strict-allow-scripts) into every npm the test starts. */
const USER_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));

const sh = async (
  file: string,
  args: readonly string[],
  cwd: string,
  timeout = 300_000,
  path = PATH,
): Promise<string> => {
  const { stdout } = await run(file, [...args], {
    cwd,
    timeout,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...USER_ENV, PATH: path },
  });
  return stdout;
};
const npm = (args: readonly string[], cwd: string) => sh('npm', [...args, ...NPM_FLAGS], cwd);

/** Bytes of the files under `dir`, each hard-linked file once (as `du` counts). */
function bytesUnder(dir: string, seen = new Set<number>()): number {
  return readdirSync(dir).reduce((sum, name) => {
    const path = join(dir, name);
    const s = lstatSync(path, { throwIfNoEntry: false });
    if (s === undefined || seen.has(s.ino)) return sum;
    seen.add(s.ino);
    return sum + (s.isDirectory() ? bytesUnder(path, seen) : s.size);
  }, 0);
}
const mb = (n: number) => `${(n / 1_048_576).toFixed(2)} MB`;

/**
 * The machine's own Node.js when it is 20 … 24.11 (Debian's /usr/bin/node on these machines, as the
 * runtime-check test in server-process.test.ts needs): the packages claim Node.js >= 20 (conformance)
 * and >= 18 (client), and `l2node` must run on its bundled Node.js 24 when started from an older one.
 */
function olderNode(): string {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node', '/bin/node']) {
    if (!existsSync(candidate)) continue;
    const [major, minor] = execFileSync(candidate, ['--version'], { encoding: 'utf8' })
      .trim()
      .slice(1)
      .split('.')
      .map(Number);
    if (major! >= 20 && (major! < 24 || (major === 24 && minor! < 12))) return candidate;
  }
  assert.fail('a system Node.js 20 … 24.11 is installed for this test (Debian: /usr/bin/node)');
}

/** A fresh project with nothing but a package.json, outside the repository. */
function project(parent: string, name: string): string {
  const dir = join(parent, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  return dir;
}

/** The installed packages of a project (every node_modules/<name> or node_modules/@scope/<name>). */
function installedPackages(dir: string): string[] {
  const nm = join(dir, 'node_modules');
  return readdirSync(nm)
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(nm, n)).map((m) => `${n}/${m}`) : [n]));
}

describe('npm packages (npm run pack, installed outside the repository)', { timeout: 1_200_000 }, () => {
  let temp: string;
  let clientProject: string;
  let conformanceProject: string;
  let prefix: string;
  let node: StartedNode;
  const tarballs: Record<string, string> = {};

  before(async () => {
    await sh(process.execPath, [join(ROOT, 'scripts', 'pack.ts')], ROOT, 600_000);
    const out = join(ROOT, 'dist', 'packages');
    for (const f of readdirSync(out).filter((f) => f.endsWith('.tgz')))
      tarballs[f.replace(/-\d+\.\d+\.\d+\.tgz$/, '')] = join(out, f);
    assert.deepEqual(Object.keys(tarballs).sort(), ['l2node', 'l2node-client', 'l2node-conformance']);
    temp = mkdtempSync(join(tmpdir(), 'l2node-packages-'));
    clientProject = project(temp, 'client-project');
    conformanceProject = project(temp, 'conformance-project');
    prefix = join(temp, 'npm-global');
    mkdirSync(join(prefix, 'lib'), { recursive: true }); // npm 11's allow-scripts preflight lstat()s it
    await npm(['install', tarballs['l2node-client']!], clientProject);
    await npm(['install', tarballs['l2node-conformance']!], conformanceProject);
    await npm(['install', '-g', '--prefix', prefix, tarballs.l2node!], temp);
    const chain = join(
      conformanceProject,
      'node_modules',
      '@l2node',
      'conformance',
      'test',
      'conformance',
      'chain',
      'chain.json',
    );
    node = await startNode(
      ['--import-chain', chain],
      join(prefix, 'lib', 'node_modules', 'l2node', 'bin', 'l2node.js'),
    );
  }, LONG);

  after(async () => {
    await node?.stop();
    if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
  }, LONG);

  it('@l2node/client installs alone: zero dependencies, compiled ESM with types, no sources of the node', LONG, (t) => {
    assert.deepEqual(installedPackages(clientProject), ['@l2node/client']);
    const pkg = join(clientProject, 'node_modules', '@l2node', 'client');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
    assert.equal(manifest.dependencies, undefined);
    assert.deepEqual(Object.keys(manifest.exports), ['.', './public', './admin', './dev', './tx', './package.json']);
    const files = readdirSync(join(pkg, 'src'), { recursive: true }) as string[];
    assert.ok(!files.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), 'no TypeScript sources');
    // The engine's value types (e.g. impl/chain/types: the block header a tx is anchored to) are the
    // codec's vocabulary and may come along; nothing that runs the node may, nor may those types pull it in.
    const serverCode = (f: string) =>
      /^(server|config|impl\/(chain|txpool|p2p|store|world-state))\//.test(f) && !/\/types\.(js|d\.ts)$/.test(f);
    assert.deepEqual(files.filter(serverCode), [], 'no server code');
    for (const f of files.filter((f) => /^impl\/(chain|txpool|p2p|store|world-state)\/types\.js$/.test(f))) {
      assert.doesNotMatch(readFileSync(join(pkg, 'src', f), 'utf8'), /^import /m, `${f} imports nothing`);
    }
    t.diagnostic(
      `@l2node/client: tarball ${mb(statSync(tarballs['l2node-client']!).size)}, installed ${mb(bytesUnder(join(clientProject, 'node_modules')))}, 1 package (0 dependencies)`,
    );
  });

  it(
    'l2node --help runs from the global install, also when the Node.js on PATH is older than 24.12 (it re-runs on its bundled one)',
    LONG,
    async (t) => {
      const help = await sh(join(prefix, 'bin', 'l2node'), ['--help'], temp);
      const older = olderNode();
      assert.equal(
        await sh(join(prefix, 'bin', 'l2node'), ['--help'], temp, 60_000, `${join(older, '..')}:${PATH}`),
        help,
      );
      assert.match(help, /^Usage: l2node/m);
      assert.match(help, /--admin-api-key-hash/);
      const installed = join(prefix, 'lib', 'node_modules', 'l2node');
      const files = readdirSync(installed, { recursive: true }) as string[];
      assert.ok(
        !files.some((f) => /^(test|bench|docs|docs-site|codegen)\//.test(f)),
        'no tests, bench or docs sources',
      );
      t.diagnostic(
        `l2node: tarball ${mb(statSync(tarballs.l2node!).size)}, installed ${mb(bytesUnder(join(prefix, 'lib', 'node_modules')))} with ${readdirSync(join(installed, 'node_modules')).length} entries in node_modules (Node.js 24 binary included)`,
      );
    },
  );

  it(
    'l2node-conformance from the installed package, on Node.js 20: 0 failures against the installed node on the package chain file',
    LONG,
    async (t) => {
      const bin = join(conformanceProject, 'node_modules', '.bin', 'l2node-conformance');
      // On the oldest Node.js the package supports (>= 20), not this test's 24.
      const out = await sh(
        olderNode(),
        [bin, '--url', node.publicUrl, '--admin-url', node.adminUrl, '--api-key', node.apiKey],
        conformanceProject,
      ).catch((err: { stdout?: string }) => {
        assert.fail(
          `the conformance run failed:\n${(err.stdout ?? String(err))
            .split('\n')
            .filter((l) => !l.startsWith('PASS'))
            .join('\n')}`,
        );
      });
      const summary = /^(\d+) cases: (\d+) passed, (\d+) failed/m.exec(out);
      assert.ok(summary, out.slice(-2000));
      assert.equal(summary[3], '0');
      assert.ok(Number(summary[1]) > 400, `the whole suite ran (${summary[1]} cases)`);
      assert.deepEqual(
        installedPackages(conformanceProject)
          .filter((n) => n.startsWith('@l2node') || n === 'l2node')
          .sort(),
        ['@l2node/conformance'],
      );
      t.diagnostic(
        `@l2node/conformance: tarball ${mb(statSync(tarballs['l2node-conformance']!).size)}, installed ${mb(bytesUnder(join(conformanceProject, 'node_modules')))}, ${installedPackages(conformanceProject).length} packages (${installedPackages(conformanceProject).join(', ')}); ${summary[0]}`,
      );
    },
  );

  it(
    'a consumer file compiles with tsc --strict (nodenext) and its typed calls work: getL2Tips, getBlock, admin with the key, typed errors',
    LONG,
    async () => {
      cpSync(join(ROOT, 'test', 'packages', 'consumer', 'typed-calls.ts'), join(clientProject, 'typed-calls.ts'));
      writeFileSync(
        join(clientProject, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            lib: ['es2022', 'dom'],
            types: [],
            skipLibCheck: false,
          },
          files: ['typed-calls.ts'],
        }),
      );
      await sh(process.execPath, [TSC, '-p', '.'], clientProject).catch((err: { stdout?: string }) =>
        assert.fail(`tsc failed:\n${err.stdout ?? err}`),
      );
      // On this test's Node.js 24 and on the machine's older one (the client claims Node.js >= 18).
      for (const runtime of [process.execPath, olderNode()]) {
        const out = JSON.parse(
          await sh(runtime, ['typed-calls.js', node.publicUrl, node.adminUrl, node.apiKey], clientProject),
        );
        assert.ok(out.tip >= 1);
        assert.equal(out.blockNumber, out.tip);
        assert.ok(out.configKeys > 10);
        assert.deepEqual(out.typedError, { code: -32010, requested: out.tip + 1, latest: out.tip });
        assert.equal(typeof out.unauthorized, 'number');
        assert.match(out.invalidParam, /^limit: must be <= 100$/);
        assert.equal(out.adminInvalidParams, -32602);
      }
    },
  );

  it(
    'the README\'s "Use it from your project" snippet runs as plain Node ESM and the node accepts its tx',
    LONG,
    async () => {
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      const [code] = jsBlocks(readme.slice(readme.indexOf('## Use it from your project')));
      assert.ok(
        code !== undefined && code.includes("from '@l2node/client'"),
        'the README section has a js snippet using the client',
      );
      const out = await runSnippet(code, 'readme-quick-start.mjs');
      // node_sendTx resolved (a refused tx rejects) and the receipt knows the tx.
      assert.match(out.trim(), /^(pending|mined|checkpointed|proven|finalized) \d+$/);
    },
  );

  it('every js block of docs/QUICK-START.md runs as written', LONG, async () => {
    const blocks = jsBlocks(readFileSync(join(ROOT, 'docs', 'QUICK-START.md'), 'utf8'));
    assert.ok(blocks.length >= 4, 'read, send a tx, typed errors, admin');
    const outs = [];
    for (const [i, code] of blocks.entries()) outs.push((await runSnippet(code, `quick-start-${i}.mjs`)).trim());
    assert.ok(
      outs.some((o) => /^0x[0-9a-f]{64} (pending|mined)/.test(o)),
      `a tx was accepted:\n${outs.join('\n')}`,
    );
    assert.ok(
      outs.some((o) => /^node is at block \d+$/.test(o)),
      `the typed error was caught:\n${outs.join('\n')}`,
    );
    assert.ok(
      outs.some((o) => /^\d+ settings$/.test(o)),
      `the admin call answered:\n${outs.join('\n')}`,
    );
  });

  it(
    'the installed client and its tx builder run in Chromium as plain ES modules (no bundler, no Node.js globals): reads and an accepted tx',
    LONG,
    async () => {
      const pkg = join(clientProject, 'node_modules', '@l2node', 'client');
      const page = `<!doctype html><script type="importmap">${JSON.stringify({ imports: { '@l2node/client': '/pkg/src/client/index.js', '@l2node/client/tx': '/pkg/src/client/tx.js' } })}</script><p>client</p>`;
      const server = createServer((req, res) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
        const file = join(pkg, path.replace(/^\/pkg\//, ''));
        if (!path.startsWith('/pkg/') || !file.startsWith(pkg) || !existsSync(file)) return res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(file));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const browser = await chromium.launch({
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      try {
        const tab = await browser.newPage();
        await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
        const out = await tab.evaluate(async (url) => {
          // Inside the page: the same calls a web app makes, through the import map above.
          const importModule = (name: string) => import(name) as Promise<Record<string, any>>;
          const { createNodeClient, isNodeError } = await importModule('@l2node/client');
          const { buildDevTx } = await importModule('@l2node/client/tx');
          const node = createNodeClient(url);
          const tips = await node.getL2Tips();
          const tx = await buildDevTx(node);
          await node.sendTx(tx.wire);
          const receipt = await node.getTxReceipt(tx.hash);
          let typed = false;
          try {
            await node.findLeavesIndexes(tips.proposed.number + 1, 1, ['0x' + 'dead'.padStart(64, '0')]);
          } catch (e) {
            typed = isNodeError(e, 'BLOCK_NOT_YET_SYNCED');
          }
          return { tip: tips.proposed.number, status: receipt.status, typed, hasBuffer: 'Buffer' in globalThis };
        }, node.publicUrl);
        assert.equal(out.hasBuffer, false, 'a browser has no Buffer: the base64 fallback ran');
        assert.ok(out.tip >= 1);
        assert.match(out.status, /^(pending|mined)$/);
        assert.equal(out.typed, true);
      } finally {
        await browser.close();
        server.close();
      }
    },
  );

  /** Writes a snippet into the client project (the test node's URLs for the documented ones) and runs it with the admin key in env. */
  async function runSnippet(code: string, file: string): Promise<string> {
    writeFileSync(
      join(clientProject, file),
      code.replaceAll('http://127.0.0.1:8080', node.publicUrl).replaceAll('http://127.0.0.1:8880', node.adminUrl),
    );
    const { stdout } = await run(process.execPath, [file], {
      cwd: clientProject,
      timeout: 120_000,
      env: { ...process.env, PATH, L2NODE_API_KEY: node.apiKey },
    });
    return stdout;
  }
});

/** The ```js blocks of a Markdown text, in order. */
function jsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
}
