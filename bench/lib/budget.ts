import { loadavg } from 'node:os';

/**
 * Where a bench run's time goes: each named step's wall-clock seconds, in order, so the page can
 * print the budget and a slow step shows up before the 15-minute limit is crossed.
 * @module
 */

/** One timed step of the run. */
export interface TimedStep {
  readonly name: string;
  readonly seconds: number;
  /** One-minute load average when the step began: other work on the machine shows here. */
  readonly load1?: number;
}

/** Records steps as they run and logs their start and end. */
export class TimeBudget {
  readonly steps: TimedStep[] = [];
  readonly #log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** Runs `f` as the step `name` (sync or async) and records its seconds. */
  async step<T>(name: string, f: () => T | Promise<T>): Promise<T> {
    const t0 = performance.now();
    const load1 = loadavg()[0]!;
    this.#log(`${name} …`);
    try {
      return await f();
    } finally {
      this.#done(name, t0, load1);
    }
  }

  /** The same for a synchronous step. */
  stepSync<T>(name: string, f: () => T): T {
    const t0 = performance.now();
    const load1 = loadavg()[0]!;
    this.#log(`${name} …`);
    try {
      return f();
    } finally {
      this.#done(name, t0, load1);
    }
  }

  /** Records a step timed by its caller (one that is not a single call). */
  record(name: string, t0: number, load1 = loadavg()[0]!): void {
    this.steps.push({ name, seconds: (performance.now() - t0) / 1000, load1 });
  }

  #done(name: string, t0: number, load1: number): void {
    const seconds = (performance.now() - t0) / 1000;
    this.steps.push({ name, seconds, load1 });
    this.#log(`${name} done in ${seconds.toFixed(0)} s`);
  }
}

/** "chain 9 s (load 2.1), RPC throughput 61 s (load 3.0), …" for the page header. */
export function renderBudget(steps: readonly TimedStep[]): string {
  return steps
    .map((s) => `${s.name} ${s.seconds.toFixed(0)} s${s.load1 === undefined ? '' : ` (load ${s.load1.toFixed(1)})`}`)
    .join(', ');
}
