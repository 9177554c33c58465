/**
 * Emits `methods.ts`: the MethodDescriptor table the server dispatches on, with params/result
 * validation that turns ajv errors into messages naming the parameter and the rule.
 * @module
 */
import type { DocumentModel, MethodModel } from './model.ts';
import { byTag, header, quote, validatorName } from './emit-common.ts';
import { nullPlan } from './request-objects.ts';

/** The source of `src/generated/<surface>/methods.ts`. */
export function emitMethods(model: DocumentModel): string {
  const codeName = new Map(model.errors.map((e) => [e.code, e.name]));
  const rows: string[] = [];
  for (const [tag, methods] of byTag(model.methods)) {
    rows.push(`  // ${tag}`);
    for (const m of methods) rows.push(entry(m, codeName, model.schemas, model.requestOnly));
  }
  return `${header(model.surface)}/**
 * The method table of ${model.surface.file}: wire name → handler key, params, validators and
 * declared errors. The server looks methods up here and validates params before dispatch.
 * @module
 */
import * as v from './validators.js';
import * as r from './result-validators.js';
import { ErrorCode } from './errors.ts';
import { method, type MethodDescriptor } from '../runtime/method-table.ts';

export type { MethodDescriptor } from '../runtime/method-table.ts';

/** Every method of ${model.surface.file}, keyed by wire name, in document order. */
export const ${model.surface.tableName}: Readonly<Record<string, MethodDescriptor>> = Object.freeze({
${rows.join('\n')}
});
`;
}

function entry(
  m: MethodModel,
  codeName: ReadonlyMap<number, string>,
  schemas: DocumentModel['schemas'],
  requestOnly: ReadonlySet<string>,
): string {
  const params = m.params.map((p, i) => {
    const plan = nullPlan(p.schema, schemas, requestOnly);
    return `{ name: ${quote(p.name)}, required: ${p.required}, validate: v.${validatorName(m, i)}${plan ? `, absentNulls: ${JSON.stringify(plan)}` : ''} }`;
  });
  const errors = m.errors.map((e) => (codeName.get(e.code) === e.name ? `ErrorCode.${e.name}` : String(e.code)));
  const flags = [m.deprecated ? 'deprecated: true' : '', m.extension ? 'extension: true' : ''].filter(Boolean);
  const lines = [
    `    name: '${m.name}',`,
    `    handler: '${m.handler}',`,
    params.length === 0 ? '    params: [],' : `    params: [\n${params.map((p) => `      ${p},`).join('\n')}\n    ],`,
    `    result: r.${validatorName(m, 'result')},`,
    `    errors: [${errors.join(', ')}],`,
    ...flags.map((f) => `    ${f},`),
  ];
  return `  ${m.name}: method({\n${lines.join('\n')}\n  }),`;
}

/**
 * Hand-written once here, emitted once as src/generated/runtime/method-table.ts and imported by
 * every surface's methods.ts (generated code imports nothing hand-written). Validator types are
 * structural, so each surface's validators.d.ts fits them.
 */
export const METHOD_TABLE_RUNTIME = `/**
 * The method-table runtime every surface's methods.ts shares: MethodDescriptor and method(), which
 * turns a table row into a descriptor whose validators explain ajv errors.
 * @module
 */

/** One ajv error; \`verbose\` output, so \`parentSchema\` is set (matches each surface's validators.d.ts). */
export interface ValidatorError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
  readonly parentSchema?: Readonly<Record<string, unknown>>;
}

/**
 * A compiled validator: true when \`data\` is valid, else \`errors\` holds the failure path. A param
 * validator normalises in place (unknown members removed, hex lower-cased), a root value through
 * \`context.parentData[context.parentDataProperty]\`.
 */
export interface Validator {
  (data: unknown, context?: { parentData?: unknown; parentDataProperty?: string | number }): boolean;
  errors?: readonly ValidatorError[] | null;
}

/** One RPC method as the server sees it (docs/ARCHITECTURE.md, "Contract: generated code"). */
export interface MethodDescriptor {
  readonly name: string;
  readonly handler: string;
  readonly params: readonly { readonly name: string; readonly required: boolean }[];
  /**
   * null when valid, else a message naming the parameter and the rule: "params[1] (limit): must be <= 100".
   * Normalises \`params\` in place as the document's input rules say (unknown members removed, hex lower-cased).
   */
  validateParams(params: unknown[]): string | null;
  validateResult(result: unknown): string | null;
  readonly errors: readonly number[];
  readonly deprecated: boolean;
  readonly extension: boolean;
}

/** Where null members mean absent inside a param value (codegen/request-objects.ts). */
export interface NullPlan {
  readonly drop?: readonly string[];
  readonly props?: Readonly<Record<string, NullPlan>>;
  readonly items?: NullPlan;
}

/** One parameter of a table row. */
export interface ParamSpec {
  readonly name: string;
  readonly required: boolean;
  readonly validate: Validator;
  /** Optional members of request-only objects whose null means absent: dropped once valid. */
  readonly absentNulls?: NullPlan;
}

/** One row of a surface's method table. */
export interface MethodSpec {
  readonly name: string;
  readonly handler: string;
  readonly params: readonly ParamSpec[];
  readonly result: Validator;
  readonly errors: readonly number[];
  readonly deprecated?: boolean;
  readonly extension?: boolean;
}

/** Builds a frozen descriptor from a table row. */
export function method(spec: MethodSpec): MethodDescriptor {
  return Object.freeze({
    name: spec.name,
    handler: spec.handler,
    params: Object.freeze(spec.params.map((p) => Object.freeze({ name: p.name, required: p.required }))),
    validateParams: (params: unknown[]) => checkParams(spec.params, params),
    // A void method's result is null on the wire; handlers return undefined.
    validateResult: (result: unknown) => check(spec.result, result === undefined ? null : result, 'result'),
    errors: Object.freeze([...spec.errors]),
    deprecated: spec.deprecated ?? false,
    extension: spec.extension ?? false,
  });
}

/** Checks arity, then each param (absent and null optional params are accepted), dropping null-as-absent members. */
function checkParams(specs: readonly ParamSpec[], params: unknown[]): string | null {
  if (params.length > specs.length) return \`too many params: expected at most \${specs.length}, got \${params.length}\`;
  for (const [i, spec] of specs.entries()) {
    const label = \`params[\${i}] (\${spec.name})\`;
    const value = params[i];
    if (value === undefined || (value === null && !spec.required)) {
      if (spec.required) return \`\${label}: is required\`;
      continue;
    }
    const problem = check(spec.validate, value, label, params, i);
    if (problem !== null) return problem;
    if (spec.absentNulls !== undefined) dropNulls(value, spec.absentNulls);
  }
  return null;
}

/** Deletes the null members a plan names (the value is freshly parsed JSON, owned by this call). */
function dropNulls(value: unknown, plan: NullPlan): void {
  if (Array.isArray(value)) {
    if (plan.items !== undefined) for (const item of value) dropNulls(item, plan.items);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const key of plan.drop ?? []) if (record[key] === null) delete record[key];
  for (const [key, inner] of Object.entries(plan.props ?? {})) dropNulls(record[key], inner);
}

/**
 * Runs a validator; on failure, "<label>: <rule>", where a problem inside the value starts the
 * rule with its path: "params[0] (filter): fromBlock must be integer" (InvalidParamsErrorData).
 */
function check(validate: Validator, value: unknown, label: string, parentData?: unknown[], parentDataProperty?: number): string | null {
  if (parentData === undefined ? validate(value) : validate(value, { parentData, parentDataProperty })) return null;
  const errors = validate.errors ?? [];
  const error = relevantError(errors);
  if (error === undefined) return \`\${label}: is invalid\`;
  const path = jsonPath(error.instancePath).replace(/^\\./, '');
  return \`\${label}: \${path === '' ? '' : \`\${path} \`}\${explain(error)}\`;
}

/**
 * The error worth reporting. ajv lists an anyOf/oneOf failure after its branches' errors. When a
 * branch matched the value's type and failed inside it (\`{hash: "0x"}\` against \`L2Block | null\`),
 * that deeper error says more; otherwise the combined "must be A or B" message does.
 */
function relevantError(errors: readonly ValidatorError[]): ValidatorError | undefined {
  const last = errors[errors.length - 1];
  if (last === undefined || (last.keyword !== 'anyOf' && last.keyword !== 'oneOf')) return errors[0];
  const inside = errors.find((e) => e.instancePath.startsWith(last.instancePath)
    && (e.instancePath.length > last.instancePath.length || STRUCTURAL.has(e.keyword) || isDomainRule(e)));
  return inside ?? last;
}

/** The shared domain rule (a field element, a safe integer) failed: the value had the branch's shape. */
function isDomainRule(e: ValidatorError): boolean {
  return e.keyword === 'x-bn254-field' || (e.keyword === 'maximum' && e.params.limit === Number.MAX_SAFE_INTEGER);
}

/** Keywords that fail only once a value has the branch's type (an object or an array). */
const STRUCTURAL = new Set(['required', 'additionalProperties', 'minProperties', 'maxProperties', 'minItems', 'maxItems', 'additionalItems', 'uniqueItems']);

/** "/filter/0/txHash" → ".filter[0].txHash" (the check drops the leading dot). */
function jsonPath(pointer: string): string {
  return pointer.split('/').slice(1).map((raw) => {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    return /^\\d+$/.test(key) ? \`[\${key}]\` : \`.\${key}\`;
  }).join('');
}

/** A readable rule for one ajv error. */
function explain(error: ValidatorError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'anyOf':
    case 'oneOf':
      return \`must be \${String(error.parentSchema?.['x-expected'] ?? 'one of the allowed shapes')}\`;
    case 'const':
      return \`must be \${JSON.stringify(p.allowedValue)}\`;
    case 'enum':
      return \`must be one of \${(p.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ')}\`;
    case 'additionalProperties':
      return \`must not have property '\${String(p.additionalProperty)}'\`;
    case 'additionalItems':
    case 'maxItems':
      return \`must not have more than \${String(p.limit)} items\`;
    case 'minItems':
      return \`must not have fewer than \${String(p.limit)} items\`;
    case 'type':
      return \`must be \${String(p.type).split(',').join(' or ')}\`;
    default:
      return error.message ?? \`fails \${error.keyword}\`;
  }
}
`;
