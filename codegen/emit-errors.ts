/**
 * Emits `errors.ts`: the ErrorCode catalogue, each error's message and the type of its data.
 * @module
 */
import type { DocumentModel } from './model.ts';
import { header } from './emit-common.ts';
import { toTs } from './schema-to-ts.ts';
import { typeImports } from './type-imports.ts';

/** The source of `src/generated/<surface>/errors.ts`. */
export function emitErrors(model: DocumentModel): string {
  const codes = model.errors.map((e) => `  ${e.name}: ${e.code},`);
  const messages = model.errors.map((e) => `  ${e.name}: ${JSON.stringify(e.message)},`);
  const data = model.errors.map((e) => `  ${e.name}: ${e.dataSchema ? toTs(e.dataSchema, '  ') : 'undefined'};`);
  const imports = typeImports(model.errors.flatMap((e) => (e.dataSchema ? [e.dataSchema] : [])));
  return `${header(model.surface)}/**
 * The error catalogue of ${model.surface.file} (\`components/errors\`): codes, messages, data types.
 * @module
 */
${imports}
/** Every declared JSON-RPC error code, by catalogue name. */
export const ErrorCode = {
${codes.join('\n')}
} as const;

/** One declared error code. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The catalogue name of an error (\`BLOCK_NOT_YET_SYNCED\`). */
export type ErrorName = keyof typeof ErrorCode;

/**
 * The message template of each error: \`<name>\` stands for \`data.name\` (an array joined by \`, \`),
 * or for free text in an error without data.
 */
export const ErrorMessage: { readonly [K in ErrorName]: string } = {
${messages.join('\n')}
};

/** The type of each error's \`data\` (its \`x-errors\` \`dataSchema\`); null where it carries none. */
export interface ErrorData {
${data.join('\n')}
}
`;
}
