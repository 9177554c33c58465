/**
 * The docs site in a real browser: Debian's Chromium (headless, through playwright-core) loads every
 * built page at phone, tablet and laptop widths (no sideways scroll, no console errors), opens the
 * small-screen menu, runs axe-core on the key pages, searches, switches snippet languages, expands
 * and copies a large payload, keeps the reader's node settings, and calls a live l2node process
 * (bin/l2node.js, its admin key read from its stdout) from "Try it" and the playground.
 * Screenshots of the main states go to test-results/docs-site/.
 * @module
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildSite } from '../../docs-site/build.ts';
import type { SiteModel } from '../../docs-site/lib/model.ts';
import { startStaticServer } from '../../docs-site/serve.ts';
import { printedKey, startNode, tempDir } from '../integration/server-process-harness.ts';
import type { NodeProcess } from '../integration/server-process-harness.ts';
import { freePort } from '../integration/free-port.ts';

// The browser's globals, for the functions page.evaluate runs in the page (the project type-checks without the DOM library).
declare const document: any,
  window: any,
  location: any,
  getComputedStyle: (element: unknown) => { backgroundColor: string };

const SHOTS = 'test-results/docs-site';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const NODE_BIN = fileURLToPath(new URL('../../node_modules/.bin/node', import.meta.url));
const AXE = fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));
/** Phone, tablet and laptop. */
const WIDTHS = [390, 900, 1366] as const;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

describe('docs site in Chromium', () => {
  let site: SiteModel;
  let outDir: string;
  let server: Server;
  let base: string;
  let node: NodeProcess;
  let apiKey: string;
  let browser: Browser;
  const consoleErrors: string[] = [];

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    outDir = mkdtempSync(join(tmpdir(), 'docs-site-e2e-'));
    site = buildSite({ outDir });
    server = await startStaticServer(outDir, 0);
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    // the documented way to use the playground and Try it for admin calls: the docs site's origin in --admin-cors-origin
    node = await startNode(
      ['--data-directory', join(await tempDir(), 'data'), '--admin-cors-origin', new URL(base).origin],
      { cwd: await tempDir(), node: NODE_BIN },
    );
    apiKey = printedKey(node.stdout())!;
    assert.ok(apiKey, 'the node printed its admin key');
    // A missing /usr/bin/chromium fails here, loudly: scripts/ensure-system-packages.sh installs it.
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await node?.stop();
    server?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  /** A fresh context (own storage) at a width; console errors of its pages are collected. */
  async function context(width: number, o: { dark?: boolean } = {}): Promise<BrowserContext> {
    const ctx = await browser.newContext({
      viewport: { width, height: width < 500 ? 844 : 900 },
      colorScheme: o.dark ? 'dark' : 'light',
    });
    ctx.on('page', (page) => watch(page, `${width}px`));
    return ctx;
  }

  function watch(page: Page, where: string) {
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${where} ${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => consoleErrors.push(`${where} ${page.url()}: ${e.message}`));
  }

  async function open(path: string, width = 1366, o: { dark?: boolean } = {}): Promise<Page> {
    const page = await (await context(width, o)).newPage();
    await page.goto(base + path);
    return page;
  }

  const close = (page: Page) => page.context().close();

  /** Sets the reader's node (the ⚙ panel) on the current page. */
  async function useNode(page: Page, key = apiKey) {
    await page.click('.settings-toggle');
    await page.fill('#set-public-url', node.publicUrl);
    await page.fill('#set-admin-url', node.adminUrl);
    await page.dispatchEvent('#set-public-url', 'change');
    await page.dispatchEvent('#set-admin-url', 'change');
    await page.fill('#set-api-key', key);
    await page.click('.settings-toggle');
  }

  it('every page at 390, 900 and 1366 px: no sideways scroll and no console errors', async () => {
    const pages = walk(outDir)
      .filter((f) => f.endsWith('.html'))
      .map((f) => relative(outDir, f));
    assert.ok(pages.length > 150, `${pages.length} pages`);
    const overflow: string[] = [];
    // Each page is loaded once and laid out at the three widths (resizing re-applies the media
    // queries); two tabs share the pages, one per core.
    const tabs = 2;
    await Promise.all(
      Array.from({ length: tabs }, async (_, t) => {
        const page = await (await context(WIDTHS[2])).newPage();
        for (const path of pages.filter((_, i) => i % tabs === t)) {
          await page.setViewportSize({ width: WIDTHS[2], height: 900 });
          await page.goto(base + path, { waitUntil: 'load' });
          for (const width of [...WIDTHS].reverse()) {
            await page.setViewportSize({ width, height: 900 });
            const [scroll, client] = await page.evaluate(() => [
              document.documentElement.scrollWidth,
              document.documentElement.clientWidth,
            ]);
            if (scroll > client) overflow.push(`${path} at ${width}px is ${scroll}px wide`);
          }
        }
        await close(page);
      }),
    );
    assert.deepEqual(overflow, []);
    assert.deepEqual(consoleErrors, []);
  });

  it('the small-screen menu reaches Errors, Types and Playground; content starts under the header', async () => {
    const page = await open('methods/node_getBlock.html', 390);
    const top = await page.locator('main h1').boundingBox();
    assert.ok(top && top.y < 200, `the title is ${top?.y}px down the page`);
    assert.equal(await page.isVisible('nav.side'), false, 'the menu is closed at first');
    await page.click('.menu-toggle');
    assert.equal(await page.isVisible('nav.side'), true);
    await page.screenshot({ path: `${SHOTS}/phone-menu.png` });
    for (const [label, path] of [
      ['Errors', 'errors.html'],
      ['Types', 'types.html'],
      ['Playground', 'playground.html'],
    ] as const) {
      if (!(await page.isVisible('nav.side'))) await page.click('.menu-toggle');
      await page.locator('nav.side').getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL(`**/${path}`);
      assert.equal(await page.locator('main h1').textContent(), label);
    }
    await close(page);
  });

  it('axe-core finds no serious or critical violation on the key pages', async () => {
    const byKind = (f: (m: SiteModel['methods'][number]) => boolean) => site.methods.find(f)!.name;
    const methods = [
      byKind((m) => m.surface === 'public' && m.params.length > 0 && m.examples.length > 0),
      byKind((m) => m.surface === 'public' && m.params.length === 0),
      byKind((m) => m.surface === 'admin'),
      byKind((m) => m.surface === 'dev'),
      byKind((m) => m.deprecated || !!m.extension),
    ];
    const pages = [
      'index.html',
      ...methods.map((m) => `methods/${m}.html`),
      `types/${site.types.find((t) => t.name === 'BlockHeader')?.slug ?? site.types[0]!.slug}.html`,
      'errors.html',
      'playground.html',
      'guides/quick-start.html',
      'guides/operations.html',
    ];
    const found: string[] = [];
    // every key page on a laptop; on a phone and in dark mode the pages whose layout or colours differ most
    const runs = [
      [1366, false, pages],
      [390, false, [pages[0]!, pages[1]!, pages[3]!, 'playground.html']],
      [1366, true, [pages[0]!, pages[1]!, 'guides/operations.html']],
    ] as const;
    for (const [width, dark, paths] of runs) {
      const page = await (await context(width, { dark })).newPage();
      for (const path of paths) {
        await page.goto(base + path);
        await page.addScriptTag({ path: AXE });
        const violations = await page.evaluate(async () =>
          (await (window as any).axe.run(document)).violations
            .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
            .map(
              (v: any) =>
                `${v.id} (${v.impact}): ${v.nodes
                  .slice(0, 3)
                  .map((n: any) => n.target.join(' '))
                  .join(', ')}`,
            ),
        );
        for (const v of violations) found.push(`${path} at ${width}px${dark ? ' dark' : ''}: ${v}`);
      }
      await close(page);
    }
    assert.deepEqual(found, []);
  });

  it('search: `/` and Ctrl-K focus it; methods rank first; it finds a field name and a guide phrase', async () => {
    const page = await open('index.html');
    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'search');
    await page.keyboard.type('block');
    await page.locator('#search-results a').first().waitFor();
    assert.equal(await page.locator('#search-results a .t').first().textContent(), 'node_getBlock');
    assert.equal(await page.locator('#search-results a .kind').first().textContent(), 'method');

    await page.fill('#search', 'txHash');
    await page.locator('#search-results a .kind:text-is("field")').first().waitFor();
    assert.ok((await page.locator('#search-results a .t').allTextContents()).includes('txHash'));

    await page.fill('#search', 'rate limit');
    const guide = page.locator('#search-results li:has(.kind:text-is("guide")) a').first();
    await guide.waitFor();
    await page.screenshot({ path: `${SHOTS}/search.png` });
    const href = await guide.getAttribute('href');
    await guide.click();
    await page.waitForURL(`**/${href!.replace(/^\.\.\//, '')}`);

    await page.locator('main').click();
    await page.keyboard.press('Control+k');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'search');
    await page.keyboard.type('UNAUTHORIZED');
    await page.locator('#search-results a').first().waitFor();
    assert.equal(await page.locator('#search-results a .t').first().textContent(), 'UNAUTHORIZED');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/errors.html#UNAUTHORIZED');
    await close(page);
  });

  it('search on a phone: the results fit the screen and open the place found', async () => {
    const page = await open('index.html', 390);
    await page.fill('#search', 'txHash');
    const first = page.locator('#search-results a').first();
    await first.waitFor();
    const box = (await page.locator('#search-results').boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `results span ${box.x}…${box.x + box.width}`);
    await page.screenshot({ path: `${SHOTS}/phone-search.png` });
    const href = (await first.getAttribute('href'))!;
    await first.click();
    await page.waitForURL(`**/${href}`);
    await close(page);
  });

  it('a method page: schemas, errors, examples with the call in four languages, anchors, dark mode', async () => {
    const m = site.methods.find((x) => x.name === 'node_getBlocks')!;
    const page = await open(`methods/${m.name}.html`);
    assert.equal(await page.locator('#parameters-section table.params tbody tr').count(), m.params.length);
    assert.ok(await page.locator('#result-section .schema-line').first().isVisible());
    assert.ok((await page.locator('#errors-section table.errors tbody tr').count()) >= 1);
    const tabs = page.locator('.snippets [role=tab]');
    assert.deepEqual(await tabs.allTextContents(), ['curl', 'TypeScript', 'Python', 'Go']);
    for (const [lang, text] of [
      ['python', 'urllib.request'],
      ['go', 'net/http'],
      ['typescript', `.${m.handler}(`],
      ['curl', 'curl -s -X POST'],
    ] as const) {
      await page.click(`.snippets [role=tab][data-lang=${lang}]`);
      assert.match(
        (await page.locator(`#call-${lang} pre`).textContent())!,
        new RegExp(text.replace(/[.()]/g, '\\$&')),
      );
      assert.equal(await page.isVisible(`#call-${lang}`), true);
    }
    assert.equal(await page.locator('#example-' + m.examples[0]!.name.replace(/[^\w-]/g, '-')).count(), 1);
    assert.ok((await page.locator('h2 a.anchor[href="#parameters"]').count()) === 1);
    await page.screenshot({ path: `${SHOTS}/method.png`, fullPage: true });
    await close(page);
    const dark = await open(`methods/${m.name}.html`, 1366, { dark: true });
    assert.notEqual(
      await dark.evaluate(() => getComputedStyle(document.body).backgroundColor),
      'rgb(255, 255, 255)',
      'dark mode follows the system setting',
    );
    await dark.screenshot({ path: `${SHOTS}/method-dark.png` });
    await close(dark);
  });

  it('a large payload starts collapsed; Expand shows it all and Copy copies it all', async () => {
    const ctx = await context(1366);
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await ctx.newPage();
    await page.goto(`${base}methods/node_sendTx.html`);
    const block = page.locator('#examples-section .example .code.collapsed').first();
    const preview = (await block.locator('pre').textContent())!;
    assert.match(preview, /…\([\d,]+ characters\)…/);
    assert.ok(preview.length < 5_000, `the preview is ${preview.length} characters`);
    await block.locator('button.copy').click();
    const copied = await page.evaluate(() => (navigator as any).clipboard.readText());
    assert.ok(copied.length > 100_000, `copied ${copied.length} characters`);
    JSON.parse(copied);
    await block.locator('button.expand').click();
    assert.equal((await block.locator('pre').textContent())!.length, copied.length);
    await close(page);
  });

  it('the reader\'s node setting rewrites every snippet and the playground, and "Try it" calls it', async () => {
    const page = await open('methods/node_getBlockNumber.html', 390);
    await useNode(page);
    assert.match(
      (await page.locator('#call-curl pre').textContent())!,
      new RegExp(`curl -s -X POST ${node.publicUrl}`),
    );
    await page.click('#try-it > summary');
    await page.click('#try-it button[type=submit]');
    await page.locator('#try-it .explain').waitFor();
    assert.match((await page.textContent('#try-it .status'))!, /^HTTP 200/);
    assert.match(
      (await page.textContent('#try-it .explain'))!,
      /✓ The result matches the documented result schema \(BlockNumber\)\./,
    );
    await page.locator('#try-it').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/phone-method.png` });

    await page.goto(`${base}methods/nodeAdmin_getConfig.html`);
    await page.click('.snippets [role=tab][data-lang=python]');
    const python = (await page.locator('#call-python pre').textContent())!;
    assert.match(python, new RegExp(`"x-api-key": "${apiKey}"`));
    assert.ok(python.includes(`"${node.adminUrl}"`), python);
    await page.click('#try-it > summary');
    await page.click('#try-it button[type=submit]');
    await page.locator('#try-it .explain').waitFor();
    assert.match(
      (await page.textContent('#try-it .explain'))!,
      /✓ The result matches the documented result schema \(NodeAdminConfig\)/,
    );

    await page.goto(`${base}playground.html#nodeAdmin_getConfig`);
    assert.equal(await page.inputValue('#pg-url'), node.adminUrl);
    assert.equal(await page.inputValue('#pg-key'), apiKey);
    assert.equal(
      await page.evaluate(() => localStorage.getItem('l2node.adminApiKey')),
      null,
      'the key stays in the tab unless the reader asks',
    );
    await close(page);
  });

  /** Opens the playground on `method`, pointed at `url`. */
  async function playground(method: string, url: string, width = 1366): Promise<Page> {
    const page = await open(`playground.html#${method}`, width);
    await page.fill('#pg-url', url);
    assert.equal(await page.inputValue('#pg-method'), method);
    return page;
  }

  it('the playground calls the live node for a public method and shows the checked result; a hash change switches method', async () => {
    const page = await playground('node_getNodeVersion', node.publicUrl, 390);
    assert.equal(await page.isVisible('#pg-key'), false, 'the API key field belongs to the admin endpoint only');
    await page.click('#pg-send');
    await page.locator('#pg-explain .explain').waitFor();
    assert.match((await page.textContent('#pg-status'))!, /^HTTP 200/);
    assert.match(
      (await page.textContent('#pg-explain'))!,
      /^✓ The result matches the documented result schema( \(\w+\))?\.$/,
    );
    assert.match((await page.textContent('#pg-body'))!, /"result"/);
    assert.match(
      (await page.textContent('#pg-curl'))!,
      new RegExp(`^curl -s -X POST ${node.publicUrl} [^]*"method":"node_getNodeVersion"`),
    );
    await page.screenshot({ path: `${SHOTS}/phone-playground.png`, fullPage: true });
    await page.evaluate(() => {
      location.hash = 'node_getBlockNumber';
    });
    await page.waitForFunction(() => document.getElementById('pg-method').value === 'node_getBlockNumber');
    await close(page);
  });

  it('an admin call without the key shows the 401 explained; with the key it returns the live config', async () => {
    const page = await playground('nodeAdmin_getConfig', node.adminUrl);
    assert.equal(await page.isVisible('#pg-key'), true);
    await page.click('#pg-send');
    await page.locator('#pg-explain .explain').waitFor();
    assert.match((await page.textContent('#pg-status'))!, /^HTTP 401/);
    assert.match((await page.textContent('#pg-explain'))!, /401 Unauthorized: missing API key/);
    await page.screenshot({ path: `${SHOTS}/playground-admin-401.png`, fullPage: true });

    await page.fill('#pg-key', 'not-the-key');
    await page.click('#pg-send');
    await page.locator('#pg-explain :text("wrong API key")').waitFor();

    await page.fill('#pg-key', apiKey);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('l2node.adminApiKey')), apiKey);
    assert.equal(await page.evaluate(() => localStorage.getItem('l2node.adminApiKey')), null);
    await page.click('#pg-send');
    await page.locator('#pg-status:text-matches("HTTP 200")').waitFor();
    assert.doesNotMatch((await page.textContent('#pg-explain'))!, /401|Unauthorized/);
    assert.match((await page.textContent('#pg-explain'))!, /matches the documented result schema \(NodeAdminConfig\)/);
    assert.match((await page.textContent('#pg-body'))!, /"archiverPollingIntervalMS"/);
    await page.screenshot({ path: `${SHOTS}/playground-admin-key.png`, fullPage: true });
    await close(page);
  });

  it('a development method (openrpc.dev.json) is called on the admin port with the key', async () => {
    const page = await playground('dev_getL1Info', node.adminUrl);
    assert.equal(await page.isChecked('input[name="surface"][value="dev"]'), true);
    assert.equal(await page.isVisible('#pg-key'), true, 'dev_* methods live behind the admin key');
    await page.fill('#pg-key', apiKey);
    await page.click('#pg-send');
    await page.locator('#pg-status:text-matches("HTTP 200")').waitFor();
    assert.match((await page.textContent('#pg-explain'))!, /matches the documented result schema/);
    assert.match((await page.textContent('#pg-curl'))!, /x-api-key: \$ADMIN_API_KEY[\s\S]*"method":"dev_getL1Info"/);
    await close(page);
  });

  it('invalid params are flagged before sending, and nothing is sent', async () => {
    const page = await playground('nodeAdmin_rollbackTo', node.adminUrl);
    let posts = 0;
    page.on('request', (r) => {
      if (r.url().startsWith(node.adminUrl)) posts++;
    });
    const field = page.locator('#pg-params textarea').first();
    await field.fill('-1');
    assert.match((await page.locator('#pg-params .check').first().textContent())!, /targetBlockNumber must be >= 0/);
    assert.equal(await page.isDisabled('#pg-send'), true);
    assert.match((await page.textContent('#pg-invalid'))!, /Fix the highlighted parameters/);
    await page.screenshot({ path: `${SHOTS}/playground-invalid.png`, fullPage: true });
    await field.fill('latest');
    assert.match(
      (await page.locator('#pg-params .check').first().textContent())!,
      /not valid JSON: strings need quotes/,
    );
    await field.fill('12');
    assert.equal(await page.isDisabled('#pg-send'), false);
    assert.equal(posts, 0);
    await close(page);

    const blocks = await playground('node_getBlocks', node.publicUrl);
    await blocks.locator('#pg-params textarea').nth(1).fill('101');
    assert.match((await blocks.locator('#pg-params .check').nth(1).textContent())!, /limit must be <= 100/);
    assert.equal(await blocks.isDisabled('#pg-send'), true);
    await close(blocks);
  });

  it('from a docs origin the node does not allow, an admin call explains --admin-cors-origin (playground and Try it)', async () => {
    // The same site under another origin (localhost instead of 127.0.0.1): the node allows only the first.
    const otherOrigin = base.replace('127.0.0.1', 'localhost');
    const page = await (await context(1366)).newPage();
    await page.goto(`${otherOrigin}playground.html#nodeAdmin_getConfig`);
    await page.fill('#pg-url', node.adminUrl);
    await page.fill('#pg-key', apiKey);
    await page.click('#pg-send');
    await page.locator('#pg-explain .explain').waitFor();
    assert.equal(await page.textContent('#pg-status'), 'refused: origin not allowed');
    const explanation = (await page.textContent('#pg-explain'))!;
    assert.match(explanation, /refused calls from this page/);
    assert.ok(explanation.includes(`--admin-cors-origin ${new URL(otherOrigin).origin}`), explanation);
    await page.screenshot({ path: `${SHOTS}/playground-admin-origin-refused.png`, fullPage: true });
    await page.goto(`${otherOrigin}methods/nodeAdmin_getConfig.html`);
    await page.click('#try-it > summary');
    await page.click('#try-it button[type=submit]');
    await page.locator('#try-it .explain').waitFor();
    assert.equal(await page.textContent('#try-it .status'), 'refused: origin not allowed');
    await close(page);
  });

  it('says plainly when the node cannot be reached', async () => {
    const page = await playground('nodeAdmin_getConfig', `http://127.0.0.1:${await freePort()}`);
    await page.click('#pg-send');
    await page.locator('#pg-explain :text("Cannot reach the node")').waitFor();
    assert.equal(await page.textContent('#pg-status'), 'unreachable');
    await close(page);
  });

  it("a missing page gets the site's 404 page", async () => {
    const res = await fetch(`${base}methods/node_noSuchMethod.html`);
    assert.equal(res.status, 404);
    assert.match(await res.text(), /<h1>Page not found<\/h1>/);
    const page = await open('methods/node_noSuchMethod.html', 390);
    assert.equal(await page.locator('main h1').textContent(), 'Page not found');
    await page.click('.menu-toggle');
    assert.equal(await page.locator('nav.side').getByRole('link', { name: 'Errors', exact: true }).isVisible(), true);
    await close(page);
    // what the tests cause on purpose logs: a refused key (401), an unreachable node and this 404 as
    // "Failed to load resource", the refused origin as a CORS block; nothing else may
    assert.deepEqual(
      consoleErrors.filter((e) => !/Failed to load resource|blocked by CORS policy/.test(e)),
      [],
    );
  });
});
