/**
 * The checks codegen runs before emitting anything: meta-schema validity (via
 * @open-rpc/schema-utils-js, which also resolves every $ref), unique and prefixed method names,
 * unique component names, and examples that validate against their own schemas.
 * @module
 */
import { parseOpenRPCDocument } from '@open-rpc/schema-utils-js';
import type { Ajv } from 'ajv';
import type { DocumentModel, MethodModel, Surface } from './model.ts';
import { createDocumentAjv, prepareSchema, schemaId } from './ajv-schemas.ts';
import { messageProblem } from './error-template.ts';
import { ERROR_DETAILS } from './model.ts';

/** Meta-validates and dereferences a copy of `doc`; returns the problems found. */
export async function checkMetaSchema(surface: Surface, doc: unknown): Promise<string[]> {
  try {
    await parseOpenRPCDocument(structuredClone(doc) as never, { dereference: true, validate: true });
    return [];
  } catch (error) {
    return [`${surface.file}: ${(error as Error).message}`];
  }
}

/**
 * Every semantic problem in a document model (empty when it is fine). `rawErrorDetails` is the
 * document's root `x-errors` map, which must describe exactly the errors of `components/errors`.
 */
export function checkModel(
  model: DocumentModel,
  rawComponents: Record<string, unknown>,
  rawErrorDetails: unknown = {},
): string[] {
  const file = model.surface.file;
  const problems: string[] = [...checkErrorDetails(model, rawErrorDetails)];
  const seen = new Map<string, string>();
  for (const [section, entries] of Object.entries(rawComponents)) {
    for (const name of Object.keys((entries ?? {}) as object)) {
      const other = seen.get(name);
      if (other !== undefined)
        problems.push(
          `${file}: component name "${name}" is used in both components/${other} and components/${section}`,
        );
      seen.set(name, section);
    }
  }
  const names = new Set<string>();
  const handlers = new Set<string>();
  for (const m of model.methods) {
    if (names.has(m.name)) problems.push(`${file}: method ${m.name} is declared twice`);
    if (handlers.has(m.handler)) problems.push(`${file}: two methods map to handler ${m.handler}`);
    names.add(m.name);
    handlers.add(m.handler);
    if (!m.name.startsWith(model.surface.prefix) || m.name.length === model.surface.prefix.length)
      problems.push(`${file}: method ${m.name} must start with ${model.surface.prefix}`);
  }
  const codes = new Map<number, string>();
  for (const e of model.errors) {
    if (!Number.isInteger(e.code)) problems.push(`${file}: error ${e.name} has no integer code`);
    const other = codes.get(e.code);
    if (other !== undefined) problems.push(`${file}: errors ${other} and ${e.name} share code ${e.code}`);
    codes.set(e.code, e.name);
  }
  for (const name of model.inputRules.fieldElementSchemas) {
    // The rule compares 66-character hex text with the modulus: it only means something on such strings.
    if (model.schemas.get(name)?.type !== 'string')
      problems.push(`${file}: x-input-rules.fieldElementSchemas names "${name}", which is no string component`);
  }
  let sides: ExampleAjvs;
  try {
    sides = {
      request: createDocumentAjv(model, false, 'request'),
      response: createDocumentAjv(model, false, 'response'),
    };
  } catch (error) {
    return [...problems, `${file}: schemas do not compile: ${(error as Error).message}`];
  }
  for (const m of model.methods) problems.push(...checkExamples(model, m, sides));
  return problems;
}

/** Example params are checked as requests, example results and error data as answers. */
interface ExampleAjvs {
  readonly request: Ajv;
  readonly response: Ajv;
}

function checkExamples(model: DocumentModel, m: MethodModel, sides: ExampleAjvs): string[] {
  const at = `${model.surface.file}: ${m.name}`;
  const problems: string[] = [];
  const ajv = sides.response;
  const invalid = (id: string, value: unknown): string | null => {
    const checker = id.endsWith('.result') ? sides.response : sides.request;
    const validate = checker.getSchema(id);
    // structuredClone: request-side validators normalise in place, and examples stay as written.
    if (!validate || validate(structuredClone(value))) return null;
    return checker.errorsText(validate.errors, { dataVar: '' });
  };
  m.examples.forEach((x, n) => {
    const where = `${at} example ${n + 1} "${x.name}"`;
    problems.push(...checkParamNames(m, x.params, where));
    m.params.forEach((p, i) => {
      const given = x.params.find((q) => q.name === p.name);
      if (given === undefined || (given.value === null && !p.required)) {
        if (p.required) problems.push(`${where}: missing required param ${p.name}`);
        return;
      }
      const why = invalid(schemaId(m.name, i), given.value);
      if (why) problems.push(`${where}: param ${p.name} does not match its schema: ${why}`);
    });
    if (x.result === undefined) problems.push(`${where}: has no result`);
    else {
      const why = invalid(schemaId(m.name, 'result'), x.result.value);
      if (why) problems.push(`${where}: result does not match the result schema: ${why}`);
    }
  });
  for (const x of m.errorExamples) {
    const where = `${at} x-error-examples "${x.name}"`;
    problems.push(...checkParamNames(m, x.params, where));
    const declared = m.errors.find((e) => e.code === x.error?.code);
    if (x.error === undefined) problems.push(`${where}: has no error`);
    else if (declared === undefined) problems.push(`${where}: code ${x.error.code} is not in the method's errors`);
    else {
      if (declared.dataSchema !== undefined) {
        // Absent data is null: an error whose data schema is `{"type": "null"}` carries none, and the others must.
        const validate = ajv.compile(prepareSchema(declared.dataSchema, (n) => model.schemas.get(n), 'response'));
        if (!validate(x.error.data ?? null))
          problems.push(
            `${where}: data does not match ${declared.name}'s data schema (${ERROR_DETAILS}): ${ajv.errorsText(validate.errors, { dataVar: '' })}`,
          );
      }
      const wording = messageProblem(declared.message, x.error.message, x.error.data);
      if (wording !== null) problems.push(`${where}: ${wording}`);
    }
  }
  return problems;
}

/** `x-errors`: one `{description, dataSchema}` per `components/errors` entry, and nothing else. */
function checkErrorDetails(model: DocumentModel, raw: unknown): string[] {
  const file = model.surface.file;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return [`${file}: ${ERROR_DETAILS} must be an object keyed by error name`];
  const problems: string[] = [];
  const names = new Set(model.errors.map((e) => e.name));
  for (const [name, entry] of Object.entries(raw)) {
    if (!names.has(name)) problems.push(`${file}: ${ERROR_DETAILS}.${name} names no components/errors entry`);
    const extra = Object.keys((entry ?? {}) as object).filter((k) => k !== 'description' && k !== 'dataSchema');
    if (extra.length > 0) problems.push(`${file}: ${ERROR_DETAILS}.${name} has unknown members ${extra.join(', ')}`);
  }
  for (const e of model.errors) {
    if (!Object.hasOwn(raw, e.name)) problems.push(`${file}: error ${e.name} has no ${ERROR_DETAILS} entry`);
    else {
      if (typeof e.description !== 'string' || e.description === '')
        problems.push(`${file}: ${ERROR_DETAILS}.${e.name} has no description`);
      if (typeof e.dataSchema !== 'object' || e.dataSchema === null)
        problems.push(`${file}: ${ERROR_DETAILS}.${e.name} has no dataSchema ({"type": "null"} when it carries none)`);
    }
  }
  return problems;
}

function checkParamNames(m: MethodModel, params: readonly { name: string }[], where: string): string[] {
  const known = new Set(m.params.map((p) => p.name));
  return params.filter((p) => !known.has(p.name)).map((p) => `${where}: unknown param ${p.name}`);
}
