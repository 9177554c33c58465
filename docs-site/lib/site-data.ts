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
import { describedBy, schemaSummary } from './render-schema.ts';
import { DEFAULT_URLS } from './snippets.ts';

/** One search entry; `href` is relative to the site root. Kinds rank in this order (assets/site.js). */
export interface SearchEntry {
  id: number;
  kind: 'method' | 'param' | 'field' | 'type' | 'error' | 'guide';
  title: string;
  /** Where the entry lives ("param of node_getTxReceipt", "Operating the node"). */
  context: string;
  /** Searched names: the method's short name, its params and fields, an error's code. */
  keys: string;
  /** Searched prose, shown as the excerpt. */
  text: string;
  href: string;
}

/** A rendered guide, for its sections to be searchable. */
export interface RenderedGuide {
  slug: string;
  title: string;
  html: string;
}

/** Markdown or HTML reduced to plain words for the index. */
export function plainText(text: string): string {
  return text
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The property names and descriptions of an object schema (its alternatives' too). */
function propertiesOf(schema: unknown): [string, string][] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, any>;
  const own: [string, string][] = Object.entries(s.properties ?? {}).map(([k, v]: [string, any]) => [
    k,
    typeof v === 'object' ? (v?.description ?? '') : '',
  ]);
  const alts = [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])].flatMap(propertiesOf);
  const items = s.type === 'array' ? propertiesOf(s.items) : [];
  return [...own, ...alts, ...items];
}

/** Builds the search index over methods, their params and result fields, types and their fields, errors and guide sections. */
export function buildSearchIndex(site: SiteModel, guides: RenderedGuide[] = []): SearchEntry[] {
  const out: SearchEntry[] = [];
  const add = (e: Omit<SearchEntry, 'id'>) => out.push({ id: out.length, ...e });
  for (const m of site.methods) {
    const fields = propertiesOf(m.result?.schema).map(([k]) => k);
    add({
      kind: 'method',
      title: m.name,
      context: `${m.surface} method`,
      keys: [m.handler, m.tag, ...m.params.map((p) => p.name), ...fields].join(' '),
      text: plainText(`${m.summary} ${m.description}`),
      href: methodHref(m.name),
    });
    for (const p of m.params)
      add({
        kind: 'param',
        title: p.name,
        context: `param of ${m.name}`,
        keys: '',
        text: plainText(`${p.summary} ${p.description}`),
        href: `${methodHref(m.name)}#param-${p.name}`,
      });
    for (const [k, d] of Object.entries((m.result?.schema as any)?.properties ?? {}) as [string, any][])
      add({
        kind: 'field',
        title: k,
        context: `result field of ${m.name}`,
        keys: '',
        text: plainText(describedBy(d, { root: '', surface: m.surface, types: site.types })),
        href: `${methodHref(m.name)}#result.${k}`,
      });
  }
  for (const t of site.types.filter((x) => !x.aliasOf && !x.inline)) {
    const schema = typeof t.schema === 'object' ? t.schema : {};
    const props = Object.entries((schema as any).properties ?? {}) as [string, any][];
    add({
      kind: 'type',
      title: t.name,
      context: t.surface === 'public' ? 'type' : `${t.surface} type`,
      keys: propertiesOf(schema)
        .map(([k]) => k)
        .join(' '),
      text: plainText((schema as any).description ?? ''),
      href: typeHref(t.slug),
    });
    const ctx = { root: '', surface: t.surface, types: site.types };
    for (const [k, d] of props)
      add({
        kind: 'field',
        title: k,
        context: `field of ${t.name}`,
        keys: '',
        text: plainText(describedBy(d, ctx)),
        href: `${typeHref(t.slug)}#field-${k}`,
      });
  }
  for (const e of site.errors)
    add({
      kind: 'error',
      title: e.key,
      context: `error ${e.code}`,
      keys: `${e.code} ${e.message}`,
      text: plainText(e.description),
      href: `errors.html#${e.key}`,
    });
  for (const g of GUIDES) {
    const rendered = guides.find((x) => x.slug === g.slug);
    if (!rendered) {
      add({ kind: 'guide', title: g.title, context: 'guide', keys: g.slug, text: '', href: `guides/${g.slug}.html` });
      continue;
    }
    // one entry per section, so a phrase leads to its heading
    const parts = rendered.html.split(/(?=<h[1-3] id=")/);
    for (const part of parts) {
      const h = /^<h([1-3]) id="([^"]+)"[^>]*>([\s\S]*?)<\/h\1>/.exec(part);
      const title = h ? plainText(h[3]!.replace(/<a class="anchor"[\s\S]*?<\/a>/g, '')) : g.title;
      const text = plainText(h ? part.slice(h[0].length) : part);
      if (!h && !text) continue;
      add({
        kind: 'guide',
        title: h?.[1] === '1' ? g.title : title,
        context: h?.[1] === '1' ? 'guide' : g.title,
        keys: '',
        text,
        href: `guides/${g.slug}.html${h && h[1] !== '1' ? `#${h[2]}` : ''}`,
      });
    }
  }
  return out;
}

/** The error catalogue by code, for the browser to explain an error answer (descriptions rendered from Markdown). */
export function errorCatalogue(
  site: SiteModel,
): Record<string, { key: string; message: string; descriptionHtml: string }> {
  const errors: Record<string, { key: string; message: string; descriptionHtml: string }> = {};
  for (const [key, e] of Object.entries(STANDARD_ERRORS))
    errors[e.code] = { key, message: e.message, descriptionHtml: renderInline(e.description) };
  for (const e of site.errors)
    errors[e.code] = {
      key: e.key,
      message: e.message,
      descriptionHtml: renderInline(e.description || STANDARD_ERRORS[e.key]?.description || ''),
    };
  return errors;
}

/** Builds the playground's table: methods, their schemas and examples, and the error catalogue. */
export function buildPlaygroundData(site: SiteModel) {
  const errors = errorCatalogue(site);
  return {
    urls: DEFAULT_URLS,
    roots: Object.fromEntries(
      SURFACES.map((s) => [s, { components: { schemas: site.docs[s].components?.schemas ?? {} } }]),
    ),
    methods: site.methods.map((m) => ({
      surface: m.surface,
      name: m.name,
      handler: m.handler,
      tag: m.tag,
      summaryHtml: renderInline(m.summary),
      deprecated: m.deprecated,
      params: m.params.map((p) => ({
        name: p.name,
        required: p.required,
        schema: p.schema,
        summaryHtml: schemaSummary(p.schema, { root: '', surface: m.surface, types: site.types }),
      })),
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
