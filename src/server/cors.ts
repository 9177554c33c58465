/**
 * CORS per port: an origin allow-list (`--cors-origin`, `--admin-cors-origin`). `*` answers every
 * origin with `*`; a listed origin gets exactly itself back (with `Vary: Origin`); any other origin
 * gets no CORS header, its preflight is refused and its requests are refused with 403 before the key
 * or the body is read. `Access-Control-Allow-Credentials` is never sent (docs/OPERATIONS.md
 * "Browser safety and hostile callers").
 * @module
 */
import type { ServerResponse } from 'node:http';

/** Headers a browser may send; `x-api-key` and `authorization` carry the admin key (SPEC §5). */
export const CORS_ALLOW_HEADERS = 'content-type, x-api-key, authorization';

const NO_HEADERS: readonly string[] = [];

/** One port's origin allow-list, as the request handler asks it. */
export interface CorsPolicy {
  /** Whether a request carrying `origin` (undefined: no Origin header) may be served. */
  allows(origin: string | undefined): boolean;
  /** The CORS headers of an answer to a request with `origin`, as `[name, value, …]` pairs for `writeHead`. */
  headerPairs(origin: string | undefined): readonly string[];
}

/** Builds the policy of one port from its allow-list (`*`, or origins such as `https://docs.example`). */
export function createCorsPolicy(allowed: readonly string[]): CorsPolicy {
  if (allowed.includes('*')) {
    // Laid out once (issue #12: no header building per request on the hot path).
    const pairs = ['access-control-allow-origin', '*'];
    return { allows: () => true, headerPairs: () => pairs };
  }
  const origins = new Set(allowed.map((o) => o.toLowerCase()));
  return {
    // A caller without Origin is not a browser page (or a same-origin one): CORS does not concern it.
    allows: (origin) => origin === undefined || origins.has(origin.toLowerCase()),
    headerPairs: (origin) =>
      origin !== undefined && origins.has(origin.toLowerCase())
        ? ['access-control-allow-origin', origin, 'vary', 'Origin']
        : NO_HEADERS,
  };
}

/** Answers an allowed preflight with 204: the allow-origin pairs plus the methods and headers a client needs. */
export function answerPreflight(res: ServerResponse, pairs: readonly string[]): void {
  res
    .writeHead(204, [
      ...pairs,
      'access-control-allow-methods',
      'POST, GET, OPTIONS',
      'access-control-allow-headers',
      CORS_ALLOW_HEADERS,
      'access-control-max-age',
      '86400',
    ])
    .end();
}
