/**
 * Puts generated files on disk and finds stale ones. Codegen owns everything under
 * src/generated/<surface>/ and src/generated/runtime/ and, among fixtures, only the `example-*.io` / `error-*.io` files.
 * @module
 */
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FIXTURES_DIR, GENERATED_DIR, RUNTIME_DIR } from './generate.ts';

const OWNED_FIXTURE = /^(example-\d+|error-[a-z0-9-]+)\.io$/;

/** Paths (relative to `root`) of files codegen made for `surfaces` that exist on disk now. */
export async function ownedFiles(root: string, surfaces: readonly string[]): Promise<string[]> {
  const found: string[] = await list(root, RUNTIME_DIR);
  for (const s of surfaces) {
    found.push(...(await list(root, `${GENERATED_DIR}/${s}`)));
    for (const method of await dirs(join(root, FIXTURES_DIR, s))) {
      const files = await list(root, `${FIXTURES_DIR}/${s}/${method}`);
      found.push(...files.filter((f) => OWNED_FIXTURE.test(f.slice(f.lastIndexOf('/') + 1))));
    }
  }
  return found.sort();
}

/** Writes `files` under `root` and deletes owned files that were not generated this time. */
export async function writeAll(
  root: string,
  files: ReadonlyMap<string, string>,
  surfaces: readonly string[],
): Promise<{ written: number; removed: string[] }> {
  const removed = (await ownedFiles(root, surfaces)).filter((f) => !files.has(f));
  for (const f of removed) {
    await rm(join(root, f));
    await rmdir(dirname(join(root, f))).catch(() => undefined); // only succeeds when now empty
  }
  let written = 0;
  for (const [path, text] of files) {
    const target = join(root, path);
    if ((await readFile(target, 'utf8').catch(() => undefined)) === text) continue;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
    written++;
  }
  return { written, removed };
}

/** Owned files under `root` that differ from, are missing from, or are absent in `fresh`. */
export async function staleFiles(root: string, fresh: string, surfaces: readonly string[]): Promise<string[]> {
  const current = await ownedFiles(root, surfaces);
  const expected = await ownedFiles(fresh, surfaces);
  const stale = new Set<string>();
  for (const f of new Set([...current, ...expected])) {
    const a = await readFile(join(root, f), 'utf8').catch(() => undefined);
    const b = await readFile(join(fresh, f), 'utf8').catch(() => undefined);
    if (a !== b) stale.add(`${f}${a === undefined ? ' (missing)' : b === undefined ? ' (no longer generated)' : ''}`);
  }
  return [...stale].sort();
}

async function list(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => `${dir}/${e.name}`);
}

async function dirs(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}
