/**
 * A small JSON Schema (draft-07) → TypeScript emitter. Component `$ref`s become the component's
 * document name, so the output reads like hand-written types (json-schema-to-typescript renames
 * and duplicates shared schemas, which is why we do not use it here).
 * @module
 */
import type { Schema } from './model.ts';

const COMPONENT_REF = '#/components/schemas/';
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Renders a one-line or multi-line TSDoc comment at `indent`, or '' when there is no text. */
export function tsDoc(text: string | undefined, indent = ''): string {
  const clean = text?.trim().replaceAll('*/', '*\\/');
  if (!clean) return '';
  const lines = clean.split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? ` ${l}` : ''}`).join('\n')}\n${indent} */\n`;
}

/** The TypeScript type expression for `schema`, indented for nesting at `indent`. */
export function toTs(schema: Schema, indent = ''): string {
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    if (!ref.startsWith(COMPONENT_REF) || ref.slice(COMPONENT_REF.length).includes('/')) return 'unknown';
    return ref.slice(COMPONENT_REF.length);
  }
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(branches)) return union(branches.map((b) => toTs(b, indent)));
  if (Array.isArray(schema.allOf)) return (schema.allOf as Schema[]).map((b) => wrap(toTs(b, indent))).join(' & ');
  if (Array.isArray(schema.type)) return union(schema.type.map((t) => typeName(String(t), schema, indent)));
  if (typeof schema.type === 'string') return typeName(schema.type, schema, indent);
  if (schema.properties !== undefined) return objectType(schema, indent);
  return 'unknown';
}

/** True when `schema` is a plain object type that reads best as an `interface`. */
export function isInterfaceLike(schema: Schema): boolean {
  return (
    schema.type === 'object' &&
    schema.properties !== undefined &&
    schema.anyOf === undefined &&
    schema.oneOf === undefined &&
    schema.allOf === undefined &&
    typeof schema.additionalProperties !== 'object'
  );
}

/** The `{ … }` body of an object schema (used for interfaces too). */
export function objectType(schema: Schema, indent: string, nullAsAbsent = false): string {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const extra = schema.additionalProperties;
  const names = Object.keys(props);
  if (names.length === 0) {
    if (extra === false) return 'Record<string, never>';
    return `Record<string, ${typeof extra === 'object' && extra !== null ? toTs(extra as Schema, indent) : 'unknown'}>`;
  }
  const inner = `${indent}  `;
  const lines = names.map((name) => {
    const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
    const doc = tsDoc(props[name].description as string | undefined, inner);
    const type = toTs(props[name], inner);
    // Null as absent (codegen/request-objects.ts): the node drops such a null before handlers.
    const member = nullAsAbsent && !required.has(name) ? `NonNullable<${type}>` : type;
    return `${doc}${inner}${key}${required.has(name) ? '' : '?'}: ${member};`;
  });
  // An index signature must admit every declared property type, so extra keys are `unknown`.
  if (typeof extra === 'object' && extra !== null) lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function typeName(type: string, schema: Schema, indent: string): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(schema, indent);
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

function arrayType(schema: Schema, indent: string): string {
  const items = schema.items ?? schema.prefixItems;
  if (Array.isArray(items)) {
    const min = typeof schema.minItems === 'number' ? schema.minItems : items.length;
    const elems = (items as Schema[]).map((s, i) => `${toTs(s, indent)}${i >= min ? '?' : ''}`);
    const closed = schema.additionalItems === false || schema.items === false || Array.isArray(schema.prefixItems);
    if (!closed) elems.push(`...${wrap(toTs((schema.additionalItems ?? {}) as Schema, indent))}[]`);
    return `[${elems.join(', ')}]`;
  }
  if (items && typeof items === 'object') return `${wrap(toTs(items as Schema, indent))}[]`;
  return 'unknown[]';
}

function literal(value: unknown): string {
  return value === null ? 'null' : JSON.stringify(value);
}

function union(parts: readonly string[]): string {
  return [...new Set(parts)].join(' | ');
}

/** Parenthesises unions and intersections where they sit inside `[]` or `&`. */
function wrap(ts: string): string {
  let depth = 0;
  for (const ch of ts) {
    if ('{[(<'.includes(ch)) depth++;
    else if ('}])>'.includes(ch)) depth--;
    else if (depth === 0 && (ch === '|' || ch === '&')) return `(${ts})`;
  }
  return ts;
}
