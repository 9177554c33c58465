/**
 * The sync state machine of SPEC §3 (syncing ⇄ paused) and the sync cadence. The engine runs
 * each sync/production step through `step()`: while paused, steps are skipped, so block
 * production, chain following and world-state sync stop, while reads and tx acceptance (which do
 * not go through here) continue. `pause()` resolves once an in-flight step has finished, so after
 * it returns nothing moves. Both transitions are idempotent.
 * @module
 */

/** The sync state as node_getWorldStateSyncStatus and GET /status report it. */
export type SyncState = 'syncing' | 'paused';

/** Pause/resume as the admin API needs it. */
export interface SyncControl {
  pause(): Promise<void>;
  resume(): void;
  isPaused(): boolean;
}

/** The node's sync switch and cadence. */
export class SyncSwitch implements SyncControl {
  #paused = false;
  #inFlight: Promise<unknown> = Promise.resolve();
  #intervalMs: number;
  readonly #listeners: ((state: SyncState, intervalMs: number) => void)[] = [];

  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
  }

  /** 'syncing' or 'paused'. */
  get state(): SyncState {
    return this.#paused ? 'paused' : 'syncing';
  }

  /** Milliseconds between two sync steps (archiverPollingIntervalMS). */
  get intervalMs(): number {
    return this.#intervalMs;
  }

  isPaused(): boolean {
    return this.#paused;
  }

  async pause(): Promise<void> {
    if (!this.#paused) {
      this.#paused = true;
      this.#notify();
    }
    await this.#inFlight.catch(() => undefined);
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    this.#notify();
  }

  /** Changes the cadence; the engine's timer picks it up through `onChange`. */
  setIntervalMs(ms: number): void {
    if (!Number.isInteger(ms) || ms < 1) throw new RangeError('the sync interval must be an integer >= 1 ms');
    if (ms === this.#intervalMs) return;
    this.#intervalMs = ms;
    this.#notify();
  }

  /** Calls `listener` on every state or cadence change. */
  onChange(listener: (state: SyncState, intervalMs: number) => void): void {
    this.#listeners.push(listener);
  }

  /** Runs one sync step unless paused; returns false when skipped. */
  async step(run: () => Promise<void>): Promise<boolean> {
    if (this.#paused) return false;
    let ran = false;
    const p = this.#inFlight
      .catch(() => undefined)
      .then(async () => {
        // A step queued behind a running one may start after a pause: check again.
        if (this.#paused) return;
        ran = true;
        await run();
      });
    this.#inFlight = p;
    await p;
    return ran;
  }

  #notify(): void {
    for (const l of this.#listeners) l(this.state, this.#intervalMs);
  }
}
