/**
 * The baseline: a bare node:http JSON-RPC server that answers the same bytes as the node for the
 * same request. It parses each body (single or batch), looks the result up by method and params
 * in a table recorded from the node, and writes `{"jsonrpc":"2.0","id":…,"result":…}` with the
 * node's response headers. No validation, no dispatch, no engine: the floor of node:http + JSON.
 *
 * Run: node bench/rpc/bare-server.ts <recording.json>  (prints {"port":N} once listening; stops on SIGTERM)
 * @module
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';

/** A recorded table: raw result JSON by `method + "\0" + JSON.stringify(params)`, plus the node's headers. */
export interface Recording {
  readonly headers: Readonly<Record<string, string>>;
  readonly results: Readonly<Record<string, string>>;
}

/** The lookup key of a request. */
export const recordingKey = (method: unknown, params: unknown): string =>
  `${String(method)}\0${JSON.stringify(params ?? [])}`;

/** Answers one parsed request object from the table (an internal error object when unknown). */
function answer(results: Recording['results'], req: { id?: unknown; method?: unknown; params?: unknown }): string {
  const raw = results[recordingKey(req.method, req.params)];
  const id = JSON.stringify(req.id ?? null);
  return raw === undefined
    ? `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"Method not found"}}`
    : `{"jsonrpc":"2.0","id":${id},"result":${raw}}`;
}

if (import.meta.main) {
  const rec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Recording;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
      const body = Array.isArray(parsed)
        ? `[${parsed.map((r) => answer(rec.results, r as object)).join(',')}]`
        : answer(rec.results, parsed as object);
      res.writeHead(200, { ...rec.headers, 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  server.listen(0, '127.0.0.1', () =>
    process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port }) + '\n'),
  );
  process.once('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    process.exit(0);
  });
}
