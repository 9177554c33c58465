/**
 * A client team can build an SDK from our documents with the standard tool, as the tool hands it
 * over: @open-rpc/generator emits a TypeScript client project per document; in a fresh directory
 * outside the repository we install what its package.json names, find that it does not compile,
 * apply the pins docs/PACKAGES.md lists ("A client generated with @open-rpc/generator"), compile with
 * no error, and run the generated client (CommonJS, its own @open-rpc/client-js) against a live node.
 * @module
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import openRpcGenerator from '@open-rpc/generator';
import { startNode, type StartedNode } from '../../../src/conformance/node-process.ts';
import { ROOT } from './helpers.ts';

const run = promisify(execFile);
/** npm installs, packing and whole conformance runs take minutes on a busy machine: each step and hook has its own bound, above npm test's 180 s default. */
const LONG = { timeout: 900_000 };
// CommonJS with `exports.default`: seen from ESM, the function sits on `.default`.
const generator = openRpcGenerator.default;
const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
const PATH = `${join(process.execPath, '..')}:${process.env.PATH ?? '/usr/bin:/bin'}`;

/** What the generator's package.json names today (a change here means re-checking the pins). */
const GENERATED_DEPENDENCIES = {
  '@open-rpc/client-js': '1.7.1',
  '@open-rpc/meta-schema': '1.14.2',
  '@open-rpc/schema-utils-js': '1.15.0',
};
const GENERATED_DEV_DEPENDENCIES = { typescript: '4.2.4', typedoc: '^0.20.35' };
/**
 * The smallest set of changes to the generated package.json that compiles (docs/PACKAGES.md):
 * TypeScript 4.2 cannot parse today's @types/node and @types/lodash (pulled by `^` ranges), typedoc
 * 0.20 only accepts TypeScript 4.2, and meta-schema 1.14.2 (also under schema-utils-js 1.15.0) has
 * no `openrpc: "1.3.2"`.
 */
export const GENERATOR_PINS = {
  devDependencies: { typescript: '5.9.3', typedoc: '0.28.20' },
  dependencies: { '@open-rpc/meta-schema': '1.14.9' },
  overrides: { '@open-rpc/meta-schema': '1.14.9' },
};

const sh = async (file: string, args: readonly string[], cwd: string): Promise<{ ok: boolean; out: string }> =>
  run(file, [...args], { cwd, timeout: 300_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, PATH } }).then(
    ({ stdout, stderr }) => ({ ok: true, out: `${stdout}${stderr}` }),
    (err: { stdout?: string; stderr?: string; message: string }) => ({
      ok: false,
      out: `${err.stdout ?? ''}${err.stderr ?? ''}` || err.message,
    }),
  );

describe('@open-rpc/generator: the generated TypeScript clients, installed as generated', { timeout: 900_000 }, () => {
  let temp: string;
  let project: string;
  let node: StartedNode;

  before(async () => {
    temp = mkdtempSync(join(tmpdir(), 'l2node-open-rpc-generator-'));
    for (const surface of ['public', 'admin']) {
      const doc = JSON.parse(readFileSync(join(ROOT, `openrpc.${surface}.json`), 'utf8'));
      await generator({
        outDir: join(temp, surface),
        openrpcDocument: doc,
        components: [{ type: 'client', name: 'NodeClient', language: 'typescript' }],
      });
    }
    // One project (the public one) compiles both generated sources: the two package.json files are identical.
    project = join(temp, 'public', 'client', 'typescript');
    mkdirSync(join(project, 'src', 'admin'));
    cpSync(join(temp, 'admin', 'client', 'typescript', 'src', 'index.ts'), join(project, 'src', 'admin', 'index.ts'));
    node = await startNode();
  }, LONG);

  after(async () => {
    await node?.stop();
    if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
  }, LONG);

  it('names the dependencies the pins were worked out for; with them as named, tsc fails', LONG, async () => {
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    assert.deepEqual(
      readFileSync(join(temp, 'admin', 'client', 'typescript', 'package.json'), 'utf8'),
      readFileSync(join(project, 'package.json'), 'utf8'),
    );
    assert.deepEqual(
      Object.fromEntries(Object.keys(GENERATED_DEPENDENCIES).map((k) => [k, manifest.dependencies[k]])),
      GENERATED_DEPENDENCIES,
    );
    assert.deepEqual(
      Object.fromEntries(Object.keys(GENERATED_DEV_DEPENDENCIES).map((k) => [k, manifest.devDependencies[k]])),
      GENERATED_DEV_DEPENDENCIES,
    );
    const install = await sh('npm', ['install', ...NPM_FLAGS], project);
    assert.ok(install.ok, install.out);
    const tsc = await sh(join(project, 'node_modules', '.bin', 'tsc'), ['--noEmit', '--pretty', 'false'], project);
    assert.equal(tsc.ok, false, 'TypeScript 4.2.4 compiles it: the pins may no longer be needed');
    assert.match(tsc.out, /node_modules\/@types\/(node|lodash)\/.*error TS1005/);
  });

  it('with the pins of docs/PACKAGES.md, both clients compile with no error', LONG, async () => {
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    Object.assign(manifest.devDependencies, GENERATOR_PINS.devDependencies);
    Object.assign(manifest.dependencies, GENERATOR_PINS.dependencies);
    manifest.overrides = GENERATOR_PINS.overrides;
    writeFileSync(join(project, 'package.json'), JSON.stringify(manifest, null, 2));
    rmSync(join(project, 'package-lock.json'), { force: true });
    const install = await sh('npm', ['install', ...NPM_FLAGS], project);
    assert.ok(install.ok, install.out);
    const source = readFileSync(join(project, 'src', 'index.ts'), 'utf8');
    // The generator embeds the whole document typed with @open-rpc/meta-schema (OpenRPC 1.3.2, no
    // `x-` fields on error objects): a clean tsc means the document fits those types too.
    assert.match(source, /static openrpcDocument: OpenRPC = /, 'the client embeds the typed document');
    const tsc = await sh(join(project, 'node_modules', '.bin', 'tsc'), ['--pretty', 'false'], project);
    assert.ok(tsc.ok, tsc.out);
    assert.equal(tsc.out.trim(), '', 'tsc reports no error at all');
  });

  it(
    'the compiled public client calls a live node: block number, tips, a block, a declared error with its data',
    LONG,
    async () => {
      writeFileSync(
        join(project, 'calls.cjs'),
        `
const { default: Client } = require('./build/index.js');
const client = new Client({ transport: { type: 'http', host: '127.0.0.1', port: Number(process.argv[2]) } });
(async () => {
  const n = await client.node_getBlockNumber();
  const tips = await client.node_getL2Tips();
  const block = await client.node_getBlock(n);
  let error;
  try { await client.node_findLeavesIndexes(n + 1, 1, ['0x' + 'dead'.padStart(64, '0')]); } catch (e) { error = { code: e.code, data: e.data }; }
  console.log(JSON.stringify({ n, tip: tips.proposed.number, blockNumber: block.header.globalVariables.blockNumber, error }));
})().catch((e) => { console.error(e); process.exit(1); });
`,
      );
      const port = new URL(node.publicUrl).port;
      const result = await sh(process.execPath, ['calls.cjs', port], project);
      assert.ok(result.ok, result.out);
      const out = JSON.parse(result.out);
      assert.equal(out.tip, out.n);
      assert.equal(out.blockNumber, out.n);
      assert.deepEqual(out.error, { code: -32010, data: { requested: out.n + 1, latest: out.n } });
    },
  );
});
