/**
 * The baseline: a bare node:http JSON-RPC server that answers the same bytes as the node for the
 * same request. It parses each body (single or batch), looks the result up by method and params
 * in a table recorded from the node, and writes `{"jsonrpc":"2.0","id":…,"result":…}` with the
 * node's response headers. No validation, no dispatch, no engine: the floor of node:http + JSON.
 *
 * `GET /gc` answers its garbage collections so far (count, pause seconds and pauses over 1 ms by
 * kind, from perf_hooks' gc entries), so a bench can set the node's collections against the
 * baseline's (bench/rpc/mixed-workload.ts).
 *
 * Run: node bench/rpc/bare-server.ts <recording.json>  (prints {"port":N} once listening; stops on SIGTERM)
 * @module
 */

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, PerformanceObserver } from 'node:perf_hooks';

/** A recorded table: raw result JSON by `method + "\0" + JSON.stringify(params)`, plus the node's headers. */
export interface Recording {
  readonly headers: Readonly<Record<string, string>>;
  readonly results: Readonly<Record<string, string>>;
}

/** The lookup key of a request. */
export const recordingKey = (method: unknown, params: unknown): string =>
  `${String(method)}\0${JSON.stringify(params ?? [])}`;

/** Headers node:http sets per response or connection: the bare server writes its own. */
const PER_RESPONSE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** Adds the node's answer to one request to a recording: its result's text and the node's headers. */
export function recordAnswer(
  rec: { headers: Record<string, string>; results: Record<string, string> },
  method: string,
  params: unknown,
  answer: { readonly headers: Readonly<Record<string, string>>; readonly body: string },
): void {
  for (const [k, v] of Object.entries(answer.headers)) if (!PER_RESPONSE_HEADERS.has(k)) rec.headers[k] = v;
  rec.results[recordingKey(method, params)] = JSON.stringify((JSON.parse(answer.body) as { result: unknown }).result);
}

/** Answers one parsed request object from the table (an internal error object when unknown). */
function answer(results: Recording['results'], req: { id?: unknown; method?: unknown; params?: unknown }): string {
  const raw = results[recordingKey(req.method, req.params)];
  const id = JSON.stringify(req.id ?? null);
  return raw === undefined
    ? `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"Method not found"}}`
    : `{"jsonrpc":"2.0","id":${id},"result":${raw}}`;
}

/** Collections by kind, as bench/lib/mixed-cause.ts GcKind. */
const gc: Record<string, { count: number; seconds: number; over1ms: number; over10ms: number }> = {};
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

if (import.meta.main) {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = GC_KINDS[(e as unknown as { detail: { kind: number } }).detail.kind] ?? 'other';
      const k = (gc[kind] ??= { count: 0, seconds: 0, over1ms: 0, over10ms: 0 });
      k.count++;
      k.seconds += e.duration / 1000;
      if (e.duration > 1) k.over1ms++;
      if (e.duration > 10) k.over10ms++;
    }
  }).observe({ entryTypes: ['gc'] });
  const rec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Recording;
  const server = createServer((req, res) => {
    if (req.method === 'GET') return void res.writeHead(200).end(JSON.stringify(gc));
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
