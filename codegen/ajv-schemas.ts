/**
 * Two ajv 8 instances per document, each holding every component schema and every method's param
 * and result schemas under flat ids: the request side (what the node accepts) and the response side
 * (what it answers). The same instances check the examples and emit standalone code.
 *
 * The request side applies the document's input rules (root `x-input-rules`, docs/ARCHITECTURE.md):
 * unknown members of request objects are removed instead of refused, hex is accepted in any case
 * and lower-cased in place, integers must be finite safe integers and the components the rules list
 * as `fieldElementSchemas` must be below the BN254 modulus (checked by an ajv keyword of ours,
 * `x-bn254-field`, added to this internal copy only: the documents carry no custom keyword in
 * their schemas, so strict ajv and other tools read them). The response side holds answers to
 * lower-case hex.
 * @module
 */

import type { KeywordCxt } from 'ajv';
import { _, Ajv } from 'ajv';
import { describeSchema } from './describe-schema.ts';
import type { DocumentModel, Schema } from './model.ts';
import { patternEngine } from './pattern-engine.ts';

const COMPONENT_REF = '#/components/schemas/';

/** Which half of the document a validator checks: params (requests) or results (answers). */
export type Side = 'request' | 'response';

/** The BN254 scalar field modulus as `0x` + 64 lower-case hex: a field element sorts below it as text. */
export const BN254_MODULUS_HEX = '0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001';

/** A hex pattern of the documents, any case: `^0x[0-9a-fA-F]{64}$`, `^0x[0-9a-fA-F]{8}$` … */
const ANY_CASE_HEX = /\[0-9a-fA-F\]/;

/** The ajv id of a method's param (`node_getBlock.param0`) or result (`node_getBlock.result`). */
export function schemaId(method: string, part: number | 'result'): string {
  return part === 'result' ? `${method}.result` : `${method}.param${part}`;
}

/** Builds one side's ajv instance for a document; `source` keeps generated code for standalone output. */
export function createDocumentAjv(model: DocumentModel, source: boolean, side: Side): Ajv {
  // strict off: the documents are draft-07 with annotations ajv does not know (examples, x-*).
  // Formats are annotations here; every rule the server enforces is a pattern, a bound or a keyword below.
  // strictNumbers: NaN and ±Infinity (JSON `1e309`) are not numbers, so never integers either.
  const ajv = new Ajv({
    strict: false,
    strictNumbers: true,
    verbose: true,
    allErrors: false,
    validateFormats: false,
    removeAdditional: side === 'request' && model.inputRules.unknownMembers === 'ignored',
    code: source ? { source: true, esm: true, regExp: patternEngine } : { regExp: patternEngine },
  });
  ajv.addKeyword({ keyword: 'x-expected', schemaType: 'string' });
  ajv.addKeyword(BN254_FIELD_KEYWORD);
  ajv.addKeyword(LOWER_CASE_KEYWORD);
  const lookup = (name: string): Schema | undefined => model.schemas.get(name);
  const absentNull = nullAsAbsentMembers(model);
  const fieldElements = new Set(side === 'request' ? model.inputRules.fieldElementSchemas : []);
  for (const [name, schema] of model.schemas) {
    // A request rule only: answers also carry L1 block hashes (Hash32), which are not field elements.
    const ruled = fieldElements.has(name) ? { ...schema, [BN254_FIELD_KEYWORD.keyword]: true } : schema;
    const prepared = prepareSchema(ruled, lookup, side, name);
    ajv.addSchema(absentNull.has(name) ? nullOrElse(prepared, schema, lookup, side) : prepared, name);
  }
  const seen = new Set<string>();
  for (const m of model.methods) {
    if (seen.has(m.name)) continue; // a duplicate method is reported by checkModel; the first one wins
    seen.add(m.name);
    m.params.forEach((p, i) => {
      ajv.addSchema(prepareSchema(p.schema, lookup, side), schemaId(m.name, i));
    });
    ajv.addSchema(prepareSchema(m.result, lookup, side), schemaId(m.name, 'result'));
  }
  return ajv;
}

/**
 * `x-bn254-field: true` (internal, on the `fieldElementSchemas` of the root `x-input-rules`) on a
 * 32-byte hex string: the value must be a BN254 field element. Compared
 * as lower-case text against the modulus (equal lengths), so no BigInt and nothing that can throw.
 */
const BN254_FIELD_KEYWORD = {
  keyword: 'x-bn254-field',
  type: 'string' as const,
  schemaType: 'boolean' as const,
  error: { message: `must be a BN254 field element (below ${BN254_MODULUS_HEX})` },
  code(cxt: KeywordCxt) {
    const { data, schema } = cxt;
    if (schema !== true) return;
    cxt.fail(_`${data}.length === 66 && ${data}.toLowerCase() >= ${BN254_MODULUS_HEX}`);
  },
};

/**
 * `x-lower-case` (added by `prepareSchema` to request-side hex strings): replaces the value with its
 * lower-case form in the parent object or array, so handlers only ever see lower-case hex. A root
 * value is replaced when the caller passes `{parentData, parentDataProperty}` (the method table does).
 */
const LOWER_CASE_KEYWORD = {
  keyword: 'x-lower-case',
  type: 'string' as const,
  schemaType: 'boolean' as const,
  modifying: true,
  code(cxt: KeywordCxt) {
    const { data, it } = cxt;
    const parent = it.parentData;
    const key = it.parentDataProperty;
    cxt.gen.if(_`${parent} !== undefined && ${parent} !== null`, () =>
      cxt.gen.assign(_`${parent}[${key}]`, _`${data}.toLowerCase()`),
    );
  },
};

/**
 * Copies a document schema for ajv: component `$ref`s become flat ids, and every anyOf/oneOf gets
 * an `x-expected` annotation that the generated message formatter reads from `parentSchema`.
 * Request side: hex strings get `x-lower-case`, integers a safe-integer range. Response side: hex
 * patterns accept lower case only (answers are lower-case, whatever case requests used).
 */
export function prepareSchema(
  schema: Schema,
  lookup: (name: string) => Schema | undefined,
  side: Side,
  id?: string,
): Schema {
  const copy = rewrite(schema, lookup, side) as Record<string, unknown>;
  if (id !== undefined) delete copy.$id;
  return copy;
}

/** The components of optional members of request-only objects (codegen/request-objects.ts). */
function nullAsAbsentMembers(model: DocumentModel): Set<string> {
  const names = new Set<string>();
  for (const object of model.requestOnly) {
    const s = model.schemas.get(object);
    const required = new Set((s?.required ?? []) as string[]);
    for (const [prop, p] of Object.entries((s?.properties ?? {}) as Record<string, Schema>)) {
      if (!required.has(prop) && typeof p.$ref === 'string' && p.$ref.startsWith(COMPONENT_REF))
        names.add(p.$ref.slice(COMPONENT_REF.length));
    }
  }
  return names;
}

/**
 * A null-as-absent member (`X or null`) checks a non-null value against X alone, so the message
 * stays X's own ("fromBlock must be integer"), as before these members admitted null.
 */
function nullOrElse(
  prepared: Schema,
  schema: Schema,
  lookup: (name: string) => Schema | undefined,
  side: Side,
): Schema {
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  const other = Array.isArray(branches) ? nonNullBranch(branches, lookup) : undefined;
  if (other === undefined) return prepared;
  const { oneOf: _o, anyOf: _a, 'x-expected': _x, ...rest } = prepared as Record<string, unknown>;
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keywords, not a thenable.
  return { ...rest, if: { type: 'null' }, then: true, else: prepareSchema(other, lookup, side) };
}

/** The other branch of a two-branch union whose one branch is exactly null, else undefined. */
function nonNullBranch(branches: readonly Schema[], lookup: (name: string) => Schema | undefined): Schema | undefined {
  if (branches.length !== 2) return undefined;
  const isNull = (b: Schema): boolean => {
    const name =
      typeof b.$ref === 'string' && b.$ref.startsWith(COMPONENT_REF) ? b.$ref.slice(COMPONENT_REF.length) : undefined;
    const s = name !== undefined ? lookup(name) : b;
    return (
      s !== undefined && s.type === 'null' && Object.keys(s).every((k) => ['type', 'title', 'description'].includes(k))
    );
  };
  const nulls = branches.filter(isNull);
  return nulls.length === 1 ? branches.find((b) => !isNull(b)) : undefined;
}

function rewrite(node: unknown, lookup: (name: string) => Schema | undefined, side: Side): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, lookup, side));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_REF)) {
      const rest = value.slice(COMPONENT_REF.length);
      const slash = rest.indexOf('/');
      out.$ref = slash < 0 ? rest : `${rest.slice(0, slash)}#${rest.slice(slash)}`;
    } else if (key === 'examples' || key === 'description' || key === 'title') {
    } else if (key === 'pattern' && typeof value === 'string' && side === 'response' && ANY_CASE_HEX.test(value)) {
      out.pattern = value.replaceAll('[0-9a-fA-F]', '[0-9a-f]');
    } else {
      out[key] = rewrite(value, lookup, side);
    }
  }
  const s = node as Schema;
  if (side === 'request') {
    if (typeof s.pattern === 'string' && s.pattern.startsWith('^0x') && ANY_CASE_HEX.test(s.pattern))
      out['x-lower-case'] = true;
    if (s.type === 'integer') {
      // The shared domain rule for numbers: exact integers only (|n| <= 2^53 - 1).
      if (typeof s.maximum !== 'number' || s.maximum > Number.MAX_SAFE_INTEGER) out.maximum = Number.MAX_SAFE_INTEGER;
      if (typeof s.minimum !== 'number' || s.minimum < Number.MIN_SAFE_INTEGER) out.minimum = Number.MIN_SAFE_INTEGER;
    }
  }
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) out['x-expected'] = describeSchema(s, lookup);
  return out;
}
