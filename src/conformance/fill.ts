/**
 * `npm run conformance:fill`: starts this node fresh on the conformance chain (`--import-chain
 * test/conformance/chain/chain.json`), runs the scripted cases
 * (src/conformance/fill-cases.ts) and records each answer as a fixture. Output is deterministic:
 * fixed ids, no timestamps, canonical JSON. `--check` records into memory and fails when the
 * committed fixtures differ (the CI check).
 * @module
 */
import { readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FILL_CASES } from './fill-cases.ts';
import { isObject } from './check.ts';
import { loadDocuments } from './documents.ts';
import type { FillCase } from './fill-case.ts';
import { formatFixture } from './fixture-file.ts';
import type { FixtureFlag } from './fixture-file.ts';
import { FIXTURES_ROOT, replayOrder } from './fixtures.ts';
import { CHAIN_FILE } from './chain/paths.ts';
import { postJson } from './http.ts';
import type { Endpoints } from './http.ts';
import { startNode } from './node-process.ts';

/** The comment that marks a recorded fixture (and lets the fill tool remove stale ones). */
export const RECORDED_MARK = 'Recorded by npm run conformance:fill from src/conformance/fill-cases.ts. DO NOT EDIT.';

/** What one fill produced. */
export interface FillOutcome {
  /** Fixture text by path relative to the fixtures root. */
  readonly files: ReadonlyMap<string, string>;
  /** Cases not recorded, with the reason (`waiting for chain`, `answered -32001`). */
  readonly waiting: readonly { readonly path: string; readonly reason: string }[];
}

/** Runs `cases` against the node at `endpoints` and returns the fixtures to write. */
export async function recordCases(endpoints: Endpoints, cases: readonly FillCase[] = FILL_CASES): Promise<FillOutcome> {
  const docs = loadDocuments();
  const files = new Map<string, string>();
  const waiting: { path: string; reason: string }[] = [];
  const planned = cases.map((c) => ({
    c,
    surface: c.surface ?? 'public',
    path: `${c.surface ?? 'public'}/${c.method}/${c.name}.io`,
  }));
  const seen = new Set<string>();
  for (const { c, surface, path } of planned) {
    if (/^(example|error)-/.test(c.name))
      throw new Error(`${path}: example-* and error-* names belong to npm run codegen`);
    if (docs.surfaceOf(c.method) !== surface) throw new Error(`${path}: ${c.method} is not a ${surface} method`);
    if (seen.has(path)) throw new Error(`${path}: two cases with one name`);
    seen.add(path);
  }
  // The order the runner replays them in (state-changing ones last, in path order): see replayOrder.
  const ordered = replayOrder(
    planned.map((p) => ({ ...p, fromDocument: false, flags: new Set(p.c.stateChanging ? ['state-changing'] : []) })),
  );
  for (const { c, surface, path } of ordered) {
    if (c.waitingFor !== undefined) {
      waiting.push({ path, reason: `waiting for ${c.waitingFor}` });
      continue;
    }
    const steps = [...(c.before ?? []), { method: c.method, params: c.params, own: true }, ...(c.after ?? [])];
    const exchanges: { request: string; response: string; surface?: 'public' | 'admin' }[] = [];
    let notImplemented = false;
    for (const step of steps) {
      const target = ('surface' in step && step.surface !== undefined ? step.surface : surface) as 'public' | 'admin';
      const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: step.method, params: step.params });
      const res = await postJson(
        target === 'admin' ? endpoints.adminUrl : endpoints.publicUrl,
        request,
        target === 'admin' ? endpoints.apiKey : undefined,
      );
      const answer = JSON.parse(res.body) as unknown;
      if (isObject(answer) && isObject(answer.error) && answer.error.code === -32001) notImplemented = true;
      exchanges.push({ request, response: JSON.stringify(answer), ...(target === surface ? {} : { surface: target }) });
    }
    if (notImplemented) {
      waiting.push({ path, reason: 'answered -32001 NOT_IMPLEMENTED' });
      continue;
    }
    const flags: FixtureFlag[] = [
      ...(c.flags ?? []),
      ...(surface === 'admin' ? (['needs-api-key'] as const) : []),
      ...(c.stateChanging ? (['state-changing'] as const) : []),
    ];
    files.set(path, formatFixture({ comments: [`${c.method}: ${c.description}`, RECORDED_MARK], flags, exchanges }));
  }
  return { files, waiting };
}

/** Starts a fresh node on the conformance chain file, records every case, stops the node. */
export async function fillFromFreshNode(cases: readonly FillCase[] = FILL_CASES): Promise<FillOutcome> {
  const node = await startNode(['--import-chain', CHAIN_FILE]);
  try {
    return await recordCases(node, cases);
  } finally {
    await node.stop();
  }
}

/** The recorded fixtures now under `root` (files carrying RECORDED_MARK), by relative path. */
export function readRecorded(root: string = FIXTURES_ROOT): Map<string, string> {
  const out = new Map<string, string>();
  for (const surface of ['public', 'admin']) {
    let methods: string[] = [];
    try {
      methods = readdirSync(join(root, surface));
    } catch {
      continue;
    }
    for (const method of methods) {
      for (const file of readdirSync(join(root, surface, method))) {
        const rel = `${surface}/${method}/${file}`;
        const text = readFileSync(join(root, rel), 'utf8');
        if (text.includes(RECORDED_MARK)) out.set(rel, text);
      }
    }
  }
  return out;
}

/** Paths that differ between the committed recorded fixtures and a fresh fill. */
export function compareRecorded(committed: ReadonlyMap<string, string>, fresh: ReadonlyMap<string, string>): string[] {
  const paths = [...new Set([...committed.keys(), ...fresh.keys()])].sort();
  return paths.flatMap((p) => {
    if (!fresh.has(p)) return [`${p}: committed but no longer recorded`];
    if (!committed.has(p)) return [`${p}: recorded but not committed`];
    return committed.get(p) === fresh.get(p) ? [] : [`${p}: content differs`];
  });
}

/** Writes `files` under `root` and removes recorded fixtures that the fill no longer produces. */
export function writeRecorded(root: string, files: ReadonlyMap<string, string>): void {
  for (const stale of readRecorded(root).keys()) if (!files.has(stale)) rmSync(join(root, stale));
  for (const [rel, text] of files) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

async function cli(argv: readonly string[]): Promise<number> {
  const check = argv.includes('--check');
  const outcome = await fillFromFreshNode();
  for (const w of outcome.waiting) console.log(`waiting  ${w.path} (${w.reason})`);
  if (check) {
    const diffs = compareRecorded(readRecorded(), outcome.files);
    for (const d of diffs) console.log(`DIFF     ${d}`);
    console.log(
      diffs.length === 0
        ? `${outcome.files.size} recorded fixtures match`
        : 'recorded fixtures are stale: run npm run conformance:fill',
    );
    return diffs.length === 0 ? 0 : 1;
  }
  writeRecorded(FIXTURES_ROOT, outcome.files);
  console.log(`${outcome.files.size} fixtures recorded, ${outcome.waiting.length} cases waiting`);
  return 0;
}

if (import.meta.main) process.exitCode = await cli(process.argv.slice(2));
