/**
 * The JSON-RPC families and the `RpcObserver` each port's server calls. Label values are bounded:
 * a method label comes from the port's method table (the OpenRPC documents) or is `unknown`, an
 * outcome is `ok` or a JSON-RPC error code, a status an HTTP status.
 *
 * Hot path: a call adds to plain numbers in its method's record (taken once per method when the
 * server is built), two `performance.now()` and a bucket search — no label hashing. prom-client's
 * own children hash their label values on every `inc`/`observe` (several hundred ns each, about as
 * much as a whole cheap call), so the records are handed to prom-client only when scraped, as
 * metrics the registry formats (`ScrapedMetric`).
 * @module
 */
import type { Registry } from 'prom-client';
import type { RpcMethodObserver, RpcObserver } from '../../server/types.ts';
import { counterValues, HistogramData, histogramValues, registerScraped } from './scraped-metric.ts';
import type { MetricValue } from './scraped-metric.ts';

/** The method label of every name not in a port's table. */
export const UNKNOWN_METHOD = 'unknown';

/** Seconds; a cheap call answers in well under a millisecond, a block read or simulation in tens. */
const LATENCY_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];
/** Requests in a batch (the default --max-batch-size is 100). */
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

type Surface = 'public' | 'admin';

/** One method's numbers on one port. */
class MethodRecord implements RpcMethodObserver {
  ok = 0;
  readonly errors = new Map<number, number>();
  readonly latency = new HistogramData(LATENCY_BUCKETS);
  readonly #port: PortRecord;

  constructor(port: PortRecord) {
    this.#port = port;
  }

  start(): number {
    this.#port.inFlight++;
    return performance.now();
  }

  done(started: number, code: number): void {
    this.#port.inFlight--;
    this.latency.observe((performance.now() - started) / 1000);
    if (code === 0) this.ok++;
    else this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }
}

/** One port's numbers. */
class PortRecord {
  inFlight = 0;
  readonly methods = new Map<string, MethodRecord>();
  readonly statuses = new Map<number, number>();
  readonly batches = new HistogramData(BATCH_BUCKETS);
}

/** The RPC families on one registry; `observer(surface)` gives each port its handle. */
export class RpcMetrics {
  readonly #ports = new Map<Surface, PortRecord>();

  constructor(registry: Registry) {
    const each = (fn: (surface: Surface, port: PortRecord) => MetricValue[]) => () =>
      [...this.#ports].flatMap(([s, p]) => fn(s, p));
    registerScraped(
      registry,
      'l2node_rpc_requests_total',
      'counter',
      "JSON-RPC calls by port (surface), method (unknown for names not in the port's document) and outcome (ok or the JSON-RPC error code)",
      each((surface, port) =>
        [...port.methods].flatMap(([method, m]) => [
          ...(m.ok > 0 ? counterValues({ surface, method, outcome: 'ok' }, m.ok) : []),
          ...[...m.errors].flatMap(([code, n]) => counterValues({ surface, method, outcome: String(code) }, n)),
        ]),
      ),
    );
    registerScraped(
      registry,
      'l2node_rpc_request_duration_seconds',
      'histogram',
      'Time from dispatch to answer of a JSON-RPC call (validation and handler), by port and method',
      each((surface, port) =>
        [...port.methods].flatMap(([method, m]) =>
          m.latency.count === 0
            ? []
            : histogramValues('l2node_rpc_request_duration_seconds', { surface, method }, m.latency),
        ),
      ),
    );
    registerScraped(
      registry,
      'l2node_rpc_batch_size',
      'histogram',
      'Requests per JSON-RPC batch',
      each((surface, port) => histogramValues('l2node_rpc_batch_size', { surface }, port.batches)),
    );
    registerScraped(
      registry,
      'l2node_rpc_http_responses_total',
      'counter',
      'HTTP answers of a JSON-RPC port by status (4xx: refused requests, 5xx: failures or shutting down)',
      each((surface, port) =>
        [...port.statuses].flatMap(([status, n]) => counterValues({ surface, status: String(status) }, n)),
      ),
    );
    registerScraped(
      registry,
      'l2node_rpc_in_flight',
      'gauge',
      'JSON-RPC calls being handled now',
      each((surface, port) => [{ labels: { surface }, value: port.inFlight }]),
    );
  }

  /** The observer of one port. */
  observer(surface: Surface): RpcObserver {
    const port = new PortRecord();
    this.#ports.set(surface, port);
    return {
      method: (name) => {
        const label = name ?? UNKNOWN_METHOD;
        let m = port.methods.get(label);
        if (m === undefined) port.methods.set(label, (m = new MethodRecord(port)));
        return m;
      },
      batch: (size) => port.batches.observe(size),
      responded: (status) => void port.statuses.set(status, (port.statuses.get(status) ?? 0) + 1),
    };
  }
}
