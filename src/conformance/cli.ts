/**
 * `l2node-conformance`: replays the protocol suite and the fixtures against any implementation,
 * prints one line per case and a summary, writes reports, exits 1 on any failure.
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCoverage, coverageDocument, coverageTotals, limitCases } from './coverage.ts';
import { CHAIN_FILE } from './chain/paths.ts';
import { startNode } from './node-process.ts';
import { loadDocuments } from './documents.ts';
import { filterFixtures, FIXTURES_ROOT, loadFixtures } from './fixtures.ts';
import { renderReport } from './reports.ts';
import type { ReportFormat } from './reports.ts';
import { summarize } from './results.ts';
import type { CaseResult } from './results.ts';
import { runSuite } from './run.ts';

const USAGE = `Usage: l2node-conformance (--url <public-url> --admin-url <admin-url> [--api-key <key>] | --local)
         [--filter <glob or method>] [--report json|junit|html] [--out <file>] [--coverage <file.md>]
         [--max-body-bytes <n>] [--max-batch-size <n>] [--fixtures <dir>] [--no-protocol] [--strict]

  --local           start this package's node on the conformance chain (l2node --import-chain
                    test/conformance/chain/chain.json, in memory, free ports) and run against it
  --api-key         admin API key (or env L2NODE_CONFORMANCE_API_KEY); without it the admin cases fail
  --filter          run only fixtures whose method, method/case or path matches (protocol suite skipped
                    unless the filter is "protocol")
  --report, --out   write a report file (default format json; default file conformance-report.<ext>)
  --coverage        write the per-method coverage matrix as Markdown
  --max-body-bytes  the node's body limit; the 413 case sends one byte more (default 1048576)
  --max-batch-size  the node's batch limit; the -32600 case sends one more (default 100)
  --strict          count not-implemented (-32001) cases as failures
`;

/** Runs the CLI with `argv`; resolves with the process exit code. */
export async function runCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  out: (line: string) => void = console.log,
): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        'admin-url': { type: 'string' },
        'api-key': { type: 'string' },
        filter: { type: 'string' },
        report: { type: 'string' },
        out: { type: 'string' },
        coverage: { type: 'string' },
        'max-body-bytes': { type: 'string', default: '1048576' },
        'max-batch-size': { type: 'string', default: '100' },
        fixtures: { type: 'string', default: FIXTURES_ROOT },
        'no-protocol': { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
        local: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }).values;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) return (out(USAGE), 0);
  if (values.local) {
    if (values.url !== undefined || values['admin-url'] !== undefined) {
      process.stderr.write(`--local starts its own node: leave out --url and --admin-url\n\n${USAGE}`);
      return 2;
    }
    const node = await startNode(['--import-chain', CHAIN_FILE]);
    try {
      return await runCli(
        [
          ...argv.filter((a) => a !== '--local'),
          '--url',
          node.publicUrl,
          '--admin-url',
          node.adminUrl,
          '--api-key',
          node.apiKey,
        ],
        env,
        out,
      );
    } finally {
      await node.stop();
    }
  }
  if (values.url === undefined || values['admin-url'] === undefined) {
    process.stderr.write(`--url and --admin-url are required (or --local)\n\n${USAGE}`);
    return 2;
  }
  const format = (values.report ?? (values.out === undefined ? undefined : 'json')) as ReportFormat | undefined;
  if (format !== undefined && !['json', 'junit', 'html'].includes(format)) {
    process.stderr.write(`--report must be json, junit or html\n`);
    return 2;
  }
  const apiKey = values['api-key'] ?? env.L2NODE_CONFORMANCE_API_KEY;
  const docs = loadDocuments();
  const filter = values.filter;
  const fixtures = filter === 'protocol' ? [] : filterFixtures(loadFixtures(values.fixtures), filter);
  const results = await runSuite({
    endpoints: { publicUrl: values.url, adminUrl: values['admin-url'], ...(apiKey === undefined ? {} : { apiKey }) },
    docs,
    fixtures,
    protocol: !values['no-protocol'] && (filter === undefined || filter === 'protocol'),
    maxBodyBytes: Number(values['max-body-bytes']),
    maxBatchSize: Number(values['max-batch-size']),
    onResult: (r) => out(caseLine(r)),
  });
  const coverage = buildCoverage(docs, fixtures, results);
  const s = summarize(results);
  const t = coverageTotals(coverage);
  out('');
  out(`${s.total} cases: ${s.pass} passed, ${s.fail} failed, ${s.notImplemented} not implemented (-32001)`);
  out(
    `coverage: ${t.successPassing}/${t.methods} methods with a passing success case, ${t.errorsCovered}/${t.errors} declared errors covered, ${t.optionalBothWays}/${t.optionalParams} optional params present and absent`,
  );
  const target = { publicUrl: values.url, adminUrl: values['admin-url'] };
  if (format !== undefined) {
    const file = values.out ?? `conformance-report.${format === 'junit' ? 'xml' : format}`;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, renderReport({ target, results, coverage }, format));
    out(`report: ${file}`);
  }
  if (values.coverage !== undefined) {
    mkdirSync(dirname(values.coverage), { recursive: true });
    writeFileSync(
      values.coverage,
      coverageDocument(
        coverage,
        limitCases(fixtures, results),
        results.filter((r) => r.outcome === 'not-implemented').map((r) => r.path ?? r.name),
      ),
    );
    out(`coverage matrix: ${values.coverage}`);
  }
  return s.fail > 0 || (values.strict && s.notImplemented > 0) ? 1 : 0;
}

/** One line per case; failures and not-implemented cases get their detail indented below. */
export function caseLine(r: CaseResult): string {
  const tag = { pass: 'PASS', fail: 'FAIL', 'not-implemented': 'N/I ' }[r.outcome];
  const where = r.suite === 'protocol' ? `protocol ${r.name}` : `${r.suite} ${r.method}/${r.name}`;
  const head = `${tag} ${where}${r.mode === 'value' || r.mode === 'protocol' ? '' : ` [${r.mode}]`} (${r.ms} ms)`;
  return r.detail === '' ? head : `${head}\n${r.detail.replace(/^/gm, '       ')}`;
}
