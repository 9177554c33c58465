/**
 * Emits `types.ts`: one type per component schema, then a Params tuple and a Result per method.
 * @module
 */
import type { DocumentModel } from './model.ts';
import { header, identifier, paramsType, resultType } from './emit-common.ts';
import { isInterfaceLike, objectType, toTs, tsDoc } from './schema-to-ts.ts';

/** The source of `src/generated/<surface>/types.ts`. */
export function emitTypes(model: DocumentModel): string {
  const out: string[] = [];
  out.push(
    `/**\n * Wire types of ${model.title} (${model.surface.file}): one per \`components/schemas\` entry,\n * then \`<Method>Params\` and \`<Method>Result\` per method.\n * @module\n */\n`,
  );
  for (const [name, schema] of model.schemas) {
    const doc = tsDoc((schema.description ?? schema.title) as string | undefined);
    if (isInterfaceLike(schema))
      out.push(`${doc}export interface ${name} ${objectType(schema, '', model.requestOnly.has(name))}\n`);
    else out.push(`${doc}export type ${name} = ${toTs(schema)};\n`);
  }
  for (const m of model.methods) {
    const elems = m.params.map((p) => `${identifier(p.name)}${p.required ? '' : '?'}: ${toTs(p.schema)}`);
    out.push(`/** Params of \`${m.name}\`. */\nexport type ${paramsType(m)} = [${elems.join(', ')}];\n`);
    out.push(
      `/** Result of \`${m.name}\`. */\nexport type ${resultType(m)} = ${m.isVoid ? 'void' : toTs(m.result)};\n`,
    );
  }
  return header(model.surface) + out.join('\n');
}
