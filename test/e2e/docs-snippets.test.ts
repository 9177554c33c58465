/**
 * Every call snippet the docs site shows — curl, TypeScript, Python and Go, for every method — is
 * taken from the built pages (the text a reader copies), pointed at a live l2node process as the
 * reader's URL setting does, and run. Each must get a JSON-RPC answer from the node that is not a
 * protocol failure, and the four languages must get the same kind of answer. The "Sending a
 * transaction" guide's program runs too, and the node accepts its transaction.
 * @module
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { buildSite } from '../../docs-site/build.ts';
import type { MethodModel, SiteModel } from '../../docs-site/lib/model.ts';
import { CLIENT_PACKAGE_SOURCES, DEFAULT_URLS, SNIPPET_LANGS } from '../../docs-site/lib/snippets.ts';
import type { SnippetLang } from '../../docs-site/lib/snippets.ts';
import { cleanEnv, printedKey, startNode, tempDir } from '../integration/server-process-harness.ts';
import type { NodeProcess } from '../integration/server-process-harness.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const NODE_BIN = join(REPO, 'node_modules/.bin/node');

/** Answers that mean the snippet itself is broken (bad JSON, bad request, unknown method) or the node failed. */
const PROTOCOL_FAILURES = new Set([-32700, -32600, -32601, -32603]);

/**
 * The program with the client package's imports pointed at its sources in this repository (what
 * `npm install @l2node/client` gives a reader, before packing).
 */
function withClientSources(code: string): string {
  let out = code;
  for (const [name, path] of Object.entries(CLIENT_PACKAGE_SOURCES))
    out = out.replaceAll(`from '${name}'`, `from '${pathToFileURL(join(REPO, path)).href}'`);
  return out;
}

/** Decodes the text of a code block as the page's copy button copies it. */
function codeTextOf(html: string): string {
  const full =
    /<template>([\s\S]*?)<\/template>/.exec(html)?.[1] ??
    /<pre[^>]*><code[^>]*>([\s\S]*?)<\/code><\/pre>/.exec(html)![1]!;
  return full
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The snippet of `lang` on a method page. */
function pageSnippet(html: string, lang: SnippetLang): string {
  const start = html.indexOf(`<div role="tabpanel" id="call-${lang}"`);
  assert.ok(start >= 0, `no ${lang} snippet`);
  return codeTextOf(html.slice(start, html.indexOf('</div></div>', start) + 12));
}

/** One snippet's outcome: the JSON-RPC answer it printed, or the error the typed client threw. */
interface Outcome {
  kind: 'result' | 'error';
  code?: number;
  output: string;
}

function classify(lang: SnippetLang, stdout: string, stderr: string, failed: boolean): Outcome {
  assert.ok(!failed, `the ${lang} snippet failed:\n${stderr.slice(-1500)}`);
  const answer = JSON.parse(stdout) as { id: unknown; result?: unknown; error?: { code: number } };
  assert.equal(answer.id, 1);
  if (answer.error) return { kind: 'error', code: answer.error.code, output: stdout };
  assert.ok('result' in answer, stdout);
  return { kind: 'result', output: stdout };
}

describe('docs site snippets against a live node', () => {
  let site: SiteModel;
  let outDir: string;
  let work: string;
  let node: NodeProcess;
  let apiKey: string;
  let goBinary: string;

  before(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'docs-snippets-site-'));
    work = mkdtempSync(join(tmpdir(), 'docs-snippets-run-'));
    site = buildSite({ outDir });
    node = await startNode(['--data-directory', join(await tempDir(), 'data')], {
      cwd: await tempDir(),
      node: NODE_BIN,
    });
    apiKey = printedKey(node.stdout())!;
    assert.ok(apiKey, 'the node printed its admin key');
    goBinary = await buildGoSnippets();
  });

  after(async () => {
    await node?.stop();
    for (const d of [outDir, work]) if (d) rmSync(d, { recursive: true, force: true });
  });

  /**
   * The snippet as the reader's URL setting rewrites it: the live node's URL instead of the
   * default; and the examples' server paths (a snapshot upload to /var/lib/l2node/…) moved under
   * the test's directory, so that running them writes nothing outside it.
   */
  function pointed(m: MethodModel, code: string): string {
    return code
      .replaceAll(DEFAULT_URLS[m.surface], m.surface === 'public' ? node.publicUrl : node.adminUrl)
      .replaceAll('/var/lib/l2node/', `${work}/var-lib-l2node/`);
  }

  const pageOf = (m: MethodModel) => readFileSync(join(outDir, 'methods', `${m.name}.html`), 'utf8');

  /**
   * Compiles every Go snippet into one program (a build per snippet would take minutes): each
   * snippet is its own file with its `main` renamed, and a dispatcher runs the one named on the
   * command line. Nothing else of the snippet changes.
   */
  async function buildGoSnippets(): Promise<string> {
    const dir = join(work, 'go');
    mkdirSync(dir, { recursive: true });
    const cases: string[] = [];
    site.methods.forEach((m, i) => {
      const code = pointed(m, pageSnippet(pageOf(m), 'go'));
      assert.match(code, /^func main\(\) \{$/m);
      writeFileSync(join(dir, `snippet_${i}.go`), code.replace(/^func main\(\) \{$/m, `func snippet${i}() {`));
      cases.push(`\tcase "${i}":\n\t\tsnippet${i}()`);
    });
    writeFileSync(
      join(dir, 'dispatch.go'),
      `package main\n\nimport "os"\n\nfunc main() {\n\tswitch os.Args[1] {\n${cases.join('\n')}\n\t}\n}\n`,
    );
    const binary = join(work, 'snippets-go');
    await run('go', ['build', '-o', binary, '.'], {
      cwd: dir,
      env: { ...process.env, GO111MODULE: 'off', GOFLAGS: '' },
      maxBuffer: 1 << 24,
    });
    return binary;
  }

  /**
   * Runs every TypeScript snippet, in order, in one Node process (a process each would take a
   * minute): each is imported as the module it is, its console output captured; a snippet whose
   * call the node answers with an error rejects with the client's JsonRpcError, whose code is kept.
   */
  async function runTypescriptSnippets(): Promise<Outcome[]> {
    const files = site.methods.map((m) => {
      const file = join(work, `${m.name}.ts`);
      writeFileSync(file, withClientSources(pointed(m, pageSnippet(pageOf(m), 'typescript'))));
      return pathToFileURL(file).href;
    });
    const runner = join(work, 'run-snippets.ts');
    writeFileSync(
      runner,
      `const log = console.log;
for (const file of ${JSON.stringify(files)}) {
  let out = '';
  console.log = (...a: unknown[]) => { out += a.join(' ') + '\\n'; };
  try {
    await import(file);
    log(JSON.stringify({ kind: 'result', output: out }));
  } catch (e: any) {
    if (e?.name !== 'JsonRpcError') throw e;
    log(JSON.stringify({ kind: 'error', code: e.code, output: e.message }));
  } finally {
    console.log = log;
  }
}
`,
    );
    const { stdout } = await run(NODE_BIN, [runner], {
      env: { ...cleanEnv(), ADMIN_API_KEY: apiKey },
      maxBuffer: 1 << 26,
    });
    return stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Outcome);
  }

  async function runSnippet(m: MethodModel, lang: SnippetLang, index: number): Promise<Outcome> {
    const env = { ...cleanEnv(), ADMIN_API_KEY: apiKey };
    const code = pointed(m, pageSnippet(pageOf(m), lang));
    const file = join(work, `${m.name}.${SNIPPET_LANGS.find((l) => l.id === lang)!.ext}`);
    let command: string;
    let args: string[];
    if (lang === 'curl') {
      writeFileSync(file, code);
      [command, args] = ['bash', [file]];
    } else if (lang === 'python') {
      writeFileSync(file, code);
      [command, args] = ['python3', [file]];
    } else {
      [command, args] = [goBinary, [String(index)]];
    }
    try {
      const { stdout, stderr } = await run(command, args, { env, maxBuffer: 1 << 26 });
      return classify(lang, stdout, stderr, false);
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return classify(lang, e.stdout ?? '', e.stderr ?? String(err), true);
    }
  }

  it("every method's curl, TypeScript, Python and Go snippets get the same kind of answer from the node", async () => {
    const started = Date.now();
    const failures: string[] = [];
    const answers: Record<string, number> = {};
    const typescript = await runTypescriptSnippets();
    assert.equal(typescript.length, site.methods.length);
    // one method at a time: the admin methods change the node (pause, resume, settings) in the documented order
    for (const [i, m] of site.methods.entries()) {
      const outcomes = await Promise.all(
        SNIPPET_LANGS.map((l) => (l.id === 'typescript' ? typescript[i]! : runSnippet(m, l.id, i))),
      );
      const kinds = outcomes.map((o) => (o.kind === 'result' ? 'result' : `error ${o.code}`));
      for (const [j, o] of outcomes.entries())
        if (o.code !== undefined && PROTOCOL_FAILURES.has(o.code))
          failures.push(`${m.name} (${SNIPPET_LANGS[j]!.id}): ${o.output.slice(0, 300)}`);
      if (new Set(kinds).size !== 1 && !MUTATING.has(m.name))
        failures.push(`${m.name}: the languages disagree: ${kinds.join(', ')}`);
      for (const k of kinds) answers[k] = (answers[k] ?? 0) + 1;
    }
    assert.deepEqual(failures, []);
    assert.ok(
      !existsSync('/var/lib/l2node/snapshots/latest') || statSync('/var/lib/l2node/snapshots/latest').mtimeMs < started,
      'nothing was written outside the test directory',
    );
    assert.ok(
      (answers.result ?? 0) >= site.methods.length * 2,
      `most snippets get a result: ${JSON.stringify(answers)}`,
    );
  });

  it('the "Sending a transaction" guide\'s program builds a transaction the node accepts', async () => {
    const html = readFileSync(join(outDir, 'guides/sending-a-transaction.html'), 'utf8');
    const start = html.indexOf('<code class="hljs lang-js">');
    const code = codeTextOf(
      html.slice(html.lastIndexOf('<div class="code"', start), html.indexOf('</div>', start) + 6),
    );
    assert.match(code, /from '@l2node\/client\/tx'/);
    const file = join(work, 'send-tx.mjs');
    writeFileSync(file, withClientSources(code));
    const { stdout } = await run(NODE_BIN, [file], { env: { ...cleanEnv(), L2NODE_URL: node.publicUrl } });
    const sent = /^sent (0x[0-9a-f]{64}) (\w+)/.exec(stdout);
    assert.ok(sent, stdout);
    const res = await fetch(node.publicUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'node_getTxReceipt', params: [sent[1]] }),
    });
    const receipt = ((await res.json()) as { result: { status: string } }).result;
    assert.ok(
      ['pending', 'proposed', 'checkpointed', 'proven', 'finalized', 'mined'].includes(
        receipt.status.toLowerCase?.() ?? receipt.status,
      ),
      JSON.stringify(receipt),
    );
  });
});

/** Methods whose call changes the node, so a second language may get another answer than the first (e.g. a tx already sent). */
const MUTATING = new Set([
  'node_sendTx',
  'nodeAdmin_setConfig',
  'nodeAdmin_pauseSync',
  'nodeAdmin_resumeSync',
  'nodeAdmin_rollbackTo',
  'nodeAdmin_startSnapshotUpload',
  'nodeAdmin_reloadKeystore',
  'dev_sendL1ToL2Message',
]);
