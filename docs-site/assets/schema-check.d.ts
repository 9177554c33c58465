/** Types of schema-check.js, the browser-side JSON Schema checker. @module */
/** One schema violation: where, and which rule. */
export interface SchemaProblem {
  path: string;
  message: string;
}
/** Checks `value` against `schema`; `$ref`s resolve against `root`. */
export function checkSchema(value: unknown, schema: unknown, root: unknown, path?: string): SchemaProblem[];
/** A short human name of a schema. */
export function label(schema: unknown, root?: unknown): string;
/** Resolves a local JSON pointer inside `root`. */
export function resolvePointer(root: unknown, ref: string): any;
