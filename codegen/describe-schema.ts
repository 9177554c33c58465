/**
 * Plain-English descriptions of schemas ("a non-negative integer or \"latest\""), used for the
 * combined message of a failed anyOf/oneOf, where ajv alone only says "must match a schema in anyOf".
 * @module
 */
import type { Schema } from './model.ts';

/** Looks a component schema up by name. */
export type SchemaLookup = (name: string) => Schema | undefined;

const COMPONENT_REF = '#/components/schemas/';

/** Describes what `schema` accepts, following component `$ref`s through `lookup`. */
export function describeSchema(schema: Schema, lookup: SchemaLookup, depth = 0): string {
  if (depth > 8) return 'a valid value';
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith(COMPONENT_REF)) {
    const target = lookup(ref.slice(COMPONENT_REF.length));
    return target ? describeSchema(target, lookup, depth + 1) : 'a valid value';
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return joinOr(schema.enum.map((v) => JSON.stringify(v)));
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(branches)) return joinOr(branches.map((b) => describeSchema(b, lookup, depth + 1)));
  if (Array.isArray(schema.type)) return joinOr(schema.type.map((t) => describeType(String(t), schema)));
  if (typeof schema.type === 'string') return describeType(schema.type, schema);
  return 'a valid value';
}

function describeType(type: string, s: Schema): string {
  const min = typeof s.minimum === 'number' ? s.minimum : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  switch (type) {
    case 'integer':
    case 'number': {
      const noun = type === 'integer' ? 'integer' : 'number';
      if (min === 0 && max === undefined) return `a non-negative ${noun}`;
      if (min !== undefined && max !== undefined)
        return `an ${noun} from ${min} to ${max}`.replace('an number', 'a number');
      if (min !== undefined) return `${type === 'integer' ? 'an' : 'a'} ${noun} >= ${min}`;
      if (max !== undefined) return `${type === 'integer' ? 'an' : 'a'} ${noun} <= ${max}`;
      return type === 'integer' ? 'an integer' : 'a number';
    }
    case 'string':
      return typeof s.pattern === 'string' ? `a string matching ${s.pattern}` : 'a string';
    case 'boolean':
      return 'a boolean';
    case 'null':
      return 'null';
    case 'object':
      return 'an object';
    case 'array':
      return 'an array';
    default:
      return 'a valid value';
  }
}

/** `['a', 'b', 'c']` → `a, b or c`, without repeats. */
function joinOr(items: readonly string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique[0] ?? 'a valid value';
  return `${unique.slice(0, -1).join(', ')} or ${unique[unique.length - 1]}`;
}
