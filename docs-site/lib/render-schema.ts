/**
 * Renders JSON Schemas readably: a one-line summary with limits ("integer, 1 to 100, default 100"),
 * property tables for objects, alternatives for unions, links to type pages for `$ref`s.
 * @module
 */
import { codeBlock, esc, json, scrollTable, typeHref } from './html.ts';
import { renderInline } from './markdown.ts';
import type { Schema, Surface, TypeModel } from './model.ts';
import { rawTypeFor, typeFor } from './model.ts';

/** Where a schema is rendered: for relative links and for resolving names on the right surface. */
export interface SchemaContext {
  root: string;
  surface: Surface;
  types: TypeModel[];
  noHints?: boolean;
  /** Prefix of the ids given to property rows (`field-`, `result-`); rows get no ids without it. */
  idPrefix?: string;
  /** Ids already used on the page, so that every row id is unique. */
  ids?: Set<string>;
}

/** A unique id on the page for `base` (a second "x" becomes "x-2"). */
export function uniqueId(ids: Set<string> | undefined, base: string): string {
  let id = base.replace(/[^\w.:-]+/g, '-');
  for (let n = 2; ids?.has(id); n++) id = `${base}-${n}`;
  ids?.add(id);
  return id;
}

/** A link to the type page of a `$ref`, or the bare name when the document lacks it. */
export function refLink(ref: string, ctx: SchemaContext): string {
  const name = ref.split('/').pop()!;
  const t = typeFor(ctx.types, ctx.surface, name);
  return t ? `<a class="type" href="${ctx.root}${typeHref(t.slug)}">${esc(t.name)}</a>` : `<code>${esc(name)}</code>`;
}

/** Whether a `$ref` names JSON null (the documents' `Null` component). */
function isNullRef(ref: string, ctx: SchemaContext): boolean {
  const t = typeFor(ctx.types, ctx.surface, ref.split('/').pop()!);
  return typeof t?.schema === 'object' && t.schema.type === 'null';
}

/** The description a property carries, or the one of the wrapper component it refers to. */
export function describedBy(p: Schema, ctx: SchemaContext): string {
  if (typeof p !== 'object') return '';
  if (p.description) return p.description;
  const name = typeof p.$ref === 'string' ? p.$ref.split('/').pop()! : undefined;
  const raw = name ? rawTypeFor(ctx.types, ctx.surface, name) : undefined;
  if (raw?.aliasOf && typeof raw.schema === 'object' && raw.schema.description) return raw.schema.description;
  const final = name ? typeFor(ctx.types, ctx.surface, name) : undefined;
  return final?.inline && typeof final.schema === 'object' ? (final.schema.description ?? '') : '';
}

/** Returns the limits of a schema as short phrases: "≥ 1", "at most 1000 items", "default 100". */
export function limits(s: Record<string, any>): string[] {
  const out: string[] = [];
  if (s.minimum !== undefined && s.maximum !== undefined) out.push(`${s.minimum} to ${s.maximum}`);
  else if (s.minimum !== undefined) out.push(`≥ ${s.minimum}`);
  else if (s.maximum !== undefined) out.push(`≤ ${s.maximum}`);
  if (typeof s.exclusiveMinimum === 'number') out.push(`> ${s.exclusiveMinimum}`);
  if (typeof s.exclusiveMaximum === 'number') out.push(`< ${s.exclusiveMaximum}`);
  if (s.minItems !== undefined && s.maxItems !== undefined) out.push(`${s.minItems} to ${s.maxItems} items`);
  else if (s.maxItems !== undefined) out.push(`at most ${s.maxItems} items`);
  else if (s.minItems !== undefined) out.push(`at least ${s.minItems} item${s.minItems === 1 ? '' : 's'}`);
  if (s.minLength !== undefined && s.minLength === s.maxLength) out.push(`exactly ${s.minLength} characters`);
  else {
    if (s.minLength !== undefined) out.push(`at least ${s.minLength} characters`);
    if (s.maxLength !== undefined) out.push(`at most ${s.maxLength} characters`);
  }
  if (s.pattern !== undefined) out.push(`pattern <code>${esc(s.pattern)}</code>`);
  if (s.format !== undefined) out.push(`format ${esc(s.format)}`);
  if (s.default !== undefined) out.push(`default <code>${esc(JSON.stringify(s.default))}</code>`);
  return out;
}

/** A one-line HTML summary of a schema. */
export function schemaSummary(schema: Schema, ctx: SchemaContext): string {
  if (schema === true || schema === undefined) return 'any value';
  if (schema === false) return 'nothing';
  const s = schema as Record<string, any>;
  let head: string;
  const target = typeof s.$ref === 'string' ? typeFor(ctx.types, ctx.surface, s.$ref.split('/').pop()!) : undefined;
  const nullable =
    typeof target?.schema === 'object' &&
    (target.schema.oneOf ?? target.schema.anyOf)?.length === 2 &&
    (target.schema.oneOf ?? target.schema.anyOf).some((a: any) => typeof a.$ref === 'string' && isNullRef(a.$ref, ctx));
  if (target?.inline && typeof target.schema === 'object')
    head = schemaSummary({ ...target.schema, description: undefined, title: undefined }, ctx);
  // "NullableL2Block" reads better as what it is: "L2Block or null"
  else if (nullable)
    head = schemaSummary(
      { oneOf: (target!.schema as Record<string, any>).oneOf ?? (target!.schema as Record<string, any>).anyOf },
      ctx,
    );
  else if (typeof s.$ref === 'string')
    head = isNullRef(s.$ref, ctx) ? 'null' : refLink(s.$ref, ctx) + scalarHint(s.$ref, ctx);
  else if (s.const !== undefined) head = `<code>${esc(JSON.stringify(s.const))}</code>`;
  else if (Array.isArray(s.enum))
    head = `one of ${s.enum.map((e: unknown) => `<code>${esc(JSON.stringify(e))}</code>`).join(', ')}`;
  else if (s.oneOf || s.anyOf)
    head = (s.oneOf ?? s.anyOf).map((x: Schema) => alternativeSummary(x, ctx)).join(' <span class="or">or</span> ');
  else if (s.allOf) head = s.allOf.map((x: Schema) => schemaSummary(x, ctx)).join(' <span class="or">and</span> ');
  else if (s.type === 'array' || (s.items && !s.type)) {
    const items = Array.isArray(s.prefixItems ?? s.items)
      ? `[${(s.prefixItems ?? s.items).map((x: Schema) => schemaSummary(x, ctx)).join(', ')}]`
      : schemaSummary(s.items ?? true, ctx);
    head = `array of ${items}`;
  } else if (Array.isArray(s.type)) head = s.type.join(' or ');
  else head = esc(s.type ?? (s.properties ? 'object' : 'any value'));
  if (s.nullable === true) head += ' or null';
  const extra = limits(s);
  return extra.length ? `${head}, ${extra.join(', ')}` : head;
}

/**
 * One alternative of a union: an inline object is named by its title, or by its required fields
 * ("object {address, selector}"), so that "object or object" never reaches the page.
 */
function alternativeSummary(x: Schema, ctx: SchemaContext): string {
  if (typeof x !== 'object' || !(x.properties || x.type === 'object') || x.$ref) return schemaSummary(x, ctx);
  if (typeof x.title === 'string' && x.title) return `<span class="alt-title">${esc(x.title)}</span>`;
  const keys: string[] = x.required?.length ? x.required : Object.keys(x.properties ?? {});
  if (keys.length === 0) return 'object';
  const shown = keys
    .slice(0, 3)
    .map((k) => `<code>${esc(k)}</code>`)
    .join(', ');
  return `object {${shown}${keys.length > 3 ? ', …' : ''}}`;
}

/** The schema a `$ref` (direct, or as array items) points at, when it is a component. */
function refTarget(s: Record<string, any>, ctx: SchemaContext): Record<string, any> | undefined {
  const ref = typeof s.$ref === 'string' ? s.$ref : undefined;
  const t = ref ? typeFor(ctx.types, ctx.surface, ref.split('/').pop()!) : undefined;
  return t && typeof t.schema === 'object' ? t.schema : undefined;
}

/** For a `$ref` to a scalar type, its shape in brackets ("BlockNumber (integer, ≥ 0)"), so readers need not click. */
function scalarHint(ref: string, ctx: SchemaContext): string {
  if (ctx.noHints) return '';
  const t = typeFor(ctx.types, ctx.surface, ref.split('/').pop()!);
  const s = t?.schema;
  if (!s || typeof s !== 'object' || s.properties || s.type === 'object' || s.type === 'array') return '';
  const inner = schemaSummary({ ...s, description: undefined }, { ...ctx, noHints: true });
  return inner.replace(/<[^>]+>/g, '').length > 120 ? '' : ` <span class="hint">(${inner})</span>`;
}

/** A block rendering: summary, description, and the object's properties or the union's alternatives. */
export function schemaDetail(schema: Schema, ctx: SchemaContext, depth = 0): string {
  if (typeof schema !== 'object') return `<p class="schema-line">${schemaSummary(schema, ctx)}</p>`;
  let s = schema as Record<string, any>;
  const parts = [`<p class="schema-line">${schemaSummary(s, ctx)}</p>`];
  if (s.description && depth === 0 && !s.$ref) parts.push(`<p>${renderInline(s.description)}</p>`);
  if (s.properties && depth < 3) parts.push(propertyTable(s, ctx, depth));
  let target = depth === 0 ? refTarget(s, ctx) : undefined;
  // "X or null": the fields shown are X's
  const alts: any[] | undefined = target?.oneOf ?? target?.anyOf;
  const nonNull = alts?.length === 2 ? alts.filter((a) => !(typeof a.$ref === 'string' && isNullRef(a.$ref, ctx))) : [];
  if (nonNull.length === 1 && typeof nonNull[0].$ref === 'string') {
    s = { ...s, $ref: nonNull[0].$ref };
    target = refTarget(s, ctx);
  }
  if (target?.properties)
    parts.push(`<p class="muted">${refLink(s.$ref, ctx)} has these fields:</p>${propertyTable(target, ctx, 1)}`);
  // a named list or union (a method's "GetBlocksResult") says what it is, so the reader need not click
  else if (
    target &&
    (target.type === 'array' || target.oneOf || target.anyOf) &&
    !schemaSummary(s, ctx).includes('<span class="or">')
  )
    parts.push(
      `<p class="muted">${refLink(s.$ref, ctx)} is ${schemaSummary({ ...target, description: undefined, title: undefined }, ctx)}.</p>`,
    );
  const items =
    s.type === 'array' && s.items && typeof s.items === 'object' && !Array.isArray(s.items) ? s.items : null;
  if (items?.properties && depth < 3)
    parts.push(`<p class="muted">Each item:</p>${propertyTable(items, ctx, depth + 1)}`);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const alts = s[key];
    if (Array.isArray(alts) && alts.some((a: any) => a.properties) && depth < 3)
      parts.push(
        `<ol class="alts">${alts.map((a: Schema) => `<li>${typeof a === 'object' && a.title ? `<strong>${esc(a.title)}</strong>` : ''}${schemaDetail(a, ctx, depth + 1)}</li>`).join('')}</ol>`,
      );
  }
  return parts.join('\n');
}

function propertyTable(s: Record<string, any>, ctx: SchemaContext, depth: number): string {
  const required = new Set<string>(s.required ?? []);
  const rows = Object.entries(s.properties as Record<string, Schema>)
    .map(([name, p]) => {
      const desc = renderInline(describedBy(p, ctx));
      const path = ctx.idPrefix !== undefined ? `${ctx.idPrefix}${name}` : undefined;
      const inner = path ? { ...ctx, idPrefix: `${path}.` } : ctx;
      const nested =
        typeof p === 'object' && (p.properties || (p.type === 'array' && (p.items as any)?.properties))
          ? schemaDetail({ ...p, description: undefined }, inner, depth + 1)
          : '';
      const id = path ? uniqueId(ctx.ids, path) : '';
      const anchor = id ? `<a class="anchor" href="#${esc(id)}" aria-label="Link to field ${esc(name)}">#</a>` : '';
      return `<tr${id ? ` id="${esc(id)}"` : ''}><td><code>${esc(name)}</code>${anchor}${required.has(name) ? '' : ' <span class="opt">optional</span>'}${typeof p === 'object' && p.deprecated ? ' <span class="badge dep">deprecated</span>' : ''}</td><td>${nested || schemaSummary(p, ctx)}</td><td>${desc}</td></tr>`;
    })
    .join('');
  const extra = s.additionalProperties === false ? '' : '<p class="muted">Other properties are allowed.</p>';
  return (
    scrollTable(
      `<table class="props"><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`,
      'Fields',
    ) + (depth === 0 ? extra : '')
  );
}

/** The raw JSON Schema, folded away for those who want it. */
export function rawSchema(schema: Schema, label = 'JSON Schema'): string {
  return `<details class="raw"><summary>${esc(label)}</summary>${codeBlock(json(schema), 'json')}</details>`;
}
