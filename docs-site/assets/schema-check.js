/**
 * A small JSON Schema checker for the playground: the subset of draft 2020-12/07 keywords the
 * OpenRPC documents use. It runs in the browser (no bundler, no ajv) and under Node for the unit
 * tests, which hold it to ajv's verdicts on every example in the documents.
 * @module
 */

/**
 * Checks `value` against `schema`; `$ref`s resolve against `root` (a document with components).
 * Returns a list of `{ path, message }`, empty when the value is valid.
 * @param {unknown} value
 * @param {object | boolean} schema
 * @param {object} root
 * @returns {{ path: string, message: string }[]}
 */
export function checkSchema(value, schema, root, path = '') {
  const errors = [];
  visit(value, schema, root, path || '(value)', errors, 0);
  return errors;
}

const MAX_DEPTH = 64; // a cycle in $refs must not hang the page

function visit(value, schema, root, path, errors, depth) {
  if (schema === true || schema === undefined) return;
  if (schema === false) return void errors.push({ path, message: 'is not allowed here' });
  if (depth > MAX_DEPTH) return;
  if (typeof schema.$ref === 'string') {
    const target = resolvePointer(root, schema.$ref);
    if (target === undefined) errors.push({ path, message: `unknown $ref ${schema.$ref}` });
    else visit(value, target, root, path, errors, depth + 1);
  }
  if (schema.nullable === true && value === null) return;
  if (schema.type !== undefined && !matchesType(value, schema.type)) {
    const want = Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type;
    return void errors.push({ path, message: `must be ${article(want)} (got ${describe(value)})` });
  }
  if (schema.const !== undefined && !deepEqual(value, schema.const))
    errors.push({ path, message: `must be ${JSON.stringify(schema.const)}` });
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(e, value)))
    errors.push({ path, message: `must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}` });
  if (typeof value === 'number') checkNumber(value, schema, path, errors);
  if (typeof value === 'string') checkString(value, schema, path, errors);
  if (Array.isArray(value)) checkArray(value, schema, root, path, errors, depth);
  else if (value !== null && typeof value === 'object') checkObject(value, schema, root, path, errors, depth);
  checkCombinators(value, schema, root, path, errors, depth);
}

function checkNumber(value, s, path, errors) {
  if (s.minimum !== undefined && value < s.minimum) errors.push({ path, message: `must be >= ${s.minimum}` });
  if (s.maximum !== undefined && value > s.maximum) errors.push({ path, message: `must be <= ${s.maximum}` });
  if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum)
    errors.push({ path, message: `must be > ${s.exclusiveMinimum}` });
  if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum)
    errors.push({ path, message: `must be < ${s.exclusiveMaximum}` });
  if (s.multipleOf !== undefined && !Number.isInteger(value / s.multipleOf))
    errors.push({ path, message: `must be a multiple of ${s.multipleOf}` });
}

function checkString(value, s, path, errors) {
  const length = [...value].length; // code points, as JSON Schema counts them
  if (s.minLength !== undefined && length < s.minLength)
    errors.push({ path, message: `must have at least ${s.minLength} characters` });
  if (s.maxLength !== undefined && length > s.maxLength)
    errors.push({ path, message: `must have at most ${s.maxLength} characters` });
  if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value))
    errors.push({ path, message: `must match ${s.pattern}` });
}

function checkArray(value, s, root, path, errors, depth) {
  if (s.minItems !== undefined && value.length < s.minItems)
    errors.push({ path, message: `must have at least ${s.minItems} items` });
  if (s.maxItems !== undefined && value.length > s.maxItems)
    errors.push({ path, message: `must have at most ${s.maxItems} items (got ${value.length})` });
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
  value.forEach((item, i) => {
    const itemSchema = i < prefix.length ? prefix[i] : rest;
    if (itemSchema !== undefined) visit(item, itemSchema, root, `${path}[${i}]`, errors, depth + 1);
  });
  if (s.uniqueItems === true) {
    const seen = new Set(value.map((v) => JSON.stringify(v)));
    if (seen.size !== value.length) errors.push({ path, message: 'must not contain duplicate items' });
  }
}

function checkObject(value, s, root, path, errors, depth) {
  for (const key of s.required ?? [])
    if (!(key in value)) errors.push({ path, message: `must have property "${key}"` });
  const props = s.properties ?? {};
  for (const [key, v] of Object.entries(value)) {
    const sub = `${path}.${key}`;
    if (key in props) visit(v, props[key], root, sub, errors, depth + 1);
    else if (s.additionalProperties === false) errors.push({ path: sub, message: 'is not an allowed property' });
    else if (typeof s.additionalProperties === 'object') visit(v, s.additionalProperties, root, sub, errors, depth + 1);
  }
  if (s.minProperties !== undefined && Object.keys(value).length < s.minProperties)
    errors.push({ path, message: `must have at least ${s.minProperties} properties` });
}

function checkCombinators(value, s, root, path, errors, depth) {
  for (const sub of s.allOf ?? []) visit(value, sub, root, path, errors, depth + 1);
  const passes = (sub) => checkSchema(value, sub, root, path).length === 0;
  if (Array.isArray(s.anyOf) && !s.anyOf.some(passes))
    errors.push({ path, message: `must match one of: ${s.anyOf.map((x) => label(x, root)).join(' | ')}` });
  if (Array.isArray(s.oneOf)) {
    const n = s.oneOf.filter(passes).length;
    if (n !== 1)
      errors.push({
        path,
        message:
          n === 0
            ? `must match one of: ${s.oneOf.map((x) => label(x, root)).join(' | ')}`
            : 'matches more than one alternative',
      });
  }
  if (s.not !== undefined && passes(s.not)) errors.push({ path, message: 'must not match the excluded schema' });
}

/** Returns a short human name of a schema, for messages: its $ref name, title or type. */
export function label(schema, root) {
  if (schema === true) return 'anything';
  if (typeof schema !== 'object' || schema === null) return String(schema);
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop();
  if (schema.title) return schema.title;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((e) => JSON.stringify(e)).join(' | ');
  if (schema.type) return Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  return 'schema';
}

/** Resolves a local JSON pointer such as `#/components/schemas/Hash32` inside `root`. */
export function resolvePointer(root, ref) {
  if (!ref.startsWith('#')) return undefined;
  let node = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

function matchesType(value, type) {
  if (Array.isArray(type)) return type.some((t) => matchesType(value, t));
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return true;
  }
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 24 ? `"${value.slice(0, 21)}…"` : JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function article(word) {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function deepEqual(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}
