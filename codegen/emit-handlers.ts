/**
 * Emits `handlers.ts`: the interface the hand-written handlers implement, one member per method,
 * grouped by tag, and the JSON-RPC name of each member (a role that does not serve a method names
 * it in its -32001). The typed client implements the same interface.
 * @module
 */
import type { DocumentModel, MethodModel } from './model.ts';
import { byTag, header, identifier } from './emit-common.ts';
import { toTs } from './schema-to-ts.ts';
import { typeImports } from './type-imports.ts';

/** `getBlock(blockNumber: BlockParameter): Promise<L2Block | null>` */
export function signature(m: MethodModel, indent: string): string {
  const args = m.params.map((p) => `${identifier(p.name)}${p.required ? '' : '?'}: ${toTs(p.schema, indent)}`);
  return `${m.handler}(${args.join(', ')}): Promise<${m.isVoid ? 'void' : toTs(m.result, indent)}>`;
}

/** TSDoc for a method member: summary, wire name, deprecation. */
export function memberDoc(m: MethodModel, indent: string): string {
  const lines = [m.summary || m.name, `- JSON-RPC: \`${m.name}\``];
  if (m.extension) lines.push('- Aztec 4.1 extension (not in SPEC.md).');
  if (m.deprecated) lines.push(`@deprecated ${m.description ?? m.summary}`.replaceAll('\n', ' '));
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l.replaceAll('*/', '*\\/')}`).join('\n')}\n${indent} */\n`;
}

/** Every schema a surface's signatures mention (for the type imports). */
export function signatureSchemas(model: DocumentModel) {
  return model.methods.flatMap((m) => [...m.params.map((p) => p.schema), m.result]);
}

/** `publicMethodNames`: the const mapping each handler member to its JSON-RPC name. */
export function methodNamesConst(model: DocumentModel): string {
  return `${model.surface.name}MethodNames`;
}

/** The source of `src/generated/<surface>/handlers.ts`. */
export function emitHandlers(model: DocumentModel): string {
  const body: string[] = [];
  for (const [tag, methods] of byTag(model.methods)) {
    body.push(`  // --- ${tag} ---\n`);
    for (const m of methods) body.push(`${memberDoc(m, '  ')}  ${signature(m, '  ')};\n`);
  }
  return `${header(model.surface)}/**
 * The handler interface for ${model.surface.file}: the server calls \`handlers[descriptor.handler]\`
 * with validated params (absent or null optionals as undefined) and sends the result.
 * @module
 */
${typeImports(signatureSchemas(model))}
/** One member per method of ${model.surface.file}, named by the Aztec client name. */
export interface ${model.surface.handlersType} {
${body.join('\n')}}

/** The JSON-RPC name of each member of ${model.surface.handlersType} (\`${model.methods[0]?.handler}\` → \`${model.methods[0]?.name}\`). */
export const ${methodNamesConst(model)}: { readonly [K in keyof ${model.surface.handlersType}]: string } = {
${model.methods.map((m) => `  ${m.handler}: '${m.name}',\n`).join('')}};
`;
}
