/**
 * The text the pool stores for a tx: its wire JSON as it was sent, with `txHash` set to the
 * recomputed hash — exactly `JSON.stringify({ ...wire, txHash })` — written without scanning the
 * two base64 members for characters to escape. Those are ~134 KB of a bot tx: JSON.stringify and
 * the UTF-8 copy SQLite binds took ~0.55 ms per tx, this and the same copy ~0.25 ms (issue #21).
 * Every wire the pool takes has passed decodeTx, which accepts only strict base64 there (standard
 * alphabet and `=`), so they need no escaping.
 * @module
 */

/** Members decodeTx accepts only as strict base64. */
const BASE64_MEMBERS = new Set(['data', 'chonkProof']);

/** `JSON.stringify({ ...wire, txHash: txHashHex })` for a wire decodeTx accepted. */
export function poolWireJson(wire: object, txHashHex: string): string {
  const members = { ...(wire as Record<string, unknown>), txHash: txHashHex };
  // Concatenated, not joined: the base64 members are not copied here (the binder writes the
  // text out once, as UTF-8); an array join would copy all ~134 KB first.
  let text = '';
  for (const [key, value] of Object.entries(members)) {
    const json =
      BASE64_MEMBERS.has(key) && typeof value === 'string'
        ? `"${value}"`
        : (JSON.stringify(value) as string | undefined);
    // JSON.stringify leaves out members whose value has no JSON form (undefined, functions).
    if (json !== undefined) text += `${text === '' ? '' : ','}${JSON.stringify(key)}:${json}`;
  }
  return `{${text}}`;
}
