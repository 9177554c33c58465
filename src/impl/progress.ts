/**
 * Progress of long work (a follower catching up, `--import-chain`, a snapshot copy): done / target,
 * the rate since the work began and the ETA, logged as one line every `intervalMs` (never more
 * often, however often `update` is called), plus the same numbers on demand for GET /status and
 * the metrics.
 * @module
 */
import type { EngineLogger } from './engine-logger.ts';

/** The numbers a progress line, GET /status and the metrics show. */
export interface ProgressSnapshot {
  readonly done: number;
  readonly target: number;
  /** Units per second since the work began (0 until some is done). */
  readonly perSecond: number;
  /** Seconds to the target at that rate; undefined while the rate is 0. */
  readonly etaSeconds: number | undefined;
  readonly elapsedSeconds: number;
}

/** What a `Progress` is about. */
export interface ProgressOptions {
  /** The log message, e.g. 'follower: catching up'. */
  readonly message: string;
  /** 'blocks' or 'bytes': names the rate field (`blocksPerSecond`, `bytesPerSecond`). */
  readonly unit: 'blocks' | 'bytes';
  readonly target: number;
  /** Where the count starts (a follower resuming at block n counts from n). */
  readonly start?: number;
  readonly intervalMs: number;
  readonly logger: Pick<EngineLogger, 'info'> | undefined;
  /** Extra fields on every line (source, path). */
  readonly fields?: Record<string, unknown>;
  readonly nowMs?: () => number;
}

/** Tracks one piece of long work. */
export class Progress {
  readonly #o: ProgressOptions;
  readonly #now: () => number;
  readonly #startedMs: number;
  readonly #start: number;
  #done: number;
  #target: number;
  #lastLineMs: number;

  constructor(options: ProgressOptions) {
    this.#o = options;
    this.#now = options.nowMs ?? Date.now;
    this.#startedMs = this.#now();
    this.#start = options.start ?? 0;
    this.#done = this.#start;
    this.#target = options.target;
    // The first line comes one interval in: short work logs only its end.
    this.#lastLineMs = this.#startedMs;
  }

  /** Records how far the work is (and a moved target); logs a line when an interval has passed. */
  update(done: number, target: number = this.#target): void {
    this.#done = done;
    this.#target = target;
    const now = this.#now();
    if (now - this.#lastLineMs < this.#o.intervalMs) return;
    this.#lastLineMs = now;
    this.#log(this.#o.message);
  }

  /** Logs the closing line (`message` + ' done' unless given). */
  finish(message = `${this.#o.message}: done`): void {
    this.#log(message);
  }

  /** The current numbers. */
  snapshot(): ProgressSnapshot {
    const elapsedSeconds = (this.#now() - this.#startedMs) / 1000;
    const moved = this.#done - this.#start;
    const perSecond = elapsedSeconds > 0 && moved > 0 ? moved / elapsedSeconds : 0;
    const left = Math.max(0, this.#target - this.#done);
    return {
      done: this.#done,
      target: this.#target,
      perSecond,
      etaSeconds: perSecond > 0 ? left / perSecond : undefined,
      elapsedSeconds,
    };
  }

  #log(message: string): void {
    const s = this.snapshot();
    const unit = this.#o.unit;
    this.#o.logger?.info(message, {
      ...this.#o.fields,
      done: s.done,
      target: s.target,
      ...(this.#target > 0 && { percent: Math.round((1000 * s.done) / s.target) / 10 }),
      [`${unit}PerSecond`]: round(s.perSecond),
      etaSeconds: s.etaSeconds === undefined ? null : Math.round(s.etaSeconds),
      elapsedSeconds: Math.round(s.elapsedSeconds),
    });
  }
}

function round(x: number): number {
  return x >= 100 ? Math.round(x) : Math.round(x * 100) / 100;
}

/** Where and how often progress lines of byte copies go. */
export interface ProgressReporting {
  readonly logger: Pick<EngineLogger, 'info'> | undefined;
  readonly intervalMs: number;
}

/**
 * Runs `work` (a copy of `total` bytes) while polling `read` for the bytes done so far: a progress
 * line every interval, and `done` (with the rate and time taken) when the work succeeds.
 */
export async function withByteProgress<T>(
  reporting: ProgressReporting | undefined,
  what: { message: string; total: number; fields?: Record<string, unknown> },
  read: () => Promise<number> | number,
  work: () => Promise<T>,
): Promise<T> {
  if (reporting === undefined) return work();
  const progress = new Progress({
    message: what.message,
    unit: 'bytes',
    target: what.total,
    intervalMs: reporting.intervalMs,
    logger: reporting.logger,
    ...(what.fields && { fields: what.fields }),
  });
  // Polled more often than lines are written, so a line is not a whole interval late.
  const timer = setInterval(
    () =>
      void Promise.resolve()
        .then(read)
        .then(
          (n) => progress.update(n),
          () => undefined,
        ),
    Math.max(20, reporting.intervalMs / 4),
  );
  timer.unref();
  try {
    const result = await work();
    progress.update(what.total);
    progress.finish();
    return result;
  } finally {
    clearInterval(timer);
  }
}
