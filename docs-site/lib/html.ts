/**
 * HTML helpers and the page shell (header, search box, domain navigation) every page shares.
 * Links are relative (`root` is '' or '../') so the site works from any static host path.
 * @module
 */
import type { MethodModel, SiteModel } from './model.ts';
import { TAG_ORDER } from './model.ts';
import { esc } from './esc.ts';
import { highlight } from './highlight.ts';

export { esc };

/** Code longer than this many lines or characters starts collapsed, with a button to expand it. */
const COLLAPSE_LINES = 40;
const COLLAPSE_CHARS = 4_000;
/** Strings longer than this are elided in a collapsed JSON preview. */
const PREVIEW_STRING = 96;

/** Options of a code block: a label, and for JSON the value it shows (to preview it elided when large). */
export interface CodeBlockOptions {
  label?: string;
  value?: unknown;
  id?: string;
}

/**
 * A highlighted code block with a copy button (assets/site.js wires it). Large code starts
 * collapsed: a short preview is shown and the full text waits in a <template> for "Expand";
 * "Copy" always copies the full text.
 */
export function codeBlock(code: string, lang = '', label: string | CodeBlockOptions = ''): string {
  const o: CodeBlockOptions = typeof label === 'string' ? { label } : label;
  const head = o.label ? `<span class="code-label">${esc(o.label)}</span>` : '';
  const id = o.id ? ` id="${esc(o.id)}"` : '';
  const lines = code.split('\n').length;
  const large = lines > COLLAPSE_LINES || code.length > COLLAPSE_CHARS;
  const copy = `<button type="button" class="copy" aria-label="Copy ${esc(o.label || 'code')}">Copy</button>`;
  if (!large)
    return `<div class="code"${id}>${head}${copy}<pre tabindex="0"><code class="hljs lang-${esc(lang)}">${highlight(code, lang)}</code></pre></div>`;
  const preview = o.value !== undefined ? previewJson(o.value) : code.split('\n').slice(0, 12).join('\n') + '\n…';
  const size = code.length > 10_000 ? `${Math.round(code.length / 1024).toLocaleString('en')} kB` : `${lines} lines`;
  return (
    `<div class="code collapsed"${id}>${head}${copy}<pre tabindex="0"><code class="hljs lang-${esc(lang)}">${highlight(preview, lang)}</code></pre>` +
    `<template>${highlight(code, lang)}</template><button type="button" class="expand" aria-expanded="false">Expand (${esc(size)})</button></div>`
  );
}

/** JSON with long strings and long arrays elided, for the collapsed view of a large payload. */
export function previewJson(value: unknown): string {
  const elide = (v: unknown): unknown => {
    if (typeof v === 'string' && v.length > PREVIEW_STRING)
      return `${v.slice(0, 40)}…(${v.length.toLocaleString('en')} characters)…${v.slice(-16)}`;
    if (Array.isArray(v))
      return v.length > 8 ? [...v.slice(0, 4).map(elide), `…(${v.length - 4} more items)`] : v.map(elide);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, elide(x)]));
    return v;
  };
  return JSON.stringify(elide(value), null, 2) ?? 'undefined';
}

/** A table inside its own horizontal scroll box, so a wide table never widens the page. */
export function scrollTable(tableHtml: string, label = 'Table'): string {
  return `<div class="table-scroll" role="region" aria-label="${esc(label)}" tabindex="0">${tableHtml}</div>`;
}

/** A heading with an id and a visible link to itself. */
export function heading(level: number, id: string, html: string, extraClass = ''): string {
  const cls = extraClass ? ` class="${extraClass}"` : '';
  return `<h${level} id="${esc(id)}"${cls}>${html}<a class="anchor" href="#${esc(id)}" aria-label="Link to this section">#</a></h${level}>`;
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
  { slug: 'sending-a-transaction', title: 'Sending a transaction' },
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

/** The documents the site publishes for download (copied into the site root by the build). */
export const DOCUMENTS = [
  { file: 'openrpc.public.json', title: 'Public API' },
  { file: 'openrpc.admin.json', title: 'Admin API' },
  { file: 'openrpc.dev.json', title: 'Development API' },
];

/** The reference pages every screen size reaches from the menu. */
const REFERENCE = [
  { href: 'index.html', title: 'Overview' },
  { href: 'errors.html', title: 'Errors' },
  { href: 'types.html', title: 'Types' },
  { href: 'playground.html', title: 'Playground' },
];

/** Options of one page: its title, the path back to the root, and what to highlight. */
export interface PageOptions {
  title: string;
  root: string;
  current?: string;
  body: string;
  scripts?: string[];
  description?: string;
}

/** Wraps a page body in the shared shell. */
export function layout(site: SiteModel, o: PageOptions): string {
  const r = o.root;
  const cur = (href: string) => (href === o.current ? ' aria-current="page"' : '');
  const guides = GUIDES.map(
    (g) => `<li><a href="${r}guides/${g.slug}.html"${cur(`guides/${g.slug}.html`)}>${esc(g.title)}</a></li>`,
  ).join('');
  const reference = REFERENCE.map((x) => `<li><a href="${r}${x.href}"${cur(x.href)}>${x.title}</a></li>`).join('');
  const domains = groupByTag(site.methods)
    .map(([tag, ms]) => {
      const open = ms.some((m) => methodHref(m.name) === o.current) ? ' open' : '';
      const items = ms
        .map(
          (m) =>
            `<li><a href="${r}${methodHref(m.name)}" title="${esc(m.name)}"${cur(methodHref(m.name))}${m.deprecated ? ' class="deprecated"' : ''}>${esc(m.name)}</a></li>`,
        )
        .join('');
      return `<details${open}><summary>${esc(tagTitle(tag))} <span class="count">${ms.length}</span></summary><ul>${items}</ul></details>`;
    })
    .join('');
  const downloads = DOCUMENTS.map((d) => `<a href="${r}${d.file}" download>${d.file}</a>`).join(' · ');
  const scripts = ['assets/site.js', ...(o.scripts ?? [])]
    .map((s) => `<script type="module" src="${r}${s}"></script>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${esc(o.title)} · l2node API</title>${o.description ? `<meta name="description" content="${esc(o.description)}">` : ''}
<link rel="icon" href="data:,"><link rel="stylesheet" href="${r}assets/style.css">${scripts}</head>
<body data-root="${r}">
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<button type="button" class="menu-toggle" aria-controls="side" aria-expanded="false" aria-label="Menu"><span aria-hidden="true">☰</span> Menu</button>
<a class="brand" href="${r}index.html">l2node <span>API ${esc(site.version ? `v${site.version}` : '')}</span></a>
<nav class="top-links" aria-label="Reference"><a href="${r}guides/quick-start.html">Guides</a><a href="${r}errors.html"${cur('errors.html')}>Errors</a><a href="${r}types.html"${cur('types.html')}>Types</a><a href="${r}playground.html"${cur('playground.html')}>Playground</a></nav>
<div class="search" role="search"><input id="search" type="search" role="combobox" placeholder="Search  ( / )" autocomplete="off" aria-label="Search the API: methods, fields, errors, guides" aria-controls="search-results" aria-autocomplete="list" aria-expanded="false"><ul id="search-results" role="listbox" aria-label="Search results" hidden></ul></div>
<button type="button" class="settings-toggle" aria-controls="settings" aria-expanded="false" title="Node URL and API key for every snippet, Try it and the playground"><span aria-hidden="true">⚙</span> <span class="label">Node</span></button>
</header>
<section id="settings" class="settings-panel" aria-label="Node settings" hidden>
<p><strong>Your node.</strong> Every snippet, “Try it” panel and the playground use these. Kept in this browser only.</p>
<label>Public API URL <input id="set-public-url" type="url" spellcheck="false" placeholder="http://127.0.0.1:8080"></label>
<label>Admin API URL <input id="set-admin-url" type="url" spellcheck="false" placeholder="http://127.0.0.1:8880"></label>
<label>Admin API key <input id="set-api-key" type="password" spellcheck="false" autocomplete="off" placeholder="printed once by the node on first start"></label>
<label class="inline"><input id="set-remember-key" type="checkbox"> Remember the key on this device (otherwise only in this tab)</label>
<p class="hint">Without a key the snippets read <code>$ADMIN_API_KEY</code> from the environment. <button type="button" id="set-reset" class="link">Reset to defaults</button></p>
</section>
<div class="wrap"><nav class="side" id="side" aria-label="Sections"><h2>Reference</h2><ul>${reference}</ul><h2>Guides</h2><ul>${guides}</ul><h2>Methods</h2>${domains || '<p class="muted">No methods yet.</p>'}
<h2>Downloads</h2><ul>${DOCUMENTS.map((d) => `<li><a href="${r}${d.file}" download>${d.file}</a></li>`).join('')}</ul></nav>
<main id="main" tabindex="-1">${o.body}
<footer class="foot"><p>The OpenRPC documents: ${downloads}</p></footer></main></div></body></html>
`;
}
