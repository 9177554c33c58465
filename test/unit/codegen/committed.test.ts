/**
 * The committed generated code and example fixtures match what codegen makes from the committed
 * documents (the same check as `npm run codegen:check`).
 * @module
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from '../../../codegen/generate.ts';
import { SURFACES } from '../../../codegen/model.ts';
import { staleFiles, writeAll } from '../../../codegen/write-files.ts';
import { ROOT, tempDir } from './helpers.ts';

it('src/generated and the example fixtures are not stale', async () => {
  const out = await generate(SURFACES.map((surface) => ({ surface, path: join(ROOT, surface.file) })));
  assert.deepEqual(out.problems, [], 'the documents pass every codegen check');
  const fresh = await tempDir('codegen-check');
  try {
    await writeAll(
      fresh,
      out.files,
      SURFACES.map((s) => s.name),
    );
    assert.deepEqual(
      await staleFiles(
        ROOT,
        fresh,
        SURFACES.map((s) => s.name),
      ),
      [],
      'run npm run codegen',
    );
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
});
