/**
 * Snapshot files over plain HTTP(S), the way object stores are reached without an SDK: PUT to
 * and GET from `<base URL>/<file name>` (S3/GCS presigned URLs, WebDAV, nginx `dav_methods PUT`).
 * The base URL's query string is kept on every file URL (a container-wide signature, e.g. an
 * Azure SAS token) and its userinfo is sent as Basic auth; neither ever reaches a message (see
 * displayLocation). Uses node:http(s) rather than fetch so that a streamed PUT carries an exact
 * Content-Length (S3 refuses chunked uploads) and so that a stalled socket is noticed: every
 * request fails after `idleTimeoutMs` without a byte moving in either direction.
 * @module
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { displayLocation } from './snapshot-files.ts';

/** Default for idleTimeoutMs: generous, since a store may be slow, but a dead peer does not hang the node. */
export const SNAPSHOT_HTTP_IDLE_TIMEOUT_MS = 60_000;

/** Largest snapshot.json accepted (it is a few hundred bytes). */
const MAX_METADATA_BYTES = 1 << 20;

/** Options of every snapshot HTTP request. */
export interface SnapshotHttpOptions {
  /** Fails a request after this long with no byte sent or received (default SNAPSHOT_HTTP_IDLE_TIMEOUT_MS). */
  readonly idleTimeoutMs?: number;
  /** Told of each chunk of a PUT body as it is read (progress lines). */
  readonly onBytesSent?: (bytes: number) => void;
}

/** A failed snapshot HTTP request; the message names the URL without credentials or query. */
export class SnapshotHttpError extends Error {
  /** The HTTP status when the server answered with one outside 2xx. */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'SnapshotHttpError';
    this.status = status;
  }
}

/** The URL of `fileName` under a base URL: the name is appended to the path, the query kept. */
export function snapshotFileUrl(base: URL, fileName: string): URL {
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${encodeURIComponent(fileName)}`;
  return url;
}

/** PUTs a file, streamed from disk with its exact Content-Length. */
export async function putFile(
  url: URL,
  path: string,
  contentType: string,
  options: SnapshotHttpOptions = {},
): Promise<void> {
  const { size } = await stat(path);
  const exchange = startExchange(url, 'PUT', { 'content-type': contentType, 'content-length': String(size) }, options);
  // The server may answer (e.g. 403) before the body is sent: its status is the better cause.
  const source = createReadStream(path);
  const onBytes = options.onBytesSent;
  if (onBytes !== undefined) source.on('data', (chunk) => onBytes(chunk.length));
  const sent = pipeline(source, exchange.request).catch((err: unknown) => err);
  const res = await exchange.response;
  if (!isSuccess(res)) {
    // No point sending the rest of the file.
    exchange.request.destroy();
    expectSuccess(url, 'PUT', res);
  }
  await drain(res);
  const sendError = await sent;
  if (sendError !== undefined) throw exchange.failure(sendError);
}

/** PUTs a small in-memory body. */
export async function putText(
  url: URL,
  body: string,
  contentType: string,
  options: SnapshotHttpOptions = {},
): Promise<void> {
  const bytes = Buffer.from(body, 'utf8');
  const exchange = startExchange(
    url,
    'PUT',
    { 'content-type': contentType, 'content-length': String(bytes.length) },
    options,
  );
  exchange.request.end(bytes);
  const res = await exchange.response;
  await drain(res);
  expectSuccess(url, 'PUT', res);
}

/** Sends a GET and waits for a 2xx response (anything else is drained and thrown as a SnapshotHttpError). */
async function startGet(url: URL, options: SnapshotHttpOptions) {
  const exchange = startExchange(url, 'GET', {}, options);
  exchange.request.end();
  const res = await exchange.response;
  if (!isSuccess(res)) {
    await drain(res);
    expectSuccess(url, 'GET', res);
  }
  return { exchange, res };
}

/** GETs a small text body (at most 1 MiB). */
export async function getText(url: URL, options: SnapshotHttpOptions = {}): Promise<string> {
  const { exchange, res } = await startGet(url, options);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of res) {
      length += (chunk as Buffer).length;
      if (length > MAX_METADATA_BYTES)
        throw new SnapshotHttpError(`GET ${displayLocation(url)}: body larger than ${MAX_METADATA_BYTES} bytes`);
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw exchange.failure(err);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** GETs a body streamed into `path` (created or truncated); fails past `maxBytes`. */
export async function getToFile(
  url: URL,
  path: string,
  maxBytes: number,
  options: SnapshotHttpOptions = {},
): Promise<void> {
  const { exchange, res } = await startGet(url, options);
  let received = 0;
  // A server sending more than snapshot.json announced is wrong; do not let it fill the disk.
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > maxBytes)
        done(
          new SnapshotHttpError(
            `GET ${displayLocation(url)}: body larger than the ${maxBytes} bytes snapshot.json announces`,
          ),
        );
      else done(null, chunk);
    },
  });
  try {
    await pipeline(res, limit, createWriteStream(path));
  } catch (err) {
    throw exchange.failure(err);
  }
}

interface Exchange {
  readonly request: ClientRequest;
  readonly response: Promise<IncomingMessage>;
  /** The error to throw for `cause`: a timeout or a transport error, worded without credentials or query. */
  failure(cause: unknown): Error;
}

function startExchange(
  url: URL,
  method: string,
  headers: Record<string, string>,
  options: SnapshotHttpOptions,
): Exchange {
  const idleTimeoutMs = options.idleTimeoutMs ?? SNAPSHOT_HTTP_IDLE_TIMEOUT_MS;
  const where = `${method} ${displayLocation(url)}`;
  let timedOut = false;
  const failure = (cause: unknown): Error => {
    if (cause instanceof SnapshotHttpError) return cause;
    if (timedOut) return new SnapshotHttpError(`${where}: no data moved for ${idleTimeoutMs} ms (timed out)`);
    return new SnapshotHttpError(`${where}: ${cause instanceof Error ? cause.message : String(cause)}`);
  };
  const client = url.protocol === 'https:' ? https : http;
  // A URL object gives its userinfo to the request as Basic auth.
  const request = client.request(url, { method, headers, timeout: idleTimeoutMs });
  request.on('timeout', () => {
    timedOut = true;
    request.destroy(new Error('timed out'));
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', (err) => reject(failure(err)));
  });
  // Later request errors (after the response) surface through the response stream.
  response.catch(() => undefined);
  return { request, response, failure };
}

function isSuccess(res: IncomingMessage): boolean {
  return res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300;
}

function expectSuccess(url: URL, method: string, res: IncomingMessage): void {
  // The status line only: an error body (e.g. S3's) can echo the signed request.
  if (!isSuccess(res))
    throw new SnapshotHttpError(
      `${method} ${displayLocation(url)}: HTTP ${res.statusCode} ${res.statusMessage ?? ''}`.trimEnd(),
      res.statusCode,
    );
}

/** Reads and discards a response body so the connection can be reused; errors do not matter here. */
async function drain(res: IncomingMessage): Promise<void> {
  try {
    for await (const _ of res);
  } catch {
    // The status is what counts.
  }
}
