/**
 * The docs site in a real browser: Debian's Chromium (headless, through playwright-core) loads the
 * built site, searches, reads a method page, and drives the playground against a live l2node
 * process (bin/l2node.js) whose admin key is read from its stdout. Screenshots of the key pages go
 * to test-results/docs-site/.
 * @module
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { buildSite } from '../../docs-site/build.ts';
import type { SiteModel } from '../../docs-site/lib/model.ts';
import { startStaticServer } from '../../docs-site/serve.ts';

const SHOTS = 'test-results/docs-site';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** A free TCP port on 127.0.0.1 (the node takes explicit ports, as the brief's command line does). */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

/** The live node: the real CLI on free ports, and the admin key it prints once on stdout. */
interface LiveNode { process: ChildProcess; publicUrl: string; adminUrl: string; apiKey: string; dataDir: string }

/**
 * Starts the node on two ports found free a moment before. Another process (test files run in
 * parallel) can bind one of them in between: then the node exits with EADDRINUSE and is started
 * again on new ones (a collision of the test's port choice, not the node's behaviour under test).
 */
async function startNode(docsOrigin: string): Promise<LiveNode> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startNodeOnce(docsOrigin);
    } catch (err) {
      if (attempt >= 3 || !/EADDRINUSE/.test(String(err))) throw err;
    }
  }
}

/** The documented way to use the playground for admin calls: the docs site's origin in --admin-cors-origin. */
async function startNodeOnce(docsOrigin: string): Promise<LiveNode> {
  const dataDir = mkdtempSync(join(tmpdir(), 'docs-site-node-'));
  const [port, adminPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['bin/l2node.js', '--data-directory', dataDir, '--port', String(port), '--admin-port', String(adminPort), '--admin-cors-origin', docsOrigin], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (b) => { out += b; });
  child.stderr!.on('data', (b) => { err += b; });
  const closed = new Promise<void>((r) => child.once('close', () => r()));
  const deadline = Date.now() + 30_000;
  // Ready when the key banner is out and both servers log that they listen.
  while (!(/x-api-key: ([0-9a-f]{16,})/.test(out) && (err.match(/JSON-RPC listening/g) ?? []).length >= 2)) {
    if (child.exitCode !== null) {
      await closed; // all of its stderr read
      throw new Error(`l2node exited ${child.exitCode}:\n${err.slice(-2000)}`);
    }
    if (Date.now() > deadline) throw new Error(`l2node did not start:\n${out}\n${err.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const apiKey = /x-api-key: ([0-9a-f]{16,})/.exec(out)![1]!;
  return { process: child, publicUrl: `http://127.0.0.1:${port}`, adminUrl: `http://127.0.0.1:${adminPort}`, apiKey, dataDir };
}

describe('docs site in Chromium', () => {
  let site: SiteModel;
  let outDir: string;
  let server: Server;
  let base: string;
  let node: LiveNode;
  let browser: Browser;
  const consoleErrors: string[] = [];

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    outDir = mkdtempSync(join(tmpdir(), 'docs-site-e2e-'));
    site = buildSite({ outDir });
    server = await startStaticServer(outDir, 0);
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    node = await startNode(new URL(base).origin);
    // A missing /usr/bin/chromium fails here, loudly: scripts/ensure-system-packages.sh installs it.
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    node?.process.kill('SIGTERM');
    server?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
    if (node) rmSync(node.dataDir, { recursive: true, force: true });
  });

  async function open(path: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(`${path}: ${m.text()}`); });
    page.on('pageerror', (e) => consoleErrors.push(`${path}: ${e.message}`));
    await page.goto(base + path);
    return page;
  }

  /** Opens the playground on `method`, pointed at `url`. */
  async function playground(method: string, url: string, shot?: string): Promise<Page> {
    const page = await open(`playground.html#${method}`);
    await page.fill('#pg-url', url);
    assert.equal(await page.inputValue('#pg-method'), method);
    if (shot) await page.screenshot({ path: `${SHOTS}/${shot}`, fullPage: true });
    return page;
  }

  it('loads every kind of page without console errors', async () => {
    const method = site.methods.find((m) => m.examples.length > 0 && m.params.length > 0) ?? site.methods[0]!;
    const pages: [string, string][] = [
      ['index.html', 'index.png'], ['errors.html', 'errors.png'], ['types.html', 'types.png'],
      [`methods/${method.name}.html`, 'method.png'], [`types/${site.types[0]!.slug}.html`, 'type.png'],
      ['guides/quick-start.html', 'guide-quick-start.png'], ['guides/admin-api-key.html', 'guide-admin-api-key.png'],
      ['guides/migrating-v3-to-v4.html', 'guide-migrating.png'], ['guides/compatibility.html', 'guide-compatibility.png'],
      ['guides/operations.html', 'guide-operations.png'], ['guides/conformance.html', 'guide-conformance.png'],
      ['playground.html', 'playground.png'],
    ];
    for (const [path, shot] of pages) {
      const page = await open(path);
      await page.waitForLoadState('load');
      assert.ok((await page.locator('main h1').first().textContent())?.trim(), `${path} has a title`);
      await page.screenshot({ path: `${SHOTS}/${shot}`, fullPage: true });
      await page.close();
    }
    assert.deepEqual(consoleErrors, []);
  });

  it('search finds a method and opens its page', async () => {
    const target = site.methods.find((m) => m.name === 'node_getBlock') ?? site.methods[0]!;
    const page = await open('index.html');
    await page.fill('#search', target.handler);
    const first = page.locator('#search-results a').first();
    await first.waitFor();
    await page.screenshot({ path: `${SHOTS}/search.png` });
    assert.equal(await first.locator('.t').textContent(), target.name);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/methods/${target.name}.html`);
    assert.match((await page.locator('h1').textContent())!, new RegExp(target.name));
    await page.fill('#search', 'UNAUTHORIZED');
    assert.equal(await page.locator('#search-results a .t').first().textContent(), 'UNAUTHORIZED');
    await page.close();
  });

  it('a method page shows parameter and result schemas, errors and examples', async () => {
    const m = site.methods.find((x) => x.examples.length > 0 && x.params.length > 0 && x.result)!;
    const page = await open(`methods/${m.name}.html`);
    assert.equal(await page.locator('#parameters table.params tbody tr').count(), m.params.length);
    assert.ok(await page.locator('#result .schema-line').first().isVisible());
    assert.ok(await page.locator('#errors table.errors tbody tr').count() >= 1);
    const example = page.locator('#examples .example').first();
    assert.match((await example.textContent())!, new RegExp(`"method": "${m.name}"`));
    assert.match((await example.textContent())!, /curl -s -X POST/);
    assert.match((await example.textContent())!, new RegExp(`\\.${m.handler}\\(`));
    await page.screenshot({ path: `${SHOTS}/method-${m.name}.png`, fullPage: true });
    await page.close();
  });

  it('the playground calls the live node for a public method and shows the checked result', async () => {
    const page = await playground('node_getNodeVersion', node.publicUrl);
    assert.equal(await page.isVisible('#pg-key'), false, 'the API key field belongs to the admin endpoint only');
    await page.click('#pg-send');
    await page.locator('#pg-explain .explain').waitFor();
    assert.match((await page.textContent('#pg-status'))!, /^HTTP 200/);
    assert.match((await page.textContent('#pg-explain'))!, /matches the result schema/);
    assert.match((await page.textContent('#pg-body'))!, /"result"/);
    assert.match((await page.textContent('#pg-curl'))!, new RegExp(`^curl -s -X POST ${node.publicUrl} [^]*"method":"node_getNodeVersion"`));
    await page.screenshot({ path: `${SHOTS}/playground-public.png`, fullPage: true });
    await page.close();
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

    await page.fill('#pg-key', node.apiKey);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('l2node.adminApiKey')), node.apiKey);
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    await page.click('#pg-send');
    await page.locator('#pg-status:text-matches("HTTP 200")').waitFor();
    assert.doesNotMatch((await page.textContent('#pg-explain'))!, /401|Unauthorized/);
    // nodeAdmin_getConfig is served by the node: a real config that the page checks against the result schema.
    assert.match((await page.textContent('#pg-explain'))!, /matches the result schema/);
    assert.match((await page.textContent('#pg-body'))!, /"archiverPollingIntervalMS"/);
    await page.screenshot({ path: `${SHOTS}/playground-admin-key.png`, fullPage: true });
    await page.close();
  });

  it('a development method (openrpc.dev.json) is called on the admin port with the key', async () => {
    const page = await playground('dev_getL1Info', node.adminUrl);
    assert.equal(await page.isChecked('input[name="surface"][value="dev"]'), true);
    assert.equal(await page.isVisible('#pg-key'), true, 'dev_* methods live behind the admin key');
    await page.fill('#pg-key', node.apiKey);
    await page.click('#pg-send');
    await page.locator('#pg-status:text-matches("HTTP 200")').waitFor();
    assert.match((await page.textContent('#pg-explain'))!, /matches the result schema/);
    assert.match((await page.textContent('#pg-curl'))!, /x-api-key: \$ADMIN_API_KEY[^]*"method":"dev_getL1Info"/);
    await page.close();
  });

  it('invalid params are flagged before sending, and nothing is sent', async () => {
    const page = await playground('nodeAdmin_rollbackTo', node.adminUrl);
    let posts = 0;
    page.on('request', (r) => { if (r.url().startsWith(node.adminUrl)) posts++; });
    const field = page.locator('#pg-params textarea').first();
    await field.fill('-1');
    assert.match((await page.locator('#pg-params .check').first().textContent())!, /targetBlockNumber must be >= 0/);
    assert.equal(await page.isDisabled('#pg-send'), true);
    assert.match((await page.textContent('#pg-invalid'))!, /Fix the highlighted parameters/);
    await page.screenshot({ path: `${SHOTS}/playground-invalid.png`, fullPage: true });
    await field.fill('latest');
    assert.match((await page.locator('#pg-params .check').first().textContent())!, /not valid JSON: strings need quotes/);
    await field.fill('12');
    assert.equal(await page.isDisabled('#pg-send'), false);
    assert.equal(posts, 0);
    await page.close();

    const blocks = await playground('node_getBlocks', node.publicUrl);
    await blocks.locator('#pg-params textarea').nth(1).fill('101');
    assert.match((await blocks.locator('#pg-params .check').nth(1).textContent())!, /limit must be <= 100/);
    assert.equal(await blocks.isDisabled('#pg-send'), true);
    await blocks.screenshot({ path: `${SHOTS}/playground-invalid-limit.png`, fullPage: true });
    await blocks.close();
  });

  it('from a docs origin the node does not allow, an admin call explains --admin-cors-origin', async () => {
    // The same site under another origin (localhost instead of 127.0.0.1): the node allows only the first.
    const page = await browser.newPage();
    const otherOrigin = base.replace('127.0.0.1', 'localhost');
    await page.goto(`${otherOrigin}playground.html#nodeAdmin_getConfig`);
    await page.fill('#pg-url', node.adminUrl);
    await page.fill('#pg-key', node.apiKey);
    await page.click('#pg-send');
    await page.locator('#pg-explain .explain').waitFor();
    assert.equal(await page.textContent('#pg-status'), 'refused: origin not allowed');
    const explanation = (await page.textContent('#pg-explain'))!;
    assert.match(explanation, /refused calls from this page/);
    assert.ok(explanation.includes(`--admin-cors-origin ${new URL(otherOrigin).origin}`), explanation);
    await page.screenshot({ path: `${SHOTS}/playground-admin-origin-refused.png`, fullPage: true });
    await page.close();
  });

  it('says plainly when the node cannot be reached', async () => {
    const page = await playground('nodeAdmin_getConfig', `http://127.0.0.1:${await freePort()}`);
    await page.click('#pg-send');
    await page.locator('#pg-explain :text("Cannot reach the node")').waitFor();
    assert.equal(await page.textContent('#pg-status'), 'unreachable');
    await page.screenshot({ path: `${SHOTS}/playground-unreachable.png` });
    await page.close();
  });
});
