/**
 * Runs the whole generator in memory: load, check, emit. Returns every output file keyed by its
 * path relative to the repository root, or the list of problems that stopped it.
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { DocumentModel, Surface } from './model.ts';
import { buildModel, ERROR_DETAILS } from './model.ts';
import { checkMetaSchema, checkModel } from './check-document.ts';
import { header, runtimeHeader } from './emit-common.ts';
import { emitTypes } from './emit-types.ts';
import { emitValidators } from './emit-validators.ts';
import { emitMethods } from './emit-methods.ts';
import { emitHandlers } from './emit-handlers.ts';
import { emitErrors } from './emit-errors.ts';
import { emitClient } from './emit-client.ts';
import { emitFixtures } from './emit-fixtures.ts';
import { METHOD_TABLE_RUNTIME } from './emit-methods.ts';
import { CLIENT_RUNTIME } from './client-runtime.ts';

/** Where generated code and example fixtures go, relative to the repository root. */
export const GENERATED_DIR = 'src/generated';
export const FIXTURES_DIR = 'test/conformance/fixtures';
/** The shared runtime every surface imports (src/generated/runtime/). */
export const RUNTIME_DIR = `${GENERATED_DIR}/runtime`;

/** One document to generate from. */
export interface Input {
  readonly surface: Surface;
  readonly path: string;
}

/** The generator's answer: files to write, or the problems that stopped it. */
export interface Output {
  readonly problems: readonly string[];
  readonly files: ReadonlyMap<string, string>;
  readonly models: readonly DocumentModel[];
}

/** Loads, checks and emits every input; on any problem, `files` is empty. */
export async function generate(inputs: readonly Input[]): Promise<Output> {
  const problems: string[] = [];
  const models: DocumentModel[] = [];
  for (const { surface, path } of inputs) {
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      problems.push(`${surface.file}: cannot read ${path}: ${(error as Error).message}`);
      continue;
    }
    const meta = await checkMetaSchema(surface, doc);
    problems.push(...meta);
    if (meta.length > 0) continue;
    const model = buildModel(surface, doc);
    problems.push(...checkModel(model, (doc.components ?? {}) as Record<string, unknown>, doc[ERROR_DETAILS] ?? {}));
    models.push(model);
  }
  if (problems.length > 0) return { problems, files: new Map(), models };
  const files = new Map<string, string>();
  if (models.length > 0)
    for (const [name, text] of Object.entries(emitRuntime())) files.set(`${RUNTIME_DIR}/${name}`, text);
  for (const model of models) {
    for (const [name, text] of Object.entries(emitSurface(model)))
      files.set(`${GENERATED_DIR}/${model.surface.name}/${name}`, text);
    if (model.surface.fixtures)
      for (const [name, text] of Object.entries(emitFixtures(model))) files.set(`${FIXTURES_DIR}/${name}`, text);
  }
  return { problems, files, models };
}

/** The files of `src/generated/runtime/`, shared by every surface. */
export function emitRuntime(): Record<string, string> {
  return {
    'method-table.ts': runtimeHeader() + METHOD_TABLE_RUNTIME,
    'client.ts': runtimeHeader() + CLIENT_RUNTIME,
  };
}

/** The files of `src/generated/<surface>/`. */
export function emitSurface(model: DocumentModel): Record<string, string> {
  return {
    'types.ts': emitTypes(model),
    ...emitValidators(model),
    'errors.ts': emitErrors(model),
    'methods.ts': emitMethods(model),
    'handlers.ts': emitHandlers(model),
    'client.ts': emitClient(model),
    'index.ts': emitIndex(model),
  };
}

function emitIndex(model: DocumentModel): string {
  return `${header(model.surface)}/** Everything generated from ${model.surface.file}. @module */
export type * from './types.ts';
export * from './errors.ts';
export * from './methods.ts';
export type * from './handlers.ts';
export * from './client.ts';
`;
}
