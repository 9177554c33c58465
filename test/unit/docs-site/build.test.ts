/** The site build: pages per method, type and error, readable limits, snippets, and no dead links. @module */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { buildSite } from '../../../docs-site/build.ts';

const FIXTURE = 'test/unit/docs-site/fixtures/openrpc.public.json';
const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

function build(options: { publicDoc?: string } = {}) {
  const outDir = mkdtempSync(join(tmpdir(), 'docs-site-'));
  dirs.push(outDir);
  const site = buildSite({ outDir, ...options });
  return { site, outDir, read: (rel: string) => readFileSync(join(outDir, rel), 'utf8') };
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
  it('method page: request, response, curl and TypeScript client for each example; error examples', () => {
    const html = read('methods/node_getBlocks.html');
    assert.match(html, /&quot;method&quot;: &quot;node_getBlocks&quot;/);
    assert.match(html, /curl -s -X POST http:\/\/127.0.0.1:8080/);
    assert.match(html, /const node = createNodeClient\(&#39;http:\/\/127.0.0.1:8080&#39;\);\nconst result = await node.getBlocks\(5, 2\);/);
    assert.match(html, /limit-too-large <span class="badge err">error -32602<\/span>/);
  });
  it('deprecated and extension methods carry their notices and badges', () => {
    assert.match(read('methods/node_getL2TipsV3.html'), /<strong>Deprecated.<\/strong> Use <code>node_getL2Tips<\/code> instead./);
    assert.match(read('methods/node_getWorldStateSyncStatus.html'), /<span class="badge ext"[^>]*>Aztec 4.1 extension<\/span>/);
  });
  it('admin pages use the admin client with the key and send x-api-key in curl', () => {
    const html = read('methods/nodeAdmin_getConfig.html');
    assert.match(html, /createNodeAdminClient\(&#39;http:\/\/127.0.0.1:8880&#39;, \{ apiKey: process.env.ADMIN_API_KEY! \}\)/);
    assert.match(html, /-H &quot;x-api-key: \$ADMIN_API_KEY&quot;/);
  });
  it('navigation groups methods by domain in the documented order', () => {
    const html = read('index.html');
    const order = [...html.matchAll(/<summary>([^<]+) <span class="count">/g)].map((m) => m[1]);
    assert.deepEqual(order, ['Blocks', 'Node info', 'Admin', 'Development']);
  });
  it('development pages (openrpc.dev.json) say they live on the admin port and use the dev client with the key', () => {
    const html = read('methods/dev_sendL1ToL2Message.html');
    assert.match(html, /development API, on the admin port \(http:\/\/127.0.0.1:8880\)/);
    assert.match(html, /dev · admin port · API key/);
    assert.match(html, /createDevClient\(&#39;http:\/\/127.0.0.1:8880&#39;, \{ apiKey: process.env.ADMIN_API_KEY! \}\)/);
    assert.match(html, /-H &quot;x-api-key: \$ADMIN_API_KEY&quot;/);
    assert.match(read('index.html'), /2 development methods/);
  });
  it('errors page: code, name, data schema and the methods returning it', () => {
    const html = read('errors.html');
    assert.match(html, /<tr id="BLOCK_NOT_YET_SYNCED"><td><code>-32010<\/code><\/td><td><strong>BLOCK_NOT_YET_SYNCED<\/strong>[^]*?The block is above the latest synced block.<p class="returned">Returned by <a href="methods\/node_getBlocks.html">node_getBlocks<\/a><\/p><\/td><td><a class="type" href="types\/BlockNotYetSyncedErrorData.html">/);
  });
  it('type page links to the types it refers to and the methods using it', () => {
    const html = read('types/L2Block.html');
    assert.match(html, /<h2>Refers to<\/h2><p><a href="..\/types\/BlockNumber.html">BlockNumber<\/a>, <a href="..\/types\/Hash32.html">Hash32<\/a>/);
    assert.match(html, /<a href="..\/methods\/node_getBlocks.html">node_getBlocks<\/a>/);
  });
});

describe('docs-site build from the real documents', () => {
  const { site, outDir } = build();
  it('both documents are read', () => assert.deepEqual(site.warnings, []));
  it('every method and type has a page, and the search index lists every method', () => {
    for (const m of site.methods) assert.ok(existsSync(join(outDir, 'methods', `${m.name}.html`)), m.name);
    for (const t of site.types) assert.ok(existsSync(join(outDir, 'types', `${t.slug}.html`)), t.slug);
    const index = readFileSync(join(outDir, 'data/search-index.js'), 'utf8');
    for (const m of site.methods) assert.ok(index.includes(`"title":"${m.name}"`), m.name);
  });
  it('every relative link and anchor resolves inside the site', () => {
    const dead: string[] = [];
    const ids = new Map<string, Set<string>>();
    const idsOf = (file: string) => ids.get(file) ?? ids.set(file, new Set([...readFileSync(file, 'utf8').matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!))).get(file)!;
    for (const file of walk(outDir).filter((f) => f.endsWith('.html'))) {
      for (const [, href] of readFileSync(file, 'utf8').matchAll(/(?:href|src)="([^"]+)"/g)) {
        if (/^(https?:|data:|mailto:)/.test(href!)) continue;
        const [path, anchor] = href!.split('#');
        const target = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
        if (!existsSync(target)) dead.push(`${relative(outDir, file)} → ${href}`);
        else if (anchor && target.endsWith('.html') && !idsOf(target).has(decodeURIComponent(anchor)) && !target.endsWith('playground.html'))
          dead.push(`${relative(outDir, file)} → ${href} (no such anchor)`);
      }
    }
    assert.deepEqual(dead, []);
  });
});
