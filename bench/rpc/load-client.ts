/**
 * HTTP/1.1 load generator for JSON-RPC over keep-alive raw sockets, run as its own process so the
 * load does not share an event loop with the server under test. Closed loop (each connection sends
 * its next request when the previous answer is complete) or fixed rate (`rate` requests/s in
 * total, spread over idle connections). Latency is send-to-complete-answer, in microseconds
 * resolution. Every run is bounded by `durationMs`. Prints one JSON line (LoadResult) on stdout.
 *
 * Run: node bench/rpc/load-client.ts '<LoadOptions JSON>'  (or '-' to read the JSON from stdin)
 * @module
 */

import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { percentileSorted } from '../lib/stats.ts';

/** What to send, where, how hard and for how long. */
export interface LoadOptions {
  readonly port: number;
  /** The JSON-RPC request body sent on every request. */
  readonly body: string;
  /** When given, every answer body must equal this (else it counts as a mismatch). */
  readonly expect?: string;
  readonly connections: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  /** Total requests per second (fixed rate); absent for a closed loop. */
  readonly rate?: number;
  /**
   * A mixed workload instead of `body`/`expect`: requests cycle through the entries in proportion
   * to their weights (spread evenly, the same order every run); latency is also reported per entry.
   */
  readonly mix?: readonly { readonly body: string; readonly expect?: string; readonly weight: number }[];
}

/** Latency of one entry of a mixed workload. */
export interface ClassLatency {
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** What one load run measured (after the warm-up). */
export interface LoadResult {
  readonly requests: number;
  readonly errors: number;
  /** The errors by kind: `HTTP <status>`, `socket <code>` or `no content-length`. */
  readonly errorKinds: Readonly<Record<string, number>>;
  readonly mismatches: number;
  readonly seconds: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Fixed rate only: requests that could not be sent on time because no connection was idle. */
  readonly backlogged: number;
  /** With `mix`: latency per entry, in the order given. */
  readonly classes?: readonly ClassLatency[];
  /** Every answer received, warm-up included: divides a server's CPU time read around the whole run. */
  readonly answered: number;
  /** The load client's own CPU time over the run (user + system), in seconds. */
  readonly clientCpuSeconds: number;
}

/** Entry indexes in a fixed order whose counts follow the weights, each entry spread evenly (smooth weighted round robin). */
export function mixSchedule(weights: readonly number[]): number[] {
  const total = weights.reduce((a, w) => a + w, 0);
  const current = weights.map(() => 0);
  const out: number[] = [];
  for (let k = 0; k < total; k++) {
    let best = 0;
    for (let i = 0; i < weights.length; i++) {
      current[i]! += weights[i]!;
      if (current[i]! > current[best]!) best = i;
    }
    current[best]! -= total;
    out.push(best);
  }
  return out;
}

const MAX_SAMPLES = 4_000_000;
const HEADER_END = Buffer.from('\r\n\r\n');

/** Runs one load and resolves with its figures. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const toRequest = (body: string) =>
    Buffer.from(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1:${o.port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  const entries = o.mix ?? [{ body: o.body, expect: o.expect, weight: 1 }];
  const requests = entries.map((e) => toRequest(e.body));
  const expects = entries.map((e) => (e.expect === undefined ? undefined : Buffer.from(e.expect)));
  const schedule = mixSchedule(entries.map((e) => e.weight));
  let next = 0;
  const classSamples = entries.map(() => [] as number[]);
  const samples = new Float64Array(MAX_SAMPLES);
  let n = 0;
  let errors = 0;
  const errorKinds: Record<string, number> = {};
  const failed = (kind: string) => {
    errors++;
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  };
  let mismatches = 0;
  let backlogged = 0;
  let answered = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const measureFrom = t0 + o.warmupMs;
  const end = measureFrom + o.durationMs;

  interface Conn {
    socket: Socket;
    buf: Buffer | undefined;
    sentAt: number;
    busy: boolean;
    entry: number;
  }
  const idle: Conn[] = [];
  let issued = 0;
  let rateStart = 0;

  const send = (c: Conn) => {
    c.busy = true;
    c.entry = schedule[next++ % schedule.length]!;
    c.sentAt = performance.now();
    c.socket.write(requests[c.entry]!);
  };
  const onAnswer = (c: Conn, status: number, body: Buffer) => {
    const now = performance.now();
    c.busy = false;
    answered++;
    if (now >= measureFrom && c.sentAt >= measureFrom && now <= end) {
      if (status !== 200) failed(`HTTP ${status}`);
      else if (expects[c.entry] !== undefined && !expects[c.entry]!.equals(body)) mismatches++;
      if (n < MAX_SAMPLES) samples[n] = now - c.sentAt;
      if (o.mix !== undefined) classSamples[c.entry]!.push(now - c.sentAt);
      n++;
    }
    if (now >= end) return;
    if (o.rate === undefined) return send(c);
    if (issued < due(now)) {
      issued++;
      return send(c);
    }
    idle.push(c);
  };
  const due = (now: number) => Math.floor(((now - rateStart) * o.rate!) / 1000);

  const conns = await Promise.all(
    Array.from(
      { length: o.connections },
      () =>
        new Promise<Conn>((resolve, reject) => {
          const socket = connect({ host: '127.0.0.1', port: o.port, noDelay: true }, () => resolve(c));
          const c: Conn = { socket, buf: undefined, sentAt: 0, busy: false, entry: 0 };
          socket.once('error', reject);
          socket.on('data', (chunk: Buffer) => {
            c.buf = c.buf === undefined ? chunk : Buffer.concat([c.buf, chunk]);
            for (;;) {
              const b: Buffer = c.buf!;
              const h = b.indexOf(HEADER_END);
              if (h < 0) return;
              const head = b.toString('latin1', 0, h);
              const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
              if (m === null) {
                failed('no content-length');
                socket.destroy();
                return;
              }
              const total = h + 4 + Number(m[1]);
              if (b.length < total) return;
              const body = b.subarray(h + 4, total);
              c.buf = b.length === total ? undefined : b.subarray(total);
              onAnswer(c, Number(head.slice(9, 12)), body);
              if (c.buf === undefined) return;
            }
          });
        }),
    ),
  );
  for (const c of conns)
    c.socket.on('error', (err: NodeJS.ErrnoException) => failed(`socket ${err.code ?? err.message}`));

  if (o.rate === undefined) {
    for (const c of conns) send(c);
  } else {
    rateStart = performance.now();
    idle.push(...conns);
    const tick = () => {
      const now = performance.now();
      if (now >= end) return;
      const target = due(now);
      while (issued < target && idle.length > 0) {
        issued++;
        send(idle.pop()!);
      }
      if (issued < target) (backlogged += target - issued), (issued = target);
      setTimeout(tick, 1);
    };
    tick();
  }
  await new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, end - performance.now()) + 5));
  // Let in-flight answers come back briefly, then close.
  await new Promise<void>((resolve) => setTimeout(resolve, 50));
  for (const c of conns) c.socket.destroy();
  const cpu = process.cpuUsage(cpu0);
  const sorted = samples.subarray(0, Math.min(n, MAX_SAMPLES)).sort();
  const seconds = o.durationMs / 1000;
  return {
    requests: n,
    errors,
    errorKinds,
    mismatches,
    seconds,
    rps: n / seconds,
    p50Ms: percentileSorted(sorted, 50),
    p90Ms: percentileSorted(sorted, 90),
    p99Ms: percentileSorted(sorted, 99),
    maxMs: percentileSorted(sorted, 100),
    backlogged,
    answered,
    clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
    ...(o.mix === undefined
      ? {}
      : {
          classes: classSamples.map((xs) => {
            const c = Float64Array.from(xs).sort();
            return {
              requests: xs.length,
              p50Ms: percentileSorted(c, 50),
              p99Ms: percentileSorted(c, 99),
              maxMs: percentileSorted(c, 100),
            };
          }),
        }),
  };
}

if (import.meta.main) {
  let text = process.argv[2] ?? '-';
  if (text === '-') {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    text = Buffer.concat(chunks).toString('utf8');
  }
  const options = JSON.parse(text) as LoadOptions;
  const result = await runLoad(options);
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(0);
}
