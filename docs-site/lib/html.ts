/**
 * HTML helpers and the page shell (header, search box, domain navigation) every page shares.
 * Links are relative (`root` is '' or '../') so the site works from any static host path.
 * @module
 */
import type { MethodModel, SiteModel } from './model.ts';
import { TAG_ORDER } from './model.ts';

/** Escapes text for HTML element content and attribute values. */
export function esc(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A code block with a copy button (assets/site.js wires the button). */
export function codeBlock(code: string, lang = '', label = ''): string {
  const head = label ? `<span class="code-label">${esc(label)}</span>` : '';
  return `<div class="code">${head}<button type="button" class="copy" aria-label="Copy ${esc(label || 'code')}">Copy</button><pre><code class="lang-${esc(lang)}">${esc(code)}</code></pre></div>`;
}

/** Pretty JSON, two spaces, as every example on the site is shown. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined';
}

/** The page of a method, relative to the site root. */
export function methodHref(name: string): string {
  return `methods/${encodeURIComponent(name)}.html`;
}

/** The page of a type, relative to the site root. */
export function typeHref(slug: string): string {
  return `types/${encodeURIComponent(slug)}.html`;
}

/** The human title of a domain tag: `node-info` → `Node info`. */
export function tagTitle(tag: string): string {
  if (tag === 'dev') return 'Development';
  const t = tag.replace(/-/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** The guides in reading order; the build renders each one to guides/<slug>.html. */
export const GUIDES = [
  { slug: 'quick-start', title: 'Quick start' },
  { slug: 'admin-api-key', title: 'The admin API key' },
  { slug: 'migrating-v3-to-v4', title: 'Migrating from v3 to v4' },
  { slug: 'compatibility', title: 'Compatibility with Aztec 4.1 clients' },
  { slug: 'operations', title: 'Operating the node' },
  { slug: 'conformance', title: 'Running the conformance suite' },
];

/** Groups methods by tag in the documented domain order (unknown tags last). */
export function groupByTag(methods: MethodModel[]): [string, MethodModel[]][] {
  const groups = new Map<string, MethodModel[]>();
  for (const m of methods) groups.set(m.tag, [...(groups.get(m.tag) ?? []), m]);
  const rank = (t: string) => (TAG_ORDER.includes(t) ? TAG_ORDER.indexOf(t) : TAG_ORDER.length);
  return [...groups.entries()].sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]));
}

/** Options of one page: its title, the path back to the root, and what to highlight. */
export interface PageOptions { title: string; root: string; current?: string; body: string; scripts?: string[] }

/** Wraps a page body in the shared shell. */
export function layout(site: SiteModel, o: PageOptions): string {
  const r = o.root;
  const cur = (href: string) => (href === o.current ? ' aria-current="page"' : '');
  const guides = GUIDES.map((g) => `<li><a href="${r}guides/${g.slug}.html"${cur(`guides/${g.slug}.html`)}>${esc(g.title)}</a></li>`).join('');
  const domains = groupByTag(site.methods).map(([tag, ms]) => {
    const open = ms.some((m) => methodHref(m.name) === o.current) ? ' open' : '';
    const items = ms.map((m) => `<li><a href="${r}${methodHref(m.name)}" title="${esc(m.name)}"${cur(methodHref(m.name))}${m.deprecated ? ' class="deprecated"' : ''}>${esc(m.name)}</a></li>`).join('');
    return `<details${open}><summary>${esc(tagTitle(tag))} <span class="count">${ms.length}</span></summary><ul>${items}</ul></details>`;
  }).join('');
  const scripts = ['assets/site.js', ...(o.scripts ?? [])].map((s) => `<script type="module" src="${r}${s}"></script>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)} · l2node API</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${r}assets/style.css">
<script src="${r}data/search-index.js" defer></script>${scripts}</head>
<body data-root="${r}">
<header class="top"><a class="brand" href="${r}index.html">l2node <span>API ${esc(site.version ? `v${site.version}` : '')}</span></a>
<nav class="top-links"><a href="${r}guides/quick-start.html">Guides</a><a href="${r}errors.html"${cur('errors.html')}>Errors</a><a href="${r}types.html"${cur('types.html')}>Types</a><a href="${r}playground.html"${cur('playground.html')}>Playground</a></nav>
<div class="search"><input id="search" type="search" placeholder="Search methods, types, errors…" autocomplete="off" aria-label="Search"><ul id="search-results" role="listbox" hidden></ul></div>
</header>
<div class="wrap"><nav class="side" aria-label="Sections"><h2>Guides</h2><ul>${guides}</ul><h2>Methods</h2>${domains || '<p class="muted">No methods yet.</p>'}</nav>
<main>${o.body}</main></div></body></html>
`;
}
