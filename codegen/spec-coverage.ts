/**
 * Compares the documents with SPEC.md §4: every SPEC method must be present, with at least one
 * example and a declared error list.
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { DocumentModel } from './model.ts';

/** The wire names listed in the §4 tables of SPEC.md, in order. */
export function specMethods(spec: string): string[] {
  const start = spec.indexOf('\n## 4.');
  const end = spec.indexOf('\n## 5.', start);
  const section = spec.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\|\s*`((?:node|nodeAdmin)_[A-Za-z0-9]+)`/gm)].map((m) => m[1]);
}

/** Problems with SPEC coverage; reads `specPath` (../shared/SPEC.md). */
export async function checkSpecCoverage(specPath: string, models: readonly DocumentModel[]): Promise<{ expected: number; problems: string[] }> {
  const spec = await readFile(specPath, 'utf8');
  const expected = specMethods(spec);
  const methods = new Map(models.flatMap((d) => d.methods.map((m) => [m.name, m] as const)));
  const problems: string[] = [];
  for (const name of expected) {
    const m = methods.get(name);
    if (m === undefined) problems.push(`SPEC method ${name} is missing`);
    else {
      if (m.examples.length === 0) problems.push(`${name} has no example`);
      if (!m.hasErrorList) problems.push(`${name} declares no error list`);
    }
  }
  return { expected: expected.length, problems };
}
