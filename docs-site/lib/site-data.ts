/**
 * The data the browser scripts read: the client-side search index and the playground's method
 * table. Both are emitted as small scripts (`window.L2NODE_*`), not fetched JSON, so they load
 * with the page and need no server support.
 * @module
 */
import { GUIDES, methodHref, typeHref } from './html.ts';
import type { SiteModel } from './model.ts';
import { STANDARD_ERRORS, SURFACES } from './model.ts';
import { renderInline } from './markdown.ts';
import { schemaSummary } from './render-schema.ts';
import { DEFAULT_URLS } from './snippets.ts';

/** One search entry; `href` is relative to the site root. */
export interface SearchEntry { kind: 'method' | 'type' | 'error' | 'guide'; title: string; text: string; href: string; keys: string }

/** Builds the search index over methods, types, errors and guides. */
export function buildSearchIndex(site: SiteModel): SearchEntry[] {
  const out: SearchEntry[] = [];
  for (const m of site.methods) out.push({ kind: 'method', title: m.name, text: m.summary, href: methodHref(m.name), keys: `${m.handler} ${m.tag} ${m.surface}` });
  for (const t of site.types) out.push({ kind: 'type', title: t.name, text: typeof t.schema === 'object' ? t.schema.description ?? '' : '', href: typeHref(t.slug), keys: '' });
  for (const e of site.errors) out.push({ kind: 'error', title: e.key, text: `${e.code} ${e.message}`, href: `errors.html#${e.key}`, keys: String(e.code) });
  for (const g of GUIDES) out.push({ kind: 'guide', title: g.title, text: '', href: `guides/${g.slug}.html`, keys: g.slug });
  return out;
}

/** Builds the playground's table: methods, their schemas and examples, and the error catalogue. */
export function buildPlaygroundData(site: SiteModel) {
  const errors: Record<string, { key: string; message: string; description: string }> = {};
  for (const [key, e] of Object.entries(STANDARD_ERRORS)) errors[e.code] = { key, message: e.message, description: e.description };
  for (const e of site.errors) errors[e.code] = { key: e.key, message: e.message, description: e.description || STANDARD_ERRORS[e.key]?.description || '' };
  return {
    urls: DEFAULT_URLS,
    roots: Object.fromEntries(SURFACES.map((s) => [s, { components: site.docs[s].components ?? {} }])),
    methods: site.methods.map((m) => ({
      surface: m.surface, name: m.name, handler: m.handler, tag: m.tag, summaryHtml: renderInline(m.summary), deprecated: m.deprecated,
      params: m.params.map((p) => ({ name: p.name, required: p.required, schema: p.schema, summaryHtml: schemaSummary(p.schema, { root: '', surface: m.surface, types: site.types }), description: p.summary || p.description })),
      result: m.result?.schema ?? null,
      examples: m.examples.map((e) => ({ name: e.name, params: e.params })),
      errors: m.errorKeys,
    })),
    errors,
  };
}

/** Wraps a value as a script that assigns it to `window[name]`. */
export function asScript(name: string, value: unknown): string {
  // `</script` inside a string must not end an inline script if someone inlines this file
  return `window.${name} = ${JSON.stringify(value).replace(/<\//g, '<\\/')};\n`;
}
