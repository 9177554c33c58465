/**
 * JSON with bigints, for the engine values stored as text (block bodies, checkpoints). A bigint
 * is written as "#" + hex; no engine value holds a string, so the prefix cannot collide.
 * @module
 */

/** JSON.stringify that keeps bigints. */
export function encodeJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? '#' + v.toString(16) : v));
}

/** The inverse of encodeJson. */
export function decodeJson<T>(text: string): T {
  return JSON.parse(text, (_k, v) => (typeof v === 'string' && v.startsWith('#') ? BigInt('0x' + v.slice(1)) : v)) as T;
}
