/**
 * The catalogue pages: home (methods by domain), one page per type, the type index,
 * the error catalogue, and guide pages around rendered Markdown.
 * @module
 */
import { esc, groupByTag, layout, methodHref, tagTitle, typeHref } from './html.ts';
import { renderInline, renderMarkdown } from './markdown.ts';
import type { SiteModel, TypeModel } from './model.ts';
import { collectRefs, STANDARD_ERRORS, SURFACES, typeFor } from './model.ts';
import { methodBadges } from './render-method.ts';
import { rawSchema, schemaDetail, schemaSummary } from './render-schema.ts';

/** Renders index.html: what the API is, then every method grouped by domain. */
export function renderIndexPage(site: SiteModel): string {
  const groups = groupByTag(site.methods).map(([tag, ms]) => `<section class="domain"><h2 id="${esc(tag)}">${esc(tagTitle(tag))}</h2><table class="method-list"><tbody>${ms.map((m) =>
    `<tr><td><a href="${methodHref(m.name)}"><code>${esc(m.name)}</code></a> ${methodBadges(m)}</td><td>${renderInline(m.summary)}</td></tr>`).join('')}</tbody></table></section>`).join('\n');
  const warn = site.warnings.length ? `<div class="notice dep"><strong>Built from incomplete documents.</strong><ul>${site.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul></div>` : '';
  const body = `<h1>l2node JSON-RPC API</h1>
<p class="lead">Every page here is generated from <code>openrpc.public.json</code> (the <code>node_*</code> methods, port 8080), <code>openrpc.admin.json</code> (the <code>nodeAdmin_*</code> methods, port 8880, API key) and <code>openrpc.dev.json</code> (the development-only <code>dev_*</code> methods, also on the admin port), so it always matches the node.</p>
${warn}
<p><a class="button" href="guides/quick-start.html">Quick start</a> <a class="button secondary" href="playground.html">Open the playground</a></p>
<p class="muted">${site.methods.filter((m) => m.surface === 'public').length} public methods · ${site.methods.filter((m) => m.surface === 'admin').length} admin methods · ${site.methods.filter((m) => m.surface === 'dev').length} development methods · ${site.types.length} types · ${site.errors.length} errors</p>
${about(site)}
${groups}`;
  return layout(site, { title: 'Overview', root: '', current: 'index.html', body });
}

/** Each document's own introduction (`info.description`), folded under the overview. */
function about(site: SiteModel): string {
  return SURFACES.filter((s) => site.docs[s].info?.description).map((s) =>
    `<details class="about"><summary>About the ${s} API: ${esc(site.docs[s].info.title ?? '')}</summary>${renderMarkdown(site.docs[s].info.description)}</details>`).join('\n');
}

/** Renders types/<slug>.html: the schema, what it refers to, and what uses it. */
export function renderTypePage(site: SiteModel, t: TypeModel): string {
  const ctx = { root: '../', surface: t.surface, types: site.types };
  const refs = [...collectRefs(t.schema, new Set())].map((n) => typeFor(site.types, t.surface, n)).filter((x): x is TypeModel => !!x && x !== t);
  const referrers = site.types.filter((o) => o !== t && collectRefs(o.schema, new Set()).has(t.name) && typeFor(site.types, o.surface, t.name) === t);
  const link = (o: TypeModel) => `<a href="../${typeHref(o.slug)}">${esc(o.name)}</a>`;
  const body = [
    `<p class="crumbs"><a href="../types.html">Types</a> · ${t.surface} document</p>`,
    `<h1>${esc(t.name)}</h1>`,
    typeof t.schema === 'object' && t.schema.description ? `<p class="lead">${renderInline(t.schema.description)}</p>` : '',
    schemaDetail(typeof t.schema === 'object' ? { ...t.schema, description: undefined } : t.schema, ctx),
    typeof t.schema === 'object' && t.schema.examples ? `<h2>Examples</h2>${t.schema.examples.map((e: unknown) => `<pre><code>${esc(JSON.stringify(e, null, 2))}</code></pre>`).join('')}` : '',
    refs.length ? `<h2>Refers to</h2><p>${refs.map(link).join(', ')}</p>` : '',
    referrers.length ? `<h2>Used by types</h2><p>${referrers.map(link).join(', ')}</p>` : '',
    t.usedBy.length ? `<h2>Used by methods</h2><ul class="cols">${t.usedBy.map((m) => `<li><a href="../${methodHref(m)}">${esc(m)}</a></li>`).join('')}</ul>` : '',
    rawSchema(t.schema),
  ].join('\n');
  return layout(site, { title: t.name, root: '../', current: typeHref(t.slug), body });
}

/** Renders types.html: every type with its one-line summary. */
export function renderTypesIndex(site: SiteModel): string {
  const rows = [...site.types].sort((a, b) => a.name.localeCompare(b.name)).map((t) => {
    const ctx = { root: '', surface: t.surface, types: site.types };
    const s = typeof t.schema === 'object' ? { ...t.schema, description: undefined } : t.schema;
    return `<tr><td><a href="${typeHref(t.slug)}"><code>${esc(t.name)}</code></a>${t.surface === 'public' ? '' : ` <span class="badge admin">${t.surface}</span>`}</td><td>${schemaSummary(s, ctx)}</td><td>${renderInline(typeof t.schema === 'object' ? t.schema.description ?? '' : '')}</td></tr>`;
  }).join('');
  const body = `<h1>Types</h1><p class="lead">The shared schemas of both documents (<code>components/schemas</code>).</p>
<table class="types"><thead><tr><th>Name</th><th>Shape</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`;
  return layout(site, { title: 'Types', root: '', current: 'types.html', body });
}

/** Renders errors.html: the catalogue with code, name, message, data schema and the methods returning each. */
export function renderErrorsPage(site: SiteModel): string {
  const declared = new Set(site.errors.map((e) => e.key));
  const standard = Object.entries(STANDARD_ERRORS).filter(([k]) => !declared.has(k)).map(([key, e]) => ({ key, ...e, dataSchema: null, surface: 'public' as const, methods: [] as string[] }));
  const rows = [...site.errors, ...standard].sort((a, b) => b.code - a.code).map((e) => {
    const ctx = { root: '', surface: e.surface, types: site.types };
    const links = e.methods.map((m) => `<a href="${methodHref(m)}">${esc(m)}</a>`).join(', ');
    const methods = e.methods.length === 0 ? '' : e.methods.length > 8
      ? `<details class="returned"><summary>Returned by ${e.methods.length} methods</summary>${links}</details>`
      : `<p class="returned">Returned by ${links}</p>`;
    return `<tr id="${esc(e.key)}"><td><code>${e.code}</code></td><td><strong>${esc(e.key)}</strong><br><span class="muted">${esc(e.message)}</span></td><td>${renderInline(e.description)}${methods}</td><td>${e.dataSchema ? schemaSummary(e.dataSchema, ctx) : '<span class="muted">none</span>'}</td></tr>`;
  }).join('');
  const body = `<h1>Errors</h1>
<p class="lead">One catalogue for both APIs, in reserved code ranges. Every JSON-RPC error has <code>code</code> and <code>message</code>; <code>data</code> follows the schema listed here.</p>
<p>A request to the admin port without a valid API key gets <strong>HTTP 401</strong> with error <code>-32000</code> (see <a href="guides/admin-api-key.html">the admin API key</a>).</p>
<table class="catalogue"><thead><tr><th>Code</th><th>Name</th><th>Meaning</th><th>data</th></tr></thead><tbody>${rows}</tbody></table>`;
  return layout(site, { title: 'Errors', root: '', current: 'errors.html', body });
}

/** Renders guides/<slug>.html from Markdown. */
export function renderGuidePage(site: SiteModel, slug: string, title: string, markdown: string): string {
  const rewriteLink = (href: string): string | null => {
    if (/^(https?:|mailto:|#)/.test(href)) return href;
    const doc = /(?:^|\/)(OPERATIONS|COMPATIBILITY|ARCHITECTURE|PERFORMANCE)\.md(#.*)?$/i.exec(href);
    if (doc) return ({ OPERATIONS: 'operations.html', COMPATIBILITY: 'compatibility.html' } as Record<string, string>)[doc[1]!.toUpperCase()] ?? null;
    if (/^\.\.\/(methods|types)\/|^[\w-]+\.html|^\.\.\/[\w-]+\.html/.test(href)) return href;
    return null; // repository files have no page on this site
  };
  const body = `<article class="guide">${renderMarkdown(markdown, { rewriteLink })}</article>`;
  return layout(site, { title, root: '../', current: `guides/${slug}.html`, body });
}
