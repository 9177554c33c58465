/**
 * The page of one method: summary, notices, a "Try it" panel, parameters with limits, result,
 * declared errors, examples (request and response) with the call in four languages, and error
 * examples. Every heading, example, parameter and field has an anchor.
 * @module
 */
import { codeBlock, esc, heading, json, layout, methodHref, scrollTable, tagTitle } from './html.ts';
import { highlight } from './highlight.ts';
import { renderInline, renderMarkdown, slugify } from './markdown.ts';
import type { ErrorModel, MethodModel, OpenRpcDocument, SiteModel } from './model.ts';
import { collectRefs, needsApiKey, STANDARD_ERRORS } from './model.ts';
import { rawSchema, schemaDetail, schemaSummary, uniqueId } from './render-schema.ts';
import type { SchemaContext } from './render-schema.ts';
import { errorCatalogue } from './site-data.ts';
import { DEFAULT_URLS, KEY_EXPRESSIONS, KEY_PLACEHOLDER, requestBody, snippet, SNIPPET_LANGS } from './snippets.ts';

/** How a method page names the API it belongs to. */
const SURFACE_NAMES = { public: 'public API', admin: 'admin API', dev: 'development API, on the admin port' } as const;

/** Badges shown next to a method name (also used in lists). */
export function methodBadges(m: MethodModel): string {
  const out = [];
  if (m.surface === 'admin')
    out.push('<span class="badge admin" title="Served on the admin port; needs the API key">admin · API key</span>');
  if (m.surface === 'dev')
    out.push(
      '<span class="badge admin" title="Development only: served on the admin port beside nodeAdmin_*; needs the API key">dev · admin port · API key</span>',
    );
  if (m.deprecated) out.push('<span class="badge dep">deprecated</span>');
  if (m.extension)
    out.push(
      `<span class="badge ext" title="x-extension: ${esc(m.extension)} — not in the v4.0.0 API; served for Aztec 4.1 clients">Aztec 4.1 extension</span>`,
    );
  return out.join(' ');
}

/** Renders methods/<name>.html. */
export function renderMethodPage(site: SiteModel, m: MethodModel): string {
  const ids = new Set<string>(['main', 'side', 'settings', 'search', 'search-results']);
  const ctx: SchemaContext = { root: '../', surface: m.surface, types: site.types, ids };
  const body = [
    `<p class="crumbs">${esc(tagTitle(m.tag))} · ${SURFACE_NAMES[m.surface]} (<span class="u-url" data-surface="${m.surface}">${DEFAULT_URLS[m.surface]}</span>)</p>`,
    `<h1 class="method-name">${esc(m.name)} ${methodBadges(m)}</h1>`,
    m.summary ? `<p class="lead">${renderInline(m.summary)}</p>` : '',
    m.deprecated
      ? `<div class="notice dep"><strong>Deprecated.</strong> ${renderInline(replacementSentence(m))}</div>`
      : '',
    m.extension
      ? `<div class="notice ext"><strong>Aztec 4.1 extension.</strong> Not part of the v4.0.0 API: this node serves it so that Aztec 4.1 clients keep working (<a href="../guides/compatibility.html">compatibility</a>).</div>`
      : '',
    m.description ? `<div class="desc">${renderMarkdown(m.description, { ids })}</div>` : '',
    m.name === 'node_sendTx'
      ? `<div class="notice ext"><strong>Building a transaction the node accepts.</strong> The example below is a real Aztec 4.1.2 transaction: a node on another chain refuses it (its anchor block, chain id and fee payer belong to that chain). <a href="../guides/sending-a-transaction.html">Sending a transaction</a> shows how to build one for your node and send it.</div>`
      : '',
    tryIt(site, m),
    section('Parameters', renderParams(m, ctx)),
    section('Result', renderResult(m, { ...ctx, idPrefix: 'result.' })),
    section('Errors', renderErrors(site, m, ctx)),
    section('Examples', renderExamples(m, ids)),
  ].join('\n');
  return layout(site, {
    title: m.name,
    root: '../',
    current: methodHref(m.name),
    body,
    scripts: ['assets/try-it.js'],
    description: m.summary,
  });
}

function section(title: string, html: string): string {
  const id = title.toLowerCase();
  return `<section id="${id}-section">${heading(2, id, esc(title))}${html}</section>`;
}

/** The sentence of the description that names the replacement, or a generic notice. */
function replacementSentence(m: MethodModel): string {
  const sentences = m.description.split(/(?<=\.)\s+/);
  return sentences.find((s) => /instead|replac|deprecat|use `/i.test(s)) ?? 'It may be removed in a future version.';
}

function renderParams(m: MethodModel, ctx: SchemaContext): string {
  if (m.params.length === 0) return '<p class="muted">None: send <code>"params": []</code>.</p>';
  const rows = m.params
    .map((p, i) => {
      const id = uniqueId(ctx.ids, `param-${p.name}`);
      const inner = { ...ctx, idPrefix: `${id}.` };
      const nested =
        typeof p.schema === 'object' && (p.schema.properties || p.schema.oneOf?.some((a: any) => a.properties))
          ? schemaDetail(p.schema, inner, 1)
          : schemaSummary(p.schema, ctx);
      const text = [p.summary, p.description]
        .filter(Boolean)
        .map((t) => renderInline(t))
        .join(' ');
      return `<tr id="${esc(id)}"><td>${i}</td><td><code>${esc(p.name)}</code><a class="anchor" href="#${esc(id)}" aria-label="Link to parameter ${esc(p.name)}">#</a>${p.deprecated ? ' <span class="badge dep">deprecated</span>' : ''}</td><td>${nested}</td><td>${p.required ? 'required' : '<span class="opt">optional</span>'}</td><td>${text}</td></tr>`;
    })
    .join('');
  return (
    scrollTable(
      `<table class="params"><thead><tr><th>#</th><th>Name</th><th>Schema</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`,
      'Parameters',
    ) + rawSchema({ type: 'array', prefixItems: m.params.map((p) => p.schema) }, 'Parameters as JSON Schema')
  );
}

function renderResult(m: MethodModel, ctx: SchemaContext): string {
  if (!m.result) return '<p class="muted">No result: the node answers <code>"result": null</code>.</p>';
  return `<p><code>${esc(m.result.name)}</code>${m.result.description ? ` — ${renderInline(m.result.description)}` : ''}</p>${schemaDetail(m.result.schema, ctx)}${rawSchema(m.result.schema)}`;
}

function renderErrors(site: SiteModel, m: MethodModel, ctx: SchemaContext): string {
  if (m.errorKeys.length === 0) return '<p class="muted">No method-specific errors are declared.</p>';
  const rows = m.errorKeys
    .map((key) => {
      const e: Partial<ErrorModel> = site.errors.find((x) => x.key === key) ?? { key, ...STANDARD_ERRORS[key] };
      const data = e.dataSchema ? schemaSummary(e.dataSchema, ctx) : '<span class="muted">none</span>';
      const id = uniqueId(ctx.ids, `error-${key}`);
      return `<tr id="${esc(id)}"><td><code>${esc(e.code ?? '?')}</code></td><td><a href="../errors.html#${esc(key)}">${esc(key)}</a></td><td>${esc(e.message ?? '')}</td><td>${data}</td></tr>`;
    })
    .join('');
  return scrollTable(
    `<table class="errors"><thead><tr><th>Code</th><th>Name</th><th>Message</th><th>data</th></tr></thead><tbody>${rows}</tbody></table>`,
    'Errors',
  );
}

/**
 * The call in every snippet language, as tabs (assets/site.js; without scripts all are shown).
 * The URL and the key expression are wrapped so the browser can put the reader's own in.
 */
export function snippetTabs(m: MethodModel, params: unknown[], idBase: string): string {
  const tabs = SNIPPET_LANGS.map(
    (l, i) =>
      `<button type="button" role="tab" id="${idBase}-tab-${l.id}" aria-controls="${idBase}-${l.id}" aria-selected="${i === 0}" tabindex="${i === 0 ? 0 : -1}" data-lang="${l.id}">${l.title}</button>`,
  ).join('');
  const panels = SNIPPET_LANGS.map((l, i) => {
    const code = snippet(l.id, m, params, DEFAULT_URLS[m.surface], KEY_PLACEHOLDER);
    const html = codeBlock(code, l.hl)
      .replaceAll(
        KEY_PLACEHOLDER,
        `<span class="k-expr" data-lang="${l.id}">${highlight(KEY_EXPRESSIONS[l.id], l.hl)}</span>`,
      )
      .replaceAll(
        DEFAULT_URLS[m.surface],
        `<span class="u-url" data-surface="${m.surface}">${DEFAULT_URLS[m.surface]}</span>`,
      );
    return `<div role="tabpanel" id="${idBase}-${l.id}" aria-labelledby="${idBase}-tab-${l.id}" data-lang="${l.id}"${i === 0 ? ' class="active"' : ''}>${html}</div>`;
  }).join('');
  return `<div class="snippets"><div role="tablist" aria-label="The call in">${tabs}</div>${panels}</div>`;
}

/** The response a call gets: a 401 from the admin port has `"id": null` (the node cannot trust the body unauthenticated). */
function errorResponse(m: MethodModel, error: { code: number }): Record<string, unknown> {
  const unauthorized = needsApiKey(m.surface) && error.code === -32000;
  return { jsonrpc: '2.0', id: unauthorized ? null : 1, error };
}

function renderExamples(m: MethodModel, ids: Set<string>): string {
  const parts: string[] = [];
  m.examples.forEach((ex, i) => {
    const id = uniqueId(ids, `example-${slugify(ex.name) || i + 1}`);
    const response = { jsonrpc: '2.0', id: 1, result: ex.result };
    const request = requestBody(m.name, ex.params);
    parts.push(`<div class="example" id="${esc(id)}">${heading(3, `${id}-title`, esc(ex.name || 'Example'))}${ex.summary ? `<p>${renderInline(ex.summary)}</p>` : ''}
<div class="pair">${codeBlock(json(request), 'json', { label: 'Request', value: request })}${codeBlock(json(response), 'json', { label: 'Response', value: response })}</div>
${i === 0 ? snippetTabs(m, ex.params, 'call') : ''}</div>`);
  });
  m.errorExamples.forEach((ex, i) => {
    const id = uniqueId(ids, `error-example-${slugify(ex.name) || i + 1}`);
    const request = requestBody(m.name, ex.params);
    const response = errorResponse(m, ex.error);
    parts.push(`<div class="example error-example" id="${esc(id)}">${heading(3, `${id}-title`, `${esc(ex.name || 'Error')} <span class="badge err">error ${esc(ex.error.code)}</span>`)}${ex.summary ? `<p>${renderInline(ex.summary)}</p>` : ''}
<div class="pair">${codeBlock(json(request), 'json', { label: 'Request', value: request })}${codeBlock(json(response), 'json', { label: 'Response', value: response })}</div></div>`);
  });
  if (m.examples.length === 0) {
    parts.unshift(
      `<p class="muted">The document gives no example yet. The call's shape:</p>${snippetTabs(m, callShapeParams(m), 'call')}`,
    );
  }
  return parts.join('\n');
}

/** The params the page calls with when the document has no example: required params as null. */
export function callShapeParams(m: MethodModel): unknown[] {
  return m.params.filter((p) => p.required).map(() => null);
}

/** The params of the method's snippets: its first example's, else the call's shape. */
export function snippetParams(m: MethodModel): unknown[] {
  return m.examples[0]?.params ?? callShapeParams(m);
}

/** The "Try it" panel: one field per parameter, sent from the browser to the reader's node (assets/try-it.js). */
function tryIt(site: SiteModel, m: MethodModel): string {
  const doc = site.docs[m.surface];
  const data = {
    surface: m.surface,
    name: m.name,
    params: m.params.map((p) => ({ name: p.name, required: p.required, schema: p.schema })),
    result: m.result?.schema ?? null,
    example: m.examples[0]?.params ?? [],
    root: { components: { schemas: referencedSchemas(doc, [m.params.map((p) => p.schema), m.result?.schema]) } },
    errors: errorCatalogue(site),
  };
  const fields = m.params
    .map(
      (p, i) =>
        `<label class="field">${esc(p.name)} <span class="opt">${p.required ? 'required' : 'optional'}</span><textarea rows="1" spellcheck="false" data-index="${i}" aria-label="${esc(p.name)} (JSON)"></textarea></label>`,
    )
    .join('');
  return `<details class="tryit" id="try-it"><summary>Try it</summary>
<p class="target">Sends to <span class="u-url" data-surface="${m.surface}">${DEFAULT_URLS[m.surface]}</span>${needsApiKey(m.surface) ? ' with your API key' : ''} (<button type="button" class="link open-settings">change</button>) · <a href="../playground.html#${encodeURIComponent(m.name)}">open in the playground</a></p>
<form class="tryit-form" novalidate>${fields || '<p class="muted">No parameters.</p>'}<p class="check" aria-live="polite"></p><button type="submit" class="button">Send</button></form>
<div class="tryit-response" aria-live="polite" hidden><p class="status"></p><div class="explain-box"></div><pre tabindex="0"><code></code></pre></div>
<script type="application/json" class="tryit-data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script></details>`;
}

/** The component schemas `values` refer to, followed transitively (what the browser's schema check needs). */
function referencedSchemas(doc: OpenRpcDocument, values: unknown): Record<string, unknown> {
  const all = doc.components?.schemas ?? {};
  const out: Record<string, unknown> = {};
  const queue = [...collectRefs(values, new Set())];
  while (queue.length) {
    const name = queue.pop()!;
    if (name in out || !(name in all)) continue;
    out[name] = all[name];
    queue.push(...collectRefs(all[name], new Set()));
  }
  return out;
}
