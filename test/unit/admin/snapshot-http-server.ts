/**
 * A PUT/GET file server on 127.0.0.1 for snapshot tests (what an nginx `dav_methods PUT` or a
 * presigned object store does): stores PUT bodies in memory by path, serves them back on GET,
 * and records every request. `behaviour` switches it to refusing PUTs, corrupting one byte of
 * each GET, or never answering.
 * @module
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server answers. */
export type SnapshotServerBehaviour = 'store' | 'forbid-put' | 'tamper-get' | 'never-answer';

/** One request as the server saw it. */
export interface SeenRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly bodyBytes: number;
}

/** A running test server. */
export interface SnapshotHttpServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Stored bodies by path (without query). */
  readonly files: Map<string, Buffer>;
  readonly seen: SeenRequest[];
  behaviour: SnapshotServerBehaviour;
  close(): Promise<void>;
}

/** Starts a server on a free port. */
export async function startSnapshotHttpServer(
  behaviour: SnapshotServerBehaviour = 'store',
): Promise<SnapshotHttpServer> {
  const files = new Map<string, Buffer>();
  const seen: SeenRequest[] = [];
  const state: { behaviour: SnapshotServerBehaviour } = { behaviour };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyBytes: body.length });
      if (state.behaviour === 'never-answer') return;
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'PUT') {
        if (state.behaviour === 'forbid-put') {
          res.writeHead(403, { 'content-type': 'text/plain' }).end('signature does not match');
          return;
        }
        files.set(path, body);
        res.writeHead(201).end();
        return;
      }
      const stored = files.get(path);
      if (req.method !== 'GET' || stored === undefined) {
        res.writeHead(404).end();
        return;
      }
      const served = Buffer.from(stored);
      const middle = Math.floor(served.length / 2);
      if (state.behaviour === 'tamper-get' && path.endsWith('.sqlite')) served[middle] = served[middle]! ^ 0xff;
      res.writeHead(200, { 'content-length': String(served.length) }).end(served);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    files,
    seen,
    get behaviour() {
      return state.behaviour;
    },
    set behaviour(b) {
      state.behaviour = b;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
