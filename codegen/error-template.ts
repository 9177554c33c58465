/**
 * Error message templates (docs/ARCHITECTURE.md, "the error catalogue"): each `components/errors`
 * `message` is the template of the message the node sends, e.g.
 * `Block <requested> not yet synced (world state is at block <latest>)`. A placeholder `<name>` is
 * the member `name` of the error's `data` (an array is its items joined by `, `); in an error
 * that carries no `data` it is free text (`Parse error: <detail>`).
 * @module
 */

const PLACEHOLDER = /<([A-Za-z][A-Za-z0-9]*)>/g;

/** The placeholder names of a template, in order. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** The message for `data`; throws when a placeholder has no member in `data`. */
export function renderMessage(template: string, data: unknown): string {
  const record = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  return template.replace(PLACEHOLDER, (_, name: string) => {
    if (!Object.hasOwn(record, name))
      throw new Error(`data has no member "${name}" for the message template "${template}"`);
    const value = record[name];
    return Array.isArray(value) ? value.map(String).join(', ') : String(value);
  });
}

/**
 * null when `message` is an instance of `template` for `data`: exactly the rendered template when
 * `data` is present, else the template with each placeholder standing for some non-empty text.
 */
export function messageProblem(template: string, message: string, data: unknown): string | null {
  if (data !== undefined && data !== null) {
    let expected: string;
    try {
      expected = renderMessage(template, data);
    } catch (error) {
      return (error as Error).message;
    }
    return message === expected
      ? null
      : `message "${message}" is not the template "${template}" for its data ("${expected}")`;
  }
  const pattern = new RegExp(
    `^${template
      .split(PLACEHOLDER)
      .map((part, i) => (i % 2 === 1 ? '.+' : escapeRegExp(part)))
      .join('')}$`,
    's',
  );
  return pattern.test(message) ? null : `message "${message}" does not fit the template "${template}"`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
