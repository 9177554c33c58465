/**
 * `npm run codegen` writes src/generated/{runtime,public,admin,dev}/ and the example fixtures from
 * openrpc.{public,admin}.json; `npm run codegen:check` (`--check`) regenerates into a temp dir,
 * lists stale files and reports SPEC coverage, exiting non-zero on any problem.
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SURFACES } from './model.ts';
import { generate } from './generate.ts';
import { staleFiles, writeAll } from './write-files.ts';
import { checkSpecCoverage } from './spec-coverage.ts';

const root = resolve(import.meta.dirname, '..');
const surfaces = SURFACES.map((s) => s.name);
const check = process.argv.includes('--check');

const out = await generate(SURFACES.map((surface) => ({ surface, path: join(root, surface.file) })));
if (out.problems.length > 0) {
  console.error(`codegen: ${out.problems.length} problem(s) in the OpenRPC documents:`);
  for (const p of out.problems) console.error(`  - ${p}`);
  process.exit(1);
}

if (!check) {
  const { written, removed } = await writeAll(root, out.files, surfaces);
  console.log(`codegen: ${out.files.size} files (${written} changed, ${removed.length} stale removed)`);
} else {
  let failed = false;
  const fresh = await mkdtemp(join(tmpdir(), 'l2node-codegen-'));
  try {
    await writeAll(fresh, out.files, surfaces);
    const stale = await staleFiles(root, fresh, surfaces);
    if (stale.length > 0) {
      failed = true;
      console.error(`codegen:check: ${stale.length} generated file(s) are stale; run npm run codegen:`);
      for (const f of stale) console.error(`  - ${f}`);
    }
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
  for (const m of out.models) console.log(`codegen:check: ${m.surface.file}: ${m.methods.length} methods`);
  const coverage = await checkSpecCoverage(
    join(root, 'codegen', 'spec-methods.json'),
    join(root, 'docs', 'spec', 'SPEC.md'),
    out.models,
  ).catch((e: Error) => ({ expected: 0, problems: [`cannot read the SPEC method list: ${e.message}`] }));
  if (coverage.problems.length > 0) {
    failed = true;
    console.error(`codegen:check: SPEC coverage (${coverage.expected} methods in codegen/spec-methods.json, SPEC §4):`);
    for (const p of coverage.problems) console.error(`  - ${p}`);
  } else {
    console.log(`codegen:check: all ${coverage.expected} SPEC methods present, each with an example and an error list`);
  }
  if (!failed) console.log('codegen:check: generated files are up to date');
  process.exitCode = failed ? 1 : 0;
}
