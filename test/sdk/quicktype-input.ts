/**
 * Feeds an OpenRPC document to quicktype as an SDK team would: the components are the schema's
 * definitions, and each method's result and each error's data is a top-level type, named by its
 * component (`NullableL2Block`, `InvalidParamsErrorData`).
 * @module
 */
import { FetchingJSONSchemaStore, InputData, JSONSchemaInput, quicktype, type JSONSchema } from 'quicktype-core';

type Json = Record<string, unknown>;

const COMPONENT_REF = '#/components/schemas/';
const ADDRESS = 'openrpc.json';

/** The component a method's result (or an error's data) points at, or undefined for an inline schema. */
export function componentOf(schema: unknown): string | undefined {
  const ref = (schema as Json | undefined)?.$ref;
  return typeof ref === 'string' && ref.startsWith(COMPONENT_REF) ? ref.slice(COMPONENT_REF.length) : undefined;
}

/** The type a result decodes to: a component, and whether `null` is also an answer. */
export interface ResultType {
  readonly name: string;
  readonly nullable: boolean;
}

/**
 * Method name → its result's type. A `Nullable<X>` result is X, nullable: SDKs decode the `null`
 * themselves (a nil pointer, None, Option) and quicktype's Go output cannot name a top-level union.
 */
export function resultTypes(doc: Json): Map<string, ResultType> {
  const schemas = (doc.components as Json).schemas as Record<string, Json>;
  const out = new Map<string, ResultType>();
  for (const m of doc.methods as Json[]) {
    const name = componentOf((m.result as Json | undefined)?.schema);
    if (name === undefined) throw new Error(`${String(m.name)}: result is not a component`);
    const branches = (schemas[name]?.oneOf ?? []) as Json[];
    const inner = branches.map(componentOf);
    const nonNull = inner.filter((b) => b !== 'Null');
    if (branches.length === 2 && nonNull.length === 1 && nonNull[0] !== undefined)
      out.set(String(m.name), { name: nonNull[0], nullable: true });
    else out.set(String(m.name), { name, nullable: name === 'Null' });
  }
  return out;
}

/** The top-level types: every result type (except `Null`) and every `*ErrorData`. */
export function topLevelTypes(doc: Json): string[] {
  const schemas = (doc.components as Json).schemas as Json;
  const names = new Set([...resultTypes(doc).values()].map((r) => r.name).filter((n) => n !== 'Null'));
  for (const name of Object.keys(schemas)) if (name.endsWith('ErrorData')) names.add(name);
  return [...names].sort();
}

/** A store that answers the document (as a draft-07 schema with `definitions`) for one address. */
class DocumentStore extends FetchingJSONSchemaStore {
  private readonly schema: JSONSchema;
  constructor(doc: Json) {
    super();
    const definitions = JSON.parse(
      JSON.stringify((doc.components as Json).schemas).replaceAll(`"${COMPONENT_REF}`, '"#/definitions/'),
    );
    this.schema = { $schema: 'http://json-schema.org/draft-07/schema#', definitions } as JSONSchema;
  }
  override async fetch(address: string): Promise<JSONSchema | undefined> {
    return address === ADDRESS ? this.schema : undefined;
  }
}

/** Source text of `lang` types for the document's top-level types. */
export async function quicktypeSource(
  doc: Json,
  lang: 'python' | 'go' | 'rust',
  rendererOptions: Record<string, string> = {},
): Promise<string> {
  const input = new JSONSchemaInput(new DocumentStore(doc));
  for (const name of topLevelTypes(doc)) await input.addSource({ name, uris: [`${ADDRESS}#/definitions/${name}`] });
  const inputData = new InputData();
  inputData.addInput(input);
  const result = await quicktype({ inputData, lang, rendererOptions, inferEnums: false });
  return result.lines.join('\n');
}
