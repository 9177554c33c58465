/**
 * `npm run docs:build`: renders the docs site from openrpc.public.json, openrpc.admin.json and openrpc.dev.json
 * (plus the guides and docs/*.md) into docs-site/dist. Options let the tests build elsewhere.
 * @module
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOCUMENTS, GUIDES } from './lib/html.ts';
import { buildModel, readDocument } from './lib/model.ts';
import type { SiteModel } from './lib/model.ts';
import { renderMethodPage } from './lib/render-method.ts';
import {
  renderErrorsPage,
  renderGuidePage,
  renderIndexPage,
  renderNotFoundPage,
  renderTypePage,
  renderTypesIndex,
} from './lib/render-pages.ts';
import { renderPlaygroundPage } from './lib/render-playground.ts';
import { asScript, buildPlaygroundData, buildSearchIndex } from './lib/site-data.ts';
import type { RenderedGuide } from './lib/site-data.ts';

const SITE_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_DIR = resolve(SITE_DIR, '..');

/** Where to read from and write to; every path defaults to this repository. */
export interface BuildOptions {
  repoDir?: string;
  outDir?: string;
  publicDoc?: string;
  adminDoc?: string;
  devDoc?: string;
}

/** Guides that render another engineer's document from docs/, read at build time. */
const INCLUDED_DOCS: Record<string, string> = {
  compatibility: 'docs/COMPATIBILITY.md',
  operations: 'docs/OPERATIONS.md',
};

/** Builds the site; returns the model it rendered (the tests inspect it). */
export function buildSite(o: BuildOptions = {}): SiteModel {
  const repo = o.repoDir ?? REPO_DIR;
  const out = o.outDir ?? join(SITE_DIR, 'dist');
  const warnings: string[] = [];
  const paths = {
    public: o.publicDoc ?? join(repo, 'openrpc.public.json'),
    admin: o.adminDoc ?? join(repo, 'openrpc.admin.json'),
    dev: o.devDoc ?? join(repo, 'openrpc.dev.json'),
  };
  const site = buildModel(
    {
      public: readDocument(paths.public, warnings),
      admin: readDocument(paths.admin, warnings),
      dev: readDocument(paths.dev, warnings),
    },
    warnings,
  );

  rmSync(out, { recursive: true, force: true });
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(out, rel)), { recursive: true });
    writeFileSync(join(out, rel), text);
  };
  write('index.html', renderIndexPage(site));
  write('errors.html', renderErrorsPage(site));
  write('types.html', renderTypesIndex(site));
  write('playground.html', renderPlaygroundPage(site));
  for (const m of site.methods) write(`methods/${m.name}.html`, renderMethodPage(site, m));
  // a wrapper component (a description around another type) is shown as the type it wraps, without a page
  for (const t of site.types.filter((x) => !x.aliasOf && !x.inline))
    write(`types/${t.slug}.html`, renderTypePage(site, t));
  const guides: RenderedGuide[] = [];
  for (const g of GUIDES) {
    const html = renderGuidePage(site, g.slug, g.title, guideSource(repo, g.slug, g.title));
    guides.push({
      slug: g.slug,
      title: g.title,
      html: html.slice(html.indexOf('<article'), html.indexOf('</article>')),
    });
    write(`guides/${g.slug}.html`, html);
  }
  write('404.html', renderNotFoundPage(site));
  write('data/search-index.js', asScript('L2NODE_SEARCH', buildSearchIndex(site, guides)));
  // The documents themselves, downloadable as they are in the repository.
  for (const d of DOCUMENTS) {
    const from = paths[d.file.replace(/^openrpc\.|\.json$/g, '') as keyof typeof paths];
    if (existsSync(from)) copyFileSync(from, join(out, d.file));
    else write(d.file, '{}\n');
  }
  write('data/playground-data.js', asScript('L2NODE_PLAYGROUND', buildPlaygroundData(site)));
  mkdirSync(join(out, 'assets'), { recursive: true });
  for (const f of readdirSync(join(SITE_DIR, 'assets')).filter((n) => /\.(js|css)$/.test(n)))
    copyFileSync(join(SITE_DIR, 'assets', f), join(out, 'assets', f));
  // The search library, as the browser imports it (its source-map comment dropped: the map is not shipped).
  const minisearch = readFileSync(join(REPO_DIR, 'node_modules/minisearch/dist/es/index.js'), 'utf8').replace(
    /\n\/\/# sourceMappingURL=.*\s*$/,
    '\n',
  );
  write('assets/vendor/minisearch.js', minisearch);
  return site;
}

/** The Markdown of a guide: docs-site/guides/<slug>.md, or the included docs/ file. */
function guideSource(repo: string, slug: string, title: string): string {
  const included = INCLUDED_DOCS[slug];
  if (included) {
    const path = join(repo, included);
    // The page must exist even before the other engineer's document lands.
    return existsSync(path)
      ? readFileSync(path, 'utf8')
      : `# ${title}\n\n\`${included}\` is not written yet; this page shows it once it is.\n`;
  }
  return readFileSync(join(SITE_DIR, 'guides', `${slug}.md`), 'utf8');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outArg = process.argv.indexOf('--out');
  const site = buildSite(outArg > 0 ? { outDir: resolve(process.argv[outArg + 1]!) } : {});
  for (const w of site.warnings) console.warn(`warning: ${w}`);
  console.log(
    `docs-site: ${site.methods.length} methods, ${site.types.length} types, ${site.errors.length} errors → ${outArg > 0 ? process.argv[outArg + 1] : 'docs-site/dist'}`,
  );
}
