/**
 * The page of one method: summary, notices, parameters with limits, result, declared errors,
 * examples (request, response, curl, TypeScript client) and error examples.
 * @module
 */
import { codeBlock, esc, json, layout, methodHref, tagTitle } from './html.ts';
import { renderInline, renderMarkdown } from './markdown.ts';
import type { ErrorModel, MethodModel, SiteModel } from './model.ts';
import { STANDARD_ERRORS } from './model.ts';
import { rawSchema, schemaDetail, schemaSummary } from './render-schema.ts';
import type { SchemaContext } from './render-schema.ts';
import { clientSnippet, curlSnippet, DEFAULT_URLS, requestBody } from './snippets.ts';

/** How a method page names the API it belongs to. */
const SURFACE_NAMES = { public: 'public API', admin: 'admin API', dev: 'development API, on the admin port' } as const;

/** Badges shown next to a method name (also used in lists). */
export function methodBadges(m: MethodModel): string {
  const out = [];
  if (m.surface === 'admin') out.push('<span class="badge admin" title="Served on the admin port; needs the API key">admin · API key</span>');
  if (m.surface === 'dev') out.push('<span class="badge admin" title="Development only: served on the admin port beside nodeAdmin_*; needs the API key">dev · admin port · API key</span>');
  if (m.deprecated) out.push('<span class="badge dep">deprecated</span>');
  if (m.extension) out.push(`<span class="badge ext" title="x-extension: ${esc(m.extension)} — not in SPEC v4.0.0; served for Aztec 4.1 clients">Aztec 4.1 extension</span>`);
  return out.join(' ');
}

/** Renders methods/<name>.html. */
export function renderMethodPage(site: SiteModel, m: MethodModel): string {
  const ctx: SchemaContext = { root: '../', surface: m.surface, types: site.types };
  const body = [
    `<p class="crumbs">${esc(tagTitle(m.tag))} · ${SURFACE_NAMES[m.surface]} (${DEFAULT_URLS[m.surface]})</p>`,
    `<h1 class="method-name">${esc(m.name)} ${methodBadges(m)}</h1>`,
    m.summary ? `<p class="lead">${renderInline(m.summary)}</p>` : '',
    m.deprecated ? `<div class="notice dep"><strong>Deprecated.</strong> ${renderInline(replacementSentence(m))}</div>` : '',
    m.extension ? `<div class="notice ext"><strong>Aztec 4.1 extension.</strong> Not part of SPEC v4.0.0: this node serves it so that Aztec 4.1 clients keep working (<a href="../guides/compatibility.html">compatibility</a>).</div>` : '',
    m.description ? `<div class="desc">${renderMarkdown(m.description)}</div>` : '',
    `<p><a class="button" href="../playground.html#${encodeURIComponent(m.name)}">Try it in the playground</a></p>`,
    section('Parameters', renderParams(m, ctx)),
    section('Result', renderResult(m, ctx)),
    section('Errors', renderErrors(site, m, ctx)),
    section('Examples', renderExamples(m)),
  ].join('\n');
  return layout(site, { title: m.name, root: '../', current: methodHref(m.name), body });
}

function section(title: string, html: string): string {
  return `<section id="${title.toLowerCase()}"><h2>${esc(title)}</h2>${html}</section>`;
}

/** The sentence of the description that names the replacement, or a generic notice. */
function replacementSentence(m: MethodModel): string {
  const sentences = m.description.split(/(?<=\.)\s+/);
  return sentences.find((s) => /instead|replac|deprecat|use `/i.test(s)) ?? 'It may be removed in a future version.';
}

function renderParams(m: MethodModel, ctx: SchemaContext): string {
  if (m.params.length === 0) return '<p class="muted">None: send <code>"params": []</code>.</p>';
  const rows = m.params.map((p, i) => {
    const nested = typeof p.schema === 'object' && (p.schema.properties || p.schema.oneOf?.some((a: any) => a.properties)) ? schemaDetail(p.schema, ctx, 1) : schemaSummary(p.schema, ctx);
    const text = [p.summary, p.description].filter(Boolean).map((t) => renderInline(t)).join(' ');
    return `<tr><td>${i}</td><td><code>${esc(p.name)}</code>${p.deprecated ? ' <span class="badge dep">deprecated</span>' : ''}</td><td>${nested}</td><td>${p.required ? 'required' : '<span class="opt">optional</span>'}</td><td>${text}</td></tr>`;
  }).join('');
  return `<table class="params"><thead><tr><th>#</th><th>Name</th><th>Schema</th><th></th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`
    + rawSchema({ type: 'array', prefixItems: m.params.map((p) => p.schema) }, 'Parameters as JSON Schema');
}

function renderResult(m: MethodModel, ctx: SchemaContext): string {
  if (!m.result) return '<p class="muted">No result: the node answers <code>"result": null</code>.</p>';
  return `<p><code>${esc(m.result.name)}</code>${m.result.description ? ` — ${renderInline(m.result.description)}` : ''}</p>${schemaDetail(m.result.schema, ctx)}${rawSchema(m.result.schema)}`;
}

function renderErrors(site: SiteModel, m: MethodModel, ctx: SchemaContext): string {
  if (m.errorKeys.length === 0) return '<p class="muted">No method-specific errors are declared.</p>';
  const rows = m.errorKeys.map((key) => {
    const e: Partial<ErrorModel> = site.errors.find((x) => x.key === key) ?? { key, ...STANDARD_ERRORS[key] };
    const data = e.dataSchema ? schemaSummary(e.dataSchema, ctx) : '<span class="muted">none</span>';
    return `<tr id="error-${esc(key)}"><td><code>${esc(e.code ?? '?')}</code></td><td><a href="../errors.html#${esc(key)}">${esc(key)}</a></td><td>${esc(e.message ?? '')}</td><td>${data}</td></tr>`;
  }).join('');
  return `<table class="errors"><thead><tr><th>Code</th><th>Name</th><th>Message</th><th>data</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** curl and client snippets; folded after the first example so long pages stay scannable. */
function calls(m: MethodModel, params: unknown[], folded: boolean): string {
  const html = codeBlock(curlSnippet(m, params), 'sh', 'curl') + codeBlock(clientSnippet(m, params), 'ts', 'TypeScript client');
  return folded ? `<details class="raw"><summary>As curl and as a TypeScript client call</summary>${html}</details>` : html;
}

function renderExamples(m: MethodModel): string {
  const parts: string[] = [];
  for (const ex of m.examples) {
    const response = { jsonrpc: '2.0', id: 1, result: ex.result };
    parts.push(`<div class="example"><h3>${esc(ex.name || 'Example')}</h3>${ex.summary ? `<p>${renderInline(ex.summary)}</p>` : ''}
<div class="pair">${codeBlock(json(requestBody(m.name, ex.params)), 'json', 'Request')}${codeBlock(json(response), 'json', 'Response')}</div>
${calls(m, ex.params, parts.length > 0)}</div>`);
  }
  for (const ex of m.errorExamples) {
    const response = { jsonrpc: '2.0', id: 1, error: ex.error };
    parts.push(`<div class="example error-example"><h3>${esc(ex.name || 'Error')} <span class="badge err">error ${esc(ex.error.code)}</span></h3>${ex.summary ? `<p>${renderInline(ex.summary)}</p>` : ''}
<div class="pair">${codeBlock(json(requestBody(m.name, ex.params)), 'json', 'Request')}${codeBlock(json(response), 'json', 'Response')}</div></div>`);
  }
  if (parts.length === 0) {
    const params = m.params.filter((p) => p.required).map(() => null);
    return `<p class="muted">The document gives no example yet. The call's shape:</p>${codeBlock(curlSnippet(m, params), 'sh', 'curl')}${codeBlock(clientSnippet(m, params), 'ts', 'TypeScript client')}`;
  }
  return parts.join('\n');
}
