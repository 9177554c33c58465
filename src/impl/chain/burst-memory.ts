/**
 * Gives memory back during a burst of block applications: a follower catching up, a chain import,
 * blocks built back to back on a manual clock (`--build-empty-blocks`, bench/rpc/build-chain.ts).
 *
 * V8 returns the young generation it grew and the pages it freed (pooled, still resident) only through
 * its memory reducer, which runs once the process idles — never during a burst. An engine that applied
 * 9 600 empty blocks back to back held 1.7–1.9× the resident set it opened with, even with the young
 * generation bounded, while its live JS was ~14 MB (docs/PERFORMANCE-NOTES.md, "Memory"). So during a
 * burst, once the resident set has grown `growth` times over where the burst started or where the last
 * relief left it (and at most once per `minIntervalMs`), the block application runs the collection the
 * reducer would (a memory-reducing full GC: V8's `last-resort` flavour shrinks new space and frees
 * the pooled pages), ~50–100 ms each. A 9 600-block burst then ends at 1.12–1.16× of the opening set
 * instead of 1.7–1.9×, for ~30 % more CPU per block during the burst (the collections, and the
 * smaller heap V8 restarts from after them); `BURST_GROWTH` trades the two.
 *
 * Blocks applied more than `gapMs` apart are no burst (the process idled in between and V8's reducer
 * can run): a node following the chain at its pace, or building a block per slot, never pays for it.
 * It needs `gc` exposed (`--expose-gc`, one of the node's runtime flags, src/config/node-runtime.ts);
 * in a process without it nothing happens.
 * @module
 */

/** The resident set may grow this much over the burst's start (or the last relief) before a relief: 1.2 × what a relief leaves (~1.13× of an engine just opened) keeps a burst under 1.5×. */
export const BURST_GROWTH = 1.2;
/** At most one relief per this many milliseconds of burst. */
export const BURST_MIN_RELIEF_MS = 1000;
/** A longer pause between two block applications ends a burst. */
export const BURST_GAP_MS = 1000;

/** The part of V8's exposed `gc` used here. */
export type ReducingGc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export interface BurstMemoryReliefOptions {
  /** Defaults (when the key is absent) to the `gc` exposed by `--expose-gc`, when there is one. */
  readonly gc?: ReducingGc | undefined;
  /** Milliseconds on a monotonic clock; defaults to performance.now. */
  readonly now?: () => number;
  /** This process's resident set in bytes; defaults to process.memoryUsage.rss. */
  readonly rss?: () => number;
  readonly growth?: number;
  readonly minIntervalMs?: number;
  readonly gapMs?: number;
}

/** Watches a burst's resident set from its block applications and runs the reducing collection when due. */
export class BurstMemoryRelief {
  readonly #gc: ReducingGc | undefined;
  readonly #now: () => number;
  readonly #rss: () => number;
  readonly #growth: number;
  readonly #minIntervalMs: number;
  readonly #gapMs: number;
  /** The resident set at the burst's start or after the last relief. */
  #base = 0;
  /** When the burst started or was last relieved. */
  #since = 0;
  /** When the previous block application ended. */
  #last = Number.NEGATIVE_INFINITY;
  #reliefs = 0;

  constructor(o: BurstMemoryReliefOptions = {}) {
    this.#gc = 'gc' in o ? o.gc : (globalThis.gc as ReducingGc | undefined);
    this.#now = o.now ?? (() => performance.now());
    this.#rss = o.rss ?? (() => process.memoryUsage.rss());
    this.#growth = o.growth ?? BURST_GROWTH;
    this.#minIntervalMs = o.minIntervalMs ?? BURST_MIN_RELIEF_MS;
    this.#gapMs = o.gapMs ?? BURST_GAP_MS;
  }

  /** Memory-reducing collections run so far. */
  get reliefs(): number {
    return this.#reliefs;
  }

  /** Called once a block application has committed; returns whether it ran the collection. */
  blockApplied(): boolean {
    if (this.#gc === undefined) return false;
    const now = this.#now();
    const fresh = now - this.#last > this.#gapMs;
    this.#last = now;
    if (fresh) {
      this.#base = this.#rss();
      this.#since = now;
      return false;
    }
    if (now - this.#since < this.#minIntervalMs || this.#rss() < this.#base * this.#growth) return false;
    this.#gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    this.#reliefs++;
    this.#base = this.#rss();
    // The collection's own time is neither a gap nor part of the next interval.
    this.#since = this.#last = this.#now();
    return true;
  }
}
