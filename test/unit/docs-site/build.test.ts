/** The site build: pages per method, type and error, readable limits, snippets, and no dead links. @module */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { buildSite } from '../../../docs-site/build.ts';

const FIXTURE = 'test/unit/docs-site/fixtures/openrpc.public.json';
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function build(options: { publicDoc?: string } = {}) {
  const outDir = mkdtempSync(join(tmpdir(), 'docs-site-'));
  dirs.push(outDir);
  const site = buildSite({ outDir, ...options });
  return { site, outDir, read: (rel: string) => readFileSync(join(outDir, rel), 'utf8') };
}

/** The text of some HTML as a reader sees it (tags dropped, entities decoded): highlighting does not matter. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

describe('docs-site build from the fixture document', () => {
  const { read } = build({ publicDoc: FIXTURE });
  it('method page: limits read as words, defaults shown, result and error data linked', () => {
    const html = read('methods/node_getBlocks.html');
    assert.match(html, /integer, 1 to 100, default <code>100<\/code>/);
    assert.match(html, /BlockNumber<\/a> <span class="hint">\(integer, ≥ 0\)<\/span>, ≥ 1/);
    assert.match(html, /array of <a class="type" href="..\/types\/L2Block.html">L2Block<\/a>, at most 100 items/);
    assert.match(html, /<code>-32010<\/code><\/td><td><a href="..\/errors.html#BLOCK_NOT_YET_SYNCED">/);
    assert.match(html, /href="..\/types\/BlockNotYetSyncedErrorData.html"/);
  });
  it('method page: request and response per example, the call in curl, TypeScript, Python and Go; error examples', () => {
    const html = read('methods/node_getBlocks.html');
    const page = text(html);
    assert.match(page, /"method": "node_getBlocks"/);
    assert.deepEqual(
      [...html.matchAll(/role="tab" id="call-tab-(\w+)"/g)].map((m) => m[1]),
      ['curl', 'typescript', 'python', 'go'],
    );
    assert.match(page, /curl -s -X POST http:\/\/127.0.0.1:8080/);
    assert.match(page, /import { createNodeClient } from '@l2node\/client';/);
    assert.match(
      page,
      /const node = createNodeClient\('http:\/\/127.0.0.1:8080'\);\nconst result = await node.getBlocks\(5, 2\);/,
    );
    assert.match(page, /body = \{"jsonrpc": "2.0", "id": 1, "method": "node_getBlocks", "params": \[5, 2\]\}/);
    assert.match(page, /body := \[\]byte\(`\{"jsonrpc":"2.0","id":1,"method":"node_getBlocks","params":\[5,2\]\}`\)/);
    assert.match(
      html,
      /<span class="u-url" data-surface="public">http:\/\/127.0.0.1:8080<\/span>/,
      "the URL is marked for the reader's setting",
    );
    assert.match(html, /id="example-two-blocks"/);
    assert.match(html, /<tr id="param-limit">/);
    assert.match(html, /limit-too-large <span class="badge err">error -32602<\/span>/);
    assert.match(html, /<details class="tryit" id="try-it">/);
  });
  it('deprecated and extension methods carry their notices and badges', () => {
    assert.match(
      read('methods/node_getL2TipsV3.html'),
      /<strong>Deprecated.<\/strong> Use <code>node_getL2Tips<\/code> instead./,
    );
    assert.match(
      read('methods/node_getWorldStateSyncStatus.html'),
      /<span class="badge ext"[^>]*>Aztec 4.1 extension<\/span>/,
    );
  });
  it('admin pages use the admin client with the key and send x-api-key in every language', () => {
    const html = read('methods/nodeAdmin_getConfig.html');
    const page = text(html);
    assert.match(page, /createNodeAdminClient\('http:\/\/127.0.0.1:8880', \{ apiKey: process.env.ADMIN_API_KEY! \}\)/);
    assert.match(page, /-H "x-api-key: \$ADMIN_API_KEY"/);
    assert.match(page, /"x-api-key": os.environ\["ADMIN_API_KEY"\]/);
    assert.match(page, /req.Header.Set\("x-api-key", os.Getenv\("ADMIN_API_KEY"\)\)/);
    assert.equal(
      (html.match(/<span class="k-expr" data-lang="/g) ?? []).length,
      4,
      "each key expression is marked for the reader's key",
    );
  });
  it('an unauthorized admin example answers id null, as the node does', () => {
    const page = text(read('methods/nodeAdmin_getConfig.html'));
    assert.match(page, /"id": null,\s*"error": \{\s*"code": -32000/);
  });
  it('navigation groups methods by domain in the documented order', () => {
    const html = read('index.html');
    const order = [...html.matchAll(/<summary>([^<]+) <span class="count">/g)].map((m) => m[1]);
    assert.deepEqual(order, ['Blocks', 'Node info', 'Admin', 'Development']);
  });
  it('development pages (openrpc.dev.json) say they live on the admin port and use the dev client with the key', () => {
    const html = read('methods/dev_sendL1ToL2Message.html');
    const page = text(html);
    assert.match(page, /development API, on the admin port \(http:\/\/127.0.0.1:8880\)/);
    assert.match(html, /dev · admin port · API key/);
    assert.match(page, /createDevClient\('http:\/\/127.0.0.1:8880', \{ apiKey: process.env.ADMIN_API_KEY! \}\)/);
    assert.match(page, /-H "x-api-key: \$ADMIN_API_KEY"/);
    assert.match(read('index.html'), /2 development methods/);
  });
  it('errors page: code, name, data schema and the methods returning it', () => {
    const html = read('errors.html');
    assert.match(
      html,
      /<tr id="BLOCK_NOT_YET_SYNCED"><td><code>-32010<\/code><\/td><td><strong>BLOCK_NOT_YET_SYNCED<\/strong>[\s\S]*?The block is above the latest synced block.<p class="returned">Returned by <a href="methods\/node_getBlocks.html">node_getBlocks<\/a><\/p><\/td><td><a class="type" href="types\/BlockNotYetSyncedErrorData.html">/,
    );
  });
  it('type page links to the types it refers to and the methods using it', () => {
    const html = read('types/L2Block.html');
    assert.match(
      html,
      /<h2 id="refers-to">Refers to<a class="anchor"[^>]*>#<\/a><\/h2><p><a href="..\/types\/BlockNumber.html">BlockNumber<\/a>, <a href="..\/types\/Hash32.html">Hash32<\/a>/,
    );
    assert.match(html, /<tr id="field-hash"><td><code>hash<\/code><a class="anchor" href="#field-hash"/);
    assert.match(html, /<a href="..\/methods\/node_getBlocks.html">node_getBlocks<\/a>/);
  });
});

describe('docs-site build from the real documents', () => {
  const { site, outDir } = build();
  it('both documents are read', () => assert.deepEqual(site.warnings, []));
  it('every method and type has a page (a wrapper component shows as the type it wraps), and the search index lists every method', () => {
    for (const m of site.methods) assert.ok(existsSync(join(outDir, 'methods', `${m.name}.html`)), m.name);
    for (const t of site.types)
      assert.equal(existsSync(join(outDir, 'types', `${t.slug}.html`)), !t.aliasOf && !t.inline, t.slug);
    const index = readFileSync(join(outDir, 'data/search-index.js'), 'utf8');
    for (const m of site.methods) assert.ok(index.includes(`"title":"${m.name}"`), m.name);
  });
  it('no page cites a repository document the site does not publish, and no Markdown backtick shows literally', () => {
    const bad: string[] = [];
    for (const file of walk(outDir).filter((f) => f.endsWith('.html'))) {
      const html = readFileSync(file, 'utf8');
      const prose = text(
        html.replace(
          /<script[\s\S]*?<\/script>|<pre[\s\S]*?<\/pre>|<template>[\s\S]*?<\/template>|<code[^>]*>[\s\S]*?<\/code>/g,
          '',
        ),
      );
      const cite = /SPEC §|SPEC\.md|\.\.\/shared\/|vectors\/[\w-]+[./]|TX-FORMAT\.md/.exec(text(html));
      if (cite) bad.push(`${relative(outDir, file)} cites ${cite[0]}`);
      if (prose.includes('`'))
        bad.push(
          `${relative(outDir, file)} shows a literal backtick: …${prose.slice(Math.max(0, prose.indexOf('`') - 30), prose.indexOf('`') + 30)}…`,
        );
    }
    assert.deepEqual(bad, []);
  });
  it('unions name their alternatives; a type name is listed once; the documents download; a 404 page exists', () => {
    for (const file of walk(outDir).filter((f) => f.endsWith('.html')))
      assert.doesNotMatch(
        readFileSync(file, 'utf8'),
        /object <span class="or">or<\/span> object/,
        relative(outDir, file),
      );
    const types = readFileSync(join(outDir, 'types.html'), 'utf8');
    const names = [...types.matchAll(/<tr id="([^"]+)"><td><a href="types\//g)].map((m) => m[1]);
    assert.deepEqual(names, [...new Set(names)]);
    for (const f of ['openrpc.public.json', 'openrpc.admin.json', 'openrpc.dev.json']) {
      assert.deepEqual(JSON.parse(readFileSync(join(outDir, f), 'utf8')), JSON.parse(readFileSync(f, 'utf8')), f);
      assert.match(readFileSync(join(outDir, 'index.html'), 'utf8'), new RegExp(`href="${f}" download`));
    }
    assert.match(readFileSync(join(outDir, '404.html'), 'utf8'), /<h1>Page not found<\/h1>/);
  });
  it('long guides open with a table of contents; the search index holds fields and guide sections', () => {
    const ops = readFileSync(join(outDir, 'guides/operations.html'), 'utf8');
    assert.match(ops, /<nav class="toc" id="toc" aria-label="On this page"><h2>On this page<\/h2><ol><li><a href="#/);
    const index = readFileSync(join(outDir, 'data/search-index.js'), 'utf8');
    assert.match(index, /"kind":"field","title":"txHash"/);
    assert.match(index, /"kind":"guide","title":"[^"]+","context":"Operating the node"/);
  });
  it('every relative link and anchor resolves inside the site', () => {
    const dead: string[] = [];
    const ids = new Map<string, Set<string>>();
    const idsOf = (file: string) =>
      ids.get(file) ??
      ids.set(file, new Set([...readFileSync(file, 'utf8').matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!))).get(file)!;
    for (const file of walk(outDir).filter((f) => f.endsWith('.html'))) {
      for (const [, href] of readFileSync(file, 'utf8').matchAll(/(?:href|src)="([^"]+)"/g)) {
        if (/^(https?:|data:|mailto:)/.test(href!)) continue;
        const [path, anchor] = href!.split('#');
        // the 404 page links from the site root, wherever the missing page was asked for
        const target = path
          ? path.startsWith('/')
            ? join(outDir, decodeURIComponent(path))
            : resolve(dirname(file), decodeURIComponent(path))
          : file;
        if (!existsSync(target)) dead.push(`${relative(outDir, file)} → ${href}`);
        else if (
          anchor &&
          target.endsWith('.html') &&
          !idsOf(target).has(decodeURIComponent(anchor)) &&
          !target.endsWith('playground.html')
        )
          dead.push(`${relative(outDir, file)} → ${href} (no such anchor)`);
      }
    }
    assert.deepEqual(dead, []);
  });
});
