/**
 * Works out which component types a generated file must import from `types.ts`.
 * @module
 */
import type { Schema } from './model.ts';

const COMPONENT_REF = '#/components/schemas/';

/** The component names referenced anywhere in `schemas`, in first-seen order. */
export function referencedTypes(schemas: readonly Schema[]): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_REF))
          found.add(value.slice(COMPONENT_REF.length));
        else walk(value);
      }
    }
  };
  walk(schemas);
  return [...found].filter((n) => !n.includes('/'));
}

/** `import type { A, B } from './types.ts';` (sorted), or '' when nothing is referenced. */
export function typeImports(schemas: readonly Schema[], extra: readonly string[] = []): string {
  const names = [...new Set([...referencedTypes(schemas), ...extra])].sort();
  if (names.length === 0) return '';
  return `import type {\n${names.map((n) => `  ${n},`).join('\n')}\n} from './types.ts';\n`;
}
