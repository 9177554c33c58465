/**
 * The catalogue pages: home (methods by domain), one page per type, the type index,
 * the error catalogue, and guide pages around rendered Markdown.
 * @module
 */
import {
  codeBlock,
  DOCUMENTS,
  esc,
  groupByTag,
  heading,
  json,
  layout,
  methodHref,
  scrollTable,
  tagTitle,
  typeHref,
} from './html.ts';
import { renderInline, renderMarkdown } from './markdown.ts';
import type { SiteModel, TypeModel } from './model.ts';
import { collectRefs, STANDARD_ERRORS, SURFACES, typeFor } from './model.ts';
import { methodBadges } from './render-method.ts';
import { withoutUnpublishedCitations } from './citations.ts';
import { rawSchema, schemaDetail, schemaSummary } from './render-schema.ts';

/** Renders index.html: what the API is, then every method grouped by domain. */
export function renderIndexPage(site: SiteModel): string {
  const groups = groupByTag(site.methods)
    .map(
      ([tag, ms]) =>
        `<section class="domain">${heading(2, tag, esc(tagTitle(tag)))}${scrollTable(
          `<table class="method-list"><tbody>${ms
            .map(
              (m) =>
                `<tr><td><a href="${methodHref(m.name)}"><code>${esc(m.name)}</code></a> ${methodBadges(m)}</td><td>${renderInline(m.summary)}</td></tr>`,
            )
            .join('')}</tbody></table>`,
          tagTitle(tag),
        )}</section>`,
    )
    .join('\n');
  const warn = site.warnings.length
    ? `<div class="notice dep"><strong>Built from incomplete documents.</strong><ul>${site.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></div>`
    : '';
  const body = `<h1>l2node JSON-RPC API</h1>
<p class="lead">Every page here is generated from <code>openrpc.public.json</code> (the <code>node_*</code> methods, port 8080), <code>openrpc.admin.json</code> (the <code>nodeAdmin_*</code> methods, port 8880, API key) and <code>openrpc.dev.json</code> (the development-only <code>dev_*</code> methods, also on the admin port), so it always matches the node.</p>
${warn}
<p><a class="button" href="guides/quick-start.html">Quick start</a> <a class="button secondary" href="playground.html">Open the playground</a></p>
<p>Download the documents: ${DOCUMENTS.map((d) => `<a href="${d.file}" download>${d.file}</a> (${d.title})`).join(', ')}.</p>
<p class="muted">${site.methods.filter((m) => m.surface === 'public').length} public methods · ${site.methods.filter((m) => m.surface === 'admin').length} admin methods · ${site.methods.filter((m) => m.surface === 'dev').length} development methods · ${site.types.length} types · ${site.errors.length} errors</p>
${about(site)}
${groups}`;
  return layout(site, { title: 'Overview', root: '', current: 'index.html', body });
}

/** Each document's own introduction (`info.description`), folded under the overview. */
function about(site: SiteModel): string {
  return SURFACES.filter((s) => site.docs[s].info?.description)
    .map(
      (s) =>
        `<details class="about"><summary>About the ${s} API: ${esc(site.docs[s].info.title ?? '')}</summary>${renderMarkdown(site.docs[s].info.description)}</details>`,
    )
    .join('\n');
}

/** Renders types/<slug>.html: the schema, what it refers to, and what uses it. */
export function renderTypePage(site: SiteModel, t: TypeModel): string {
  const ctx = { root: '../', surface: t.surface, types: site.types, idPrefix: 'field-', ids: new Set<string>() };
  const refs = [...new Set([...collectRefs(t.schema, new Set())].map((n) => typeFor(site.types, t.surface, n)))].filter(
    (x): x is TypeModel => !!x && x !== t && !x.inline,
  );
  const referrers = site.types.filter(
    (o) =>
      o !== t &&
      !o.aliasOf &&
      [...collectRefs(o.schema, new Set())].some((n) => typeFor(site.types, o.surface, n) === t),
  );
  const link = (o: TypeModel) => `<a href="../${typeHref(o.slug)}">${esc(o.name)}</a>`;
  const variants = site.types.filter((o) => o !== t && !o.aliasOf && o.name === t.name);
  const body = [
    `<p class="crumbs"><a href="../types.html">Types</a> · ${t.surface === 'public' ? 'public' : `${t.surface} (${t.surface === 'dev' ? 'development' : 'admin'})`} document</p>`,
    `<h1>${esc(t.name)}</h1>`,
    typeof t.schema === 'object' && t.schema.description
      ? `<p class="lead">${renderInline(t.schema.description)}</p>`
      : '',
    schemaDetail(typeof t.schema === 'object' ? { ...t.schema, description: undefined } : t.schema, ctx),
    variants.length
      ? `<p class="notice ext">The ${variants.map((v) => `<a href="../${typeHref(v.slug)}">${esc(v.surface)} document's ${esc(v.name)}</a>`).join(' and ')} differs from this one.</p>`
      : '',
    typeof t.schema === 'object' && t.schema.examples
      ? `${heading(2, 'examples', 'Examples')}${t.schema.examples.map((e: unknown, i: number) => `<div id="example-${i + 1}">${codeBlock(json(e), 'json', { value: e })}</div>`).join('')}`
      : '',
    refs.length ? `${heading(2, 'refers-to', 'Refers to')}<p>${refs.map(link).join(', ')}</p>` : '',
    referrers.length ? `${heading(2, 'used-by-types', 'Used by types')}<p>${referrers.map(link).join(', ')}</p>` : '',
    t.usedBy.length
      ? `${heading(2, 'used-by-methods', 'Used by methods')}<ul class="cols">${t.usedBy.map((m) => `<li><a href="../${methodHref(m)}">${esc(m)}</a></li>`).join('')}</ul>`
      : '',
    rawSchema(t.schema),
  ].join('\n');
  return layout(site, { title: t.name, root: '../', current: typeHref(t.slug), body });
}

/** Renders types.html: every type with its one-line summary. */
export function renderTypesIndex(site: SiteModel): string {
  // One row per name: a schema the admin or dev document defines differently is linked from its row.
  const first = site.types
    .filter((t) => !t.aliasOf && !t.inline)
    .sort((a, b) => a.name.localeCompare(b.name))
    .filter((t, i, all) => all.findIndex((o) => o.name === t.name) === i);
  const rows = first
    .map((t) => {
      const ctx = { root: '', surface: t.surface, types: site.types };
      const s = typeof t.schema === 'object' ? { ...t.schema, description: undefined } : t.schema;
      const variants = site.types
        .filter((o) => o !== t && !o.aliasOf && o.name === t.name)
        .map((o) => ` <a class="badge admin" href="${typeHref(o.slug)}">${o.surface} variant</a>`)
        .join('');
      return `<tr id="${esc(t.name)}"><td><a href="${typeHref(t.slug)}"><code>${esc(t.name)}</code></a>${t.surface === 'public' ? '' : ` <span class="badge admin">${t.surface}</span>`}${variants}</td><td>${schemaSummary(s, ctx)}</td><td>${renderInline(typeof t.schema === 'object' ? (t.schema.description ?? '') : '')}</td></tr>`;
    })
    .join('');
  const body = `<h1>Types</h1><p class="lead">The shared schemas of both documents (<code>components/schemas</code>).</p>
${scrollTable(`<table class="types"><thead><tr><th>Name</th><th>Shape</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`, 'Types')}`;
  return layout(site, { title: 'Types', root: '', current: 'types.html', body });
}

/** Renders errors.html: the catalogue with code, name, message, data schema and the methods returning each. */
export function renderErrorsPage(site: SiteModel): string {
  const declared = new Set(site.errors.map((e) => e.key));
  const standard = Object.entries(STANDARD_ERRORS)
    .filter(([k]) => !declared.has(k))
    .map(([key, e]) => ({ key, ...e, dataSchema: null, surface: 'public' as const, methods: [] as string[] }));
  const rows = [...site.errors, ...standard]
    .sort((a, b) => b.code - a.code)
    .map((e) => {
      const ctx = { root: '', surface: e.surface, types: site.types };
      const links = e.methods.map((m) => `<a href="${methodHref(m)}">${esc(m)}</a>`).join(', ');
      const methods =
        e.methods.length === 0
          ? ''
          : e.methods.length > 8
            ? `<details class="returned"><summary>Returned by ${e.methods.length} methods</summary>${links}</details>`
            : `<p class="returned">Returned by ${links}</p>`;
      return `<tr id="${esc(e.key)}"><td><code>${e.code}</code></td><td><strong>${esc(e.key)}</strong><a class="anchor" href="#${esc(e.key)}" aria-label="Link to ${esc(e.key)}">#</a><br><span class="muted">${esc(e.message)}</span></td><td>${renderInline(e.description)}${methods}</td><td>${e.dataSchema ? schemaSummary(e.dataSchema, ctx) : '<span class="muted">none</span>'}</td></tr>`;
    })
    .join('');
  const body = `<h1>Errors</h1>
<p class="lead">One catalogue for both APIs, in reserved code ranges. Every JSON-RPC error has <code>code</code> and <code>message</code>; <code>data</code> follows the schema listed here.</p>
<p>A request to the admin port without a valid API key gets <strong>HTTP 401</strong> with error <code>-32000</code> (see <a href="guides/admin-api-key.html">the admin API key</a>).</p>
${scrollTable(`<table class="catalogue"><thead><tr><th>Code</th><th>Name</th><th>Meaning</th><th>data</th></tr></thead><tbody>${rows}</tbody></table>`, 'Error catalogue')}`;
  return layout(site, { title: 'Errors', root: '', current: 'errors.html', body });
}

/** Renders guides/<slug>.html from Markdown. */
export function renderGuidePage(site: SiteModel, slug: string, title: string, markdown: string): string {
  const rewriteLink = (href: string): string | null => {
    if (/^(https?:|mailto:|#)/.test(href)) return href;
    const doc = /(?:^|\/)(OPERATIONS|COMPATIBILITY|ARCHITECTURE|PERFORMANCE)\.md(#.*)?$/i.exec(href);
    if (doc)
      return (
        ({ OPERATIONS: 'operations.html', COMPATIBILITY: 'compatibility.html' } as Record<string, string>)[
          doc[1]!.toUpperCase()
        ] ?? null
      );
    if (/^\.\.\/(methods|types)\/|^[\w-]+\.html|^\.\.\/[\w-]+\.html/.test(href)) return href;
    return null; // repository files have no page on this site
  };
  const headings: { level: number; id: string; html: string }[] = [];
  const html = renderMarkdown(withoutUnpublishedCitations(markdown), {
    rewriteLink,
    headings,
    ids: new Set(['main', 'side', 'settings', 'search', 'search-results', 'toc']),
  });
  const body = `<article class="guide">${withToc(html, headings)}</article>`;
  return layout(site, { title, root: '../', current: `guides/${slug}.html`, body });
}

/** A guide with at least this many sections gets a table of contents under its title. */
const TOC_MIN_SECTIONS = 4;

/** Inserts a table of contents (level-2 and level-3 headings) after the guide's title. */
function withToc(html: string, headings: { level: number; id: string; html: string }[]): string {
  const sections = headings.filter((h) => h.level === 2 || h.level === 3);
  if (headings.filter((h) => h.level === 2).length < TOC_MIN_SECTIONS) return html;
  const items: string[] = [];
  let open = false;
  for (const h of sections) {
    const link = `<a href="#${h.id}">${h.html.replace(/<a [^>]*>|<\/a>/g, '')}</a>`;
    if (h.level === 2) {
      items.push(`${open ? '</ol></li>' : items.length ? '</li>' : ''}<li>${link}`);
      open = false;
    } else {
      items.push(`${open ? '' : '<ol>'}<li>${link}</li>`);
      open = true;
    }
  }
  items.push(open ? '</ol></li>' : '</li>');
  const toc = `<nav class="toc" id="toc" aria-label="On this page"><h2>On this page</h2><ol>${items.join('')}</ol></nav>`;
  const afterTitle = html.indexOf('</h1>');
  return afterTitle < 0 ? toc + html : html.slice(0, afterTitle + 5) + toc + html.slice(afterTitle + 5);
}

/** Renders 404.html: what the static server answers for a page that does not exist. */
export function renderNotFoundPage(site: SiteModel): string {
  const body = `<h1>Page not found</h1>
<p class="lead">There is no page at this address. It may have been renamed when the documents changed.</p>
<p>Try the search box above (press <kbd>/</kbd>), or start from <a href="/index.html">the overview</a>, <a href="/errors.html">the error catalogue</a>, <a href="/types.html">the types</a> or <a href="/playground.html">the playground</a>.</p>`;
  return layout(site, { title: 'Page not found', root: '/', body });
}
