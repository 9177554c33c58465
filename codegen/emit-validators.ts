/**
 * Emits `validators.js` (params) and `result-validators.js` (results), ajv 8 standalone code
 * compiled here, never at run time, each with its `.d.ts`. Plain JavaScript plus a declaration file, because ajv's output is untyped
 * and a `@ts-nocheck` .ts file would hide that from the type checker.
 * @module
 */
import standalone from 'ajv/dist/standalone/index.js';
import ts from 'typescript';
import type { DocumentModel } from './model.ts';
import { createDocumentAjv, schemaId } from './ajv-schemas.ts';
import type { Side } from './ajv-schemas.ts';
import { header, validatorName } from './emit-common.ts';

// CommonJS seen from ESM: the function is the module itself, typed as its `default`.
const standaloneCode = standalone as unknown as typeof standalone.default;

/**
 * `{ 'validators.js': …, 'validators.d.ts': …, 'result-validators.js': …, 'result-validators.d.ts': … }`
 * for a document: param validators from the request-side ajv, result validators from the response side.
 */
export function emitValidators(model: DocumentModel): Record<string, string> {
  const params: Record<string, string> = {};
  const results: Record<string, string> = {};
  for (const m of model.methods) {
    m.params.forEach((_, i) => {
      params[validatorName(m, i)] = schemaId(m.name, i);
    });
    results[validatorName(m, 'result')] = schemaId(m.name, 'result');
  }
  return {
    ...emitSide(
      model,
      'request',
      'validators',
      'one per method param (requests: unknown members removed, hex lower-cased in place)',
      params,
    ),
    ...emitSide(model, 'response', 'result-validators', 'one per method result', results),
  };
}

function emitSide(
  model: DocumentModel,
  side: Side,
  file: string,
  what: string,
  exports: Record<string, string>,
): Record<string, string> {
  const ajv = createDocumentAjv(model, true, side);
  // ajv emits require() for its runtime helpers (ucs2length, equal) even in ESM mode.
  const code = format(standaloneCode(ajv, exports).replace(/^"use strict";/, ''));
  const js = `${header(model.surface)}/** ajv standalone validators, ${what}. @module */\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${code}\n`;
  const dts = [
    header(model.surface),
    `/** Types of the ajv standalone validators in ${file}.js. @module */\n`,
    `/** One ajv error; \`verbose\` output, so \`parentSchema\` is set. */\nexport interface ValidatorError {\n  readonly instancePath: string;\n  readonly schemaPath: string;\n  readonly keyword: string;\n  readonly params: Readonly<Record<string, unknown>>;\n  readonly message?: string;\n  readonly parentSchema?: Readonly<Record<string, unknown>>;\n}\n`,
    `/** A compiled validator: true when \`data\` is valid, else \`errors\` holds the failure path. A request-side one may replace \`data\` in \`parentData\` (hex lower-cased). */\nexport interface Validator {\n  (data: unknown, context?: { parentData?: unknown; parentDataProperty?: string | number }): boolean;\n  errors?: readonly ValidatorError[] | null;\n}\n`,
    ...Object.keys(exports).map((name) => `export declare const ${name}: Validator;`),
    '',
  ];
  return { [`${file}.js`]: js, [`${file}.d.ts`]: dts.join('\n') };
}

/** ajv emits one long line; reprinting with every block multi-line gives one statement per line. */
function format(code: string): string {
  const file = ts.createSourceFile('validators.js', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS);
  const multiLine = (context: ts.TransformationContext) => {
    const visit = (node: ts.Node): ts.Node => {
      const next = ts.visitEachChild(node, visit, context);
      return ts.isBlock(next)
        ? ts.factory.updateBlock(ts.factory.createBlock(next.statements, true), next.statements)
        : next;
    };
    return (root: ts.SourceFile) => visit(root) as ts.SourceFile;
  };
  const [formatted] = ts.transform(file, [multiLine]).transformed;
  return ts.createPrinter({ newLine: ts.NewLineKind.LineFeed }).printFile(formatted);
}
