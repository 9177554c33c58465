/**
 * CORS for both ports: every answer names the allowed origin, and preflight `OPTIONS` requests
 * get the methods and headers a browser client needs (including the admin key headers).
 * @module
 */
import type { ServerResponse } from 'node:http';

/** Headers a browser may send; `x-api-key` and `authorization` carry the admin key (SPEC §5). */
export const CORS_ALLOW_HEADERS = 'content-type, x-api-key, authorization';

/** Sets the headers every response carries. */
export function setCorsHeaders(res: ServerResponse, origin: string): void {
  res.setHeader('access-control-allow-origin', origin);
  if (origin !== '*') res.setHeader('vary', 'Origin');
}

/** Answers a preflight request with 204. */
export function answerPreflight(res: ServerResponse): void {
  res.setHeader('access-control-allow-methods', 'POST, GET, OPTIONS');
  res.setHeader('access-control-allow-headers', CORS_ALLOW_HEADERS);
  res.setHeader('access-control-max-age', '86400');
  res.writeHead(204).end();
}
