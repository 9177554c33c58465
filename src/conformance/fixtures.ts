/**
 * Loads the fixture tree and applies `--filter` (a method name or a glob over the method name or
 * the fixture path).
 * @module
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFixture } from './fixture-file.ts';
import type { Fixture } from './fixture-file.ts';

/** The fixtures shipped with this project. */
export const FIXTURES_ROOT = fileURLToPath(new URL('../../test/conformance/fixtures', import.meta.url));

/** Reads every `{public,admin}/<method>/<case>.io` under `root`, sorted by path. */
export function loadFixtures(root: string = FIXTURES_ROOT): Fixture[] {
  const out: Fixture[] = [];
  for (const surface of ['public', 'admin']) {
    const dir = join(root, surface);
    if (!exists(dir)) continue;
    for (const method of readdirSync(dir).sort()) {
      for (const file of readdirSync(join(dir, method)).sort()) {
        if (!file.endsWith('.io')) continue;
        const rel = `${surface}/${method}/${file}`;
        out.push(parseFixture(rel, readFileSync(join(root, rel), 'utf8')));
      }
    }
  }
  return out;
}

/** Keeps fixtures whose method, `method/case` or path matches `filter` (glob: `*`, `**`, `?`). */
export function filterFixtures(fixtures: readonly Fixture[], filter: string | undefined): Fixture[] {
  if (filter === undefined || filter === '') return [...fixtures];
  const match = globMatcher(filter);
  return fixtures.filter(
    (f) => match(f.method) || match(`${f.method}/${f.name}`) || match(f.path) || match(f.path.slice(0, -3)),
  );
}

/** Turns a glob into a predicate; `*` stays within one path segment, `**` crosses them. */
export function globMatcher(glob: string): (text: string) => boolean {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const re = new RegExp(`^${source}$`);
  return (text) => re.test(text);
}

function exists(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The order fixtures are replayed (and recorded) in, because some change the node's state
 * (`state-changing`: a tx sent to the pool, a config change undone within the fixture):
 * recorded fixtures that change nothing first, then the `state-changing` ones, then the
 * documents' examples (judged by shape only, so what earlier cases changed cannot matter to
 * them, and what they change reaches no recorded case). Within each group: path order.
 */
export function replayOrder<T extends Pick<Fixture, 'path' | 'flags' | 'fromDocument'>>(fixtures: readonly T[]): T[] {
  const group = (f: T) => (f.fromDocument ? 2 : f.flags.has('state-changing') ? 1 : 0);
  return [...fixtures].sort((a, b) => group(a) - group(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
