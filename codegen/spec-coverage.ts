/**
 * Compares the documents with the SPEC method list (codegen/spec-methods.json, the §4 tables of
 * docs/spec/SPEC.md): every SPEC method must be present, with at least one example and a declared
 * error list. The list is committed so the check needs nothing outside the repository; the check also
 * refuses a list that no longer matches the committed SPEC copy.
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { DocumentModel } from './model.ts';

/** The committed method list: which SPEC it was read from, and the wire names in order. */
export interface SpecMethodList {
  source: string;
  methods: string[];
}

/** The wire names listed in the §4 tables of SPEC.md, in order. */
export function specMethods(spec: string): string[] {
  const start = spec.indexOf('\n## 4.');
  const end = spec.indexOf('\n## 5.', start);
  const section = spec.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\|\s*`((?:node|nodeAdmin)_[A-Za-z0-9]+)`/gm)].map((m) => m[1]);
}

/** Problems with SPEC coverage: `listPath` is codegen/spec-methods.json, `specPath` docs/spec/SPEC.md. */
export async function checkSpecCoverage(
  listPath: string,
  specPath: string,
  models: readonly DocumentModel[],
): Promise<{ expected: number; problems: string[] }> {
  const list = JSON.parse(await readFile(listPath, 'utf8')) as SpecMethodList;
  const expected = list.methods;
  const problems: string[] = [];
  const fromSpec = specMethods(await readFile(specPath, 'utf8'));
  if (JSON.stringify(fromSpec) !== JSON.stringify(expected)) {
    problems.push(
      `codegen/spec-methods.json does not match the §4 tables of ${list.source} (${fromSpec.length} there, ${expected.length} in the list); rewrite the list from it`,
    );
  }
  const methods = new Map(models.flatMap((d) => d.methods.map((m) => [m.name, m] as const)));
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
