/**
 * Shared set-up for the codegen tests: run the generator on the small test documents in
 * fixtures/ and write the output into a fresh directory under test/tmp/.
 * @module
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { generate, type Output } from '../../../codegen/generate.ts';
import { SURFACES } from '../../../codegen/model.ts';
import { writeAll } from '../../../codegen/write-files.ts';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '../../..');
/** The small test documents. */
export const FIXTURES = join(import.meta.dirname, 'fixtures');

/**
 * Generates from fixtures/openrpc.{public,admin}.json (or `paths`), in memory. The dev surface has no
 * mini document: it is generated only when `paths.dev` names one.
 */
export function generateMini(paths: Partial<Record<'public' | 'admin' | 'dev', string>> = {}): Promise<Output> {
  const surfaces = SURFACES.filter((s) => s.name !== 'dev' || paths.dev !== undefined);
  return generate(surfaces.map((surface) => ({ surface, path: paths[surface.name] ?? join(FIXTURES, surface.file) })));
}

/** A new empty directory under test/tmp/ (inside the repo, so node_modules resolves). */
export async function tempDir(prefix: string): Promise<string> {
  await mkdir(join(ROOT, 'test/tmp'), { recursive: true });
  return mkdtemp(join(ROOT, 'test/tmp', `${prefix}-`));
}

/** Generates the mini documents into a temp dir with a tsconfig extending the project's. */
export async function writeMini(): Promise<string> {
  const out = await generateMini();
  if (out.problems.length > 0) throw new Error(out.problems.join('\n'));
  const dir = await tempDir('codegen');
  await writeAll(dir, out.files, ['public', 'admin']);
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), include: ['src'], exclude: [] }),
  );
  return dir;
}
