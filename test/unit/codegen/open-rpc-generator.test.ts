/**
 * A client team can build an SDK from our documents with the standard tool: @open-rpc/generator
 * emits a TypeScript client for each real document, and that client type-checks with tsc.
 * @module
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openRpcGenerator from '@open-rpc/generator';
import { ROOT, tempDir } from './helpers.ts';

const run = promisify(execFile);
// CommonJS with `exports.default`: seen from ESM, the function sits on `.default`.
const generator = openRpcGenerator.default;

/**
 * The generator embeds the whole document as a literal typed with @open-rpc/meta-schema 1.14,
 * whose types stop at OpenRPC 1.3.2 and allow no `x-` fields on error objects. Those diagnostics
 * (on that one line only) are the typings' limit, not a broken SDK; any other error fails the test.
 */
const EMBEDDED_DOCUMENT = /static openrpcDocument: OpenRPC = /;

for (const file of ['openrpc.public.json', 'openrpc.admin.json']) {
  describe(`@open-rpc/generator on ${file}`, () => {
    it('emits a TypeScript client that type-checks', async () => {
      const dir = await tempDir('open-rpc-generator');
      try {
        const doc = JSON.parse(await readFile(join(ROOT, file), 'utf8'));
        await generator({ outDir: dir, openrpcDocument: doc, components: [{ type: 'client', name: 'NodeClient', language: 'typescript' }] });
        const project = join(dir, 'client/typescript');
        const source = (await readFile(join(project, 'src/index.ts'), 'utf8')).split('\n');
        const diagnostics = await run(join(ROOT, 'node_modules/.bin/tsc'), ['--noEmit', '--pretty', 'false', '-p', project])
          .then(() => '', (error: { stdout: string }) => error.stdout);
        const real = diagnostics.split('\n').filter((line) => {
          const at = /src\/index\.ts\((\d+),\d+\)/.exec(line);
          return line.trim() !== '' && !(at && EMBEDDED_DOCUMENT.test(source[Number(at[1]) - 1] ?? ''));
        });
        assert.deepEqual(real, [], 'tsc reports no error outside the embedded document literal');
        assert.match(source.join('\n'), /public \w+\(/, 'the client has methods');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}
