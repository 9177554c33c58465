/**
 * The metrics listener: `GET /metrics` in the Prometheus text format (prom-client's own
 * exposition), on its own port (`--metrics-port`), never the public or admin JSON-RPC port. It
 * serves nothing else (404), answers only GET and HEAD (405), and is not started at all without
 * the flag, so nothing listens then.
 * @module
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../server/types.ts';
import type { NodeMetrics } from './node-metrics.ts';

/** A started metrics listener. */
export interface MetricsServer {
  readonly address: { host: string; port: number };
  close(): Promise<void>;
}

/** Starts listening on `port` (0 picks a free one) at `host`. */
export async function startMetricsServer(
  metrics: NodeMetrics,
  port: number,
  host: string,
  logger: Logger,
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics')
      return void res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('Not Found: metrics are served at GET /metrics\n');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return void res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method Not Allowed\n');
    metrics
      .refresh()
      .catch((err: unknown) =>
        logger.warn("metrics: reading the node's levels failed", { err: (err as Error).message }),
      )
      .then(() => metrics.registry.metrics())
      .then(
        (text) => {
          res.writeHead(200, {
            'content-type': metrics.registry.contentType,
            'content-length': Buffer.byteLength(text),
          });
          res.end(req.method === 'HEAD' ? undefined : text);
        },
        (err: unknown) => {
          logger.error('metrics: scrape failed', { err });
          res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
        },
      );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  return {
    address: { host: bound.address, port: bound.port },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
