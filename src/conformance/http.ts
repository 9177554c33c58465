/**
 * Raw HTTP for the runner: the protocol suite needs exact control of method, headers and body and
 * to see status codes and headers, so this uses node:http rather than a JSON-RPC client.
 * @module
 */
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';

/** Where the implementation under test listens, and its admin key. */
export interface Endpoints {
  readonly publicUrl: string;
  readonly adminUrl: string;
  readonly apiKey?: string;
}

/** An HTTP answer, body as text. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** Options of one raw request. */
export interface RawRequest {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  readonly timeoutMs?: number;
}

/** Sends one request on a fresh connection and reads the whole answer. */
export function rawRequest(url: string, options: RawRequest = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      url,
      {
        method: options.method ?? 'POST',
        headers: options.headers,
        agent: false,
        timeout: options.timeoutMs ?? 30_000,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.once('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.once('error', reject);
      },
    );
    req.once('timeout', () => req.destroy(new Error(`no answer from ${url} within ${options.timeoutMs ?? 30_000} ms`)));
    // A server may answer (413, 401) and close before the whole body is written; that is not an error.
    req.once('error', (err) => !answered && reject(err));
    req.end(options.body);
  });
}

/** POSTs a JSON-RPC body as `application/json`, with the admin key in `x-api-key` when given. */
export function postJson(url: string, body: string, apiKey?: string): Promise<RawResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey !== undefined) headers['x-api-key'] = apiKey;
  return rawRequest(url, { body, headers });
}
