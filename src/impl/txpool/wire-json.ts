/**
 * The text the pool stores for a tx: its wire JSON as it was sent, with `txHash` set to the
 * recomputed hash — exactly `JSON.stringify({ ...wire, txHash })` — written without scanning the
 * two base64 members for characters to escape. Those are ~134 KB of a bot tx and JSON.stringify
 * spent ~0.5 ms per tx looking for escapes in them (issue #21); every wire the pool takes has
 * passed decodeTx, which accepts only strict base64 there (standard alphabet and `=`), so they
 * have none.
 * @module
 */

/** Members decodeTx accepts only as strict base64. */
const BASE64_MEMBERS = new Set(['data', 'chonkProof']);

/** `JSON.stringify({ ...wire, txHash: txHashHex })` for a wire decodeTx accepted. */
export function poolWireJson(wire: object, txHashHex: string): string {
  const members = { ...(wire as Record<string, unknown>), txHash: txHashHex };
  const parts: string[] = [];
  for (const [key, value] of Object.entries(members)) {
    const text =
      BASE64_MEMBERS.has(key) && typeof value === 'string'
        ? `"${value}"`
        : (JSON.stringify(value) as string | undefined);
    // JSON.stringify leaves out members whose value has no JSON form (undefined, functions).
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
