/**
 * CORS for both ports: every answer names the allowed origin, and preflight `OPTIONS` requests
 * get the methods and headers a browser client needs (including the admin key headers).
 * @module
 */
import type { ServerResponse } from 'node:http';

/** Headers a browser may send; `x-api-key` and `authorization` carry the admin key (SPEC §5). */
export const CORS_ALLOW_HEADERS = 'content-type, x-api-key, authorization';

/** The headers every response carries, as `[name, value, …]` pairs for `writeHead`. */
export function corsHeaderPairs(origin: string): string[] {
  return origin === '*' ? ['access-control-allow-origin', origin] : ['access-control-allow-origin', origin, 'vary', 'Origin'];
}

/** Sets the headers every response carries (for answers not written through `writeHead` pairs). */
export function setCorsHeaders(res: ServerResponse, origin: string): void {
  const pairs = corsHeaderPairs(origin);
  for (let i = 0; i < pairs.length; i += 2) res.setHeader(pairs[i]!, pairs[i + 1]!);
}

/** Answers a preflight request with 204. */
export function answerPreflight(res: ServerResponse): void {
  res.setHeader('access-control-allow-methods', 'POST, GET, OPTIONS');
  res.setHeader('access-control-allow-headers', CORS_ALLOW_HEADERS);
  res.setHeader('access-control-max-age', '86400');
  res.writeHead(204).end();
}
