/**
 * Deep equality of JSON values with a readable structural diff: each difference names its path
 * (`$.result.header.globalVariables.slotNumber`), the expected and the actual value.
 * @module
 */

/** One difference between two JSON values. */
export interface Difference {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
  /** Set when a key is missing on one side, so `undefined` is not mistaken for a value. */
  readonly note?: 'missing' | 'unexpected';
}

/** Lists the differences between `expected` and `actual`, at most `max` of them. */
export function diffJson(expected: unknown, actual: unknown, max = 20): Difference[] {
  const out: Difference[] = [];
  walk(expected, actual, '$', out, max);
  return out;
}

function walk(expected: unknown, actual: unknown, path: string, out: Difference[], max: number): void {
  if (out.length >= max) return;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) {
      if (i >= actual.length)
        out.push({ path: `${path}[${i}]`, expected: expected[i], actual: undefined, note: 'missing' });
      else if (i >= expected.length)
        out.push({ path: `${path}[${i}]`, expected: undefined, actual: actual[i], note: 'unexpected' });
      else walk(expected[i], actual[i], `${path}[${i}]`, out, max);
      if (out.length >= max) return;
    }
    return;
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
    for (const key of keys) {
      const sub = /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
      if (!Object.hasOwn(actual, key))
        out.push({ path: sub, expected: expected[key], actual: undefined, note: 'missing' });
      else if (!Object.hasOwn(expected, key))
        out.push({ path: sub, expected: undefined, actual: actual[key], note: 'unexpected' });
      else walk(expected[key], actual[key], sub, out, max);
      if (out.length >= max) return;
    }
    return;
  }
  if (!Object.is(expected, actual)) out.push({ path, expected, actual });
}

/** Renders differences one per line: `$.result.x: expected 5, got 6`. */
export function formatDiff(diffs: readonly Difference[]): string {
  return diffs
    .map((d) => {
      if (d.note === 'missing') return `${d.path}: missing (expected ${show(d.expected)})`;
      if (d.note === 'unexpected') return `${d.path}: unexpected (got ${show(d.actual)})`;
      return `${d.path}: expected ${show(d.expected)}, got ${show(d.actual)}`;
    })
    .join('\n');
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
