/**
 * `npm run docs`: builds the site and serves docs-site/dist on a local port (default 8090,
 * `--port <n>` or DOCS_PORT). A plain static server answering a missing page with the site's 404.html;
 * the tests reuse `startStaticServer`.
 * @module
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSite } from './build.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves `dir` read-only on `port` (0 picks a free one); resolves once listening. */
export function startStaticServer(dir: string, port: number, host = '127.0.0.1'): Promise<Server> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) return void res.writeHead(403).end();
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      statSync(file);
    } catch {
      // the site's own "Page not found" page (links and search from the root), plain text only without one
      const notFound = join(root, '404.html');
      try {
        statSync(notFound);
      } catch {
        return void res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      }
      res.writeHead(404, { 'content-type': TYPES['.html'], 'cache-control': 'no-cache' });
      return void createReadStream(notFound).pipe(res);
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok(server));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = process.argv.indexOf('--port');
  const port = Number(arg > 0 ? process.argv[arg + 1] : (process.env.DOCS_PORT ?? 8090));
  const site = buildSite();
  for (const w of site.warnings) console.warn(`warning: ${w}`);
  const dist = join(fileURLToPath(new URL('.', import.meta.url)), 'dist');
  await startStaticServer(dist, port);
  console.log(`docs site: http://127.0.0.1:${port}/ (${site.methods.length} methods; Ctrl-C to stop)`);
}
