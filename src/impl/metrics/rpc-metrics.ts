/**
 * The JSON-RPC families and the `RpcObserver` each port's server calls. Label values are bounded:
 * a method label comes from the port's method table (the OpenRPC documents) or is `unknown`, an
 * outcome is `ok` or a JSON-RPC error code, a status an HTTP status. A method's handle is taken
 * once per method when the server is built and keeps its children (made on first use), so a call
 * costs field reads and the counter and histogram updates, no label lookup.
 * @module
 */
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { RpcMethodObserver, RpcObserver } from '../../server/types.ts';

/** The method label of every name not in a port's table. */
export const UNKNOWN_METHOD = 'unknown';

/** Seconds; a cheap call answers in well under a millisecond, a block read or simulation in tens. */
const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Requests in a batch (the default --max-batch-size is 100). */
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

type Surface = 'public' | 'admin';

/** The RPC families on one registry; `observer(surface)` gives each port its handle. */
export class RpcMetrics {
  readonly #requests: Counter<'surface' | 'method' | 'outcome'>;
  readonly #duration: Histogram<'surface' | 'method'>;
  readonly #batch: Histogram<'surface'>;
  readonly #responses: Counter<'surface' | 'status'>;
  readonly #inFlight: Gauge<'surface'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.#requests = new Counter({
      name: 'l2node_rpc_requests_total', help: 'JSON-RPC calls by port (surface), method (unknown for names not in the port\'s document) and outcome (ok or the JSON-RPC error code)',
      labelNames: ['surface', 'method', 'outcome'], registers,
    });
    this.#duration = new Histogram({
      name: 'l2node_rpc_request_duration_seconds', help: 'Time from dispatch to answer of a JSON-RPC call (validation and handler), by port and method',
      labelNames: ['surface', 'method'], buckets: LATENCY_BUCKETS, registers,
    });
    this.#batch = new Histogram({ name: 'l2node_rpc_batch_size', help: 'Requests per JSON-RPC batch', labelNames: ['surface'], buckets: BATCH_BUCKETS, registers });
    this.#responses = new Counter({ name: 'l2node_rpc_http_responses_total', help: 'HTTP answers of a JSON-RPC port by status (4xx: refused requests, 5xx: failures or shutting down)', labelNames: ['surface', 'status'], registers });
    this.#inFlight = new Gauge({ name: 'l2node_rpc_in_flight', help: 'JSON-RPC calls being handled now', labelNames: ['surface'], registers });
  }

  /** The observer of one port. */
  observer(surface: Surface): RpcObserver {
    const batch = this.#batch.labels(surface);
    const inFlight = this.#inFlight.labels(surface);
    inFlight.set(0);
    const statuses = new Map<number, Counter.Internal>();
    return {
      method: (name) => this.#method(surface, name ?? UNKNOWN_METHOD, inFlight),
      batch: (size) => batch.observe(size),
      responded: (status) => {
        let child = statuses.get(status);
        if (child === undefined) statuses.set(status, (child = this.#responses.labels(surface, String(status))));
        child.inc();
      },
    };
  }

  #method(surface: Surface, method: string, inFlight: Gauge.Internal<string>): RpcMethodObserver {
    // Children are made on the method's first call and kept: a scrape lists only methods called so far.
    let ok: Counter.Internal | undefined;
    let duration: Histogram.Internal<string> | undefined;
    const errors = new Map<number, Counter.Internal>();
    return {
      start() {
        inFlight.inc();
        return performance.now();
      },
      done: (started, code) => {
        inFlight.dec();
        (duration ??= this.#duration.labels(surface, method)).observe((performance.now() - started) / 1000);
        if (code === 0) return (ok ??= this.#requests.labels(surface, method, 'ok')).inc();
        let child = errors.get(code);
        if (child === undefined) errors.set(code, (child = this.#requests.labels(surface, method, String(code))));
        child.inc();
      },
    };
  }
}
