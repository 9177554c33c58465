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

for (const file of ['openrpc.public.json', 'openrpc.admin.json']) {
  describe(`@open-rpc/generator on ${file}`, () => {
    it('emits a TypeScript client that type-checks', async () => {
      const dir = await tempDir('open-rpc-generator');
      try {
        const doc = JSON.parse(await readFile(join(ROOT, file), 'utf8'));
        await generator({ outDir: dir, openrpcDocument: doc, components: [{ type: 'client', name: 'NodeClient', language: 'typescript' }] });
        const project = join(dir, 'client/typescript');
        const source = await readFile(join(project, 'src/index.ts'), 'utf8');
        // The generator embeds the whole document typed with @open-rpc/meta-schema (OpenRPC 1.3.2,
        // no `x-` fields on error objects): a clean tsc means the document fits those types too.
        assert.match(source, /static openrpcDocument: OpenRPC = /, 'the client embeds the typed document');
        const diagnostics = await run(join(ROOT, 'node_modules/.bin/tsc'), ['--noEmit', '--pretty', 'false', '-p', project])
          .then(() => '', (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`);
        assert.deepEqual(diagnostics.split('\n').filter((line) => line.trim() !== ''), [], 'tsc reports no error at all');
        assert.match(source, /public \w+\(/, 'the client has methods');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}
