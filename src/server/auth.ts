/**
 * Admin API key check (SPEC §5): the key comes as `x-api-key: <key>` or
 * `Authorization: Bearer <key>`; its SHA-256 is compared in constant time with the stored hash.
 * Runs on headers only, before the body is read. The key is never logged.
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthCheck } from './types.ts';

const BEARER = /^Bearer\s+(.+)$/i;

/** Creates the check for the key whose SHA-256 hex is `hashHex`. */
export function createApiKeyAuth(hashHex: string): AuthCheck {
  const expected = Buffer.from(hashHex, 'hex');
  if (expected.length !== 32) throw new Error('admin API key hash must be 32 bytes of hex');
  return (headers) => {
    const key = presentedKey(headers);
    if (key === undefined) return false;
    const digest = createHash('sha256').update(key, 'utf8').digest();
    return timingSafeEqual(digest, expected);
  };
}

/** Returns the key a request presents; `x-api-key` wins over `Authorization`, as in Aztec. */
function presentedKey(headers: Readonly<Record<string, string | string[] | undefined>>): string | undefined {
  const apiKey = first(headers['x-api-key']);
  if (apiKey !== undefined && apiKey !== '') return apiKey;
  const bearer = BEARER.exec(first(headers['authorization']) ?? '');
  return bearer === null ? undefined : bearer[1]!.trim();
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
