/**
 * Gives memory back during a burst of block applications: a follower catching up, a chain import,
 * blocks built back to back on a manual clock (`--build-empty-blocks`, bench/rpc/build-chain.ts).
 *
 * V8 returns the young generation it grew and the pages it freed (pooled, still resident) only through
 * its memory reducer, which runs once the process idles — never during a burst. An engine that applied
 * 9 600 empty blocks back to back held 1.7–1.9× the resident set it opened with, even with the young
 * generation bounded, while its live JS was ~14 MB (docs/PERFORMANCE-NOTES.md, "Memory"). So once a
 * burst has run for `reliefMs` since it started or since the last relief, the block application that
 * ends it runs the collection the reducer would (a memory-reducing full GC: V8's `last-resort` flavour
 * shrinks new space and frees the pooled pages), ~50–100 ms each. It costs a burst ~10–20 % more CPU
 * per block (the collections, and the smaller heap V8 restarts from after them): the price of ending
 * a 9 600-block burst at 1.2–1.35× of the opening resident set instead of 1.7–1.9×.
 *
 * Blocks applied more than `gapMs` apart are no burst (the process idled in between and V8's reducer
 * can run): a node following the chain at its pace, or building a block per slot, never pays for it.
 * It needs `gc` exposed (`--expose-gc`, one of the node's runtime flags, src/config/node-runtime.ts);
 * in a process without it nothing happens.
 * @module
 */

/** How long a burst runs between two memory-reducing collections. */
export const BURST_RELIEF_MS = 5000;
/** A longer pause between two block applications ends a burst. */
export const BURST_GAP_MS = 1000;

/** The part of V8's exposed `gc` used here. */
export type ReducingGc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export interface BurstMemoryReliefOptions {
  /** Defaults (when the key is absent) to the `gc` exposed by `--expose-gc`, when there is one. */
  readonly gc?: ReducingGc | undefined;
  /** Milliseconds on a monotonic clock; defaults to performance.now. */
  readonly now?: () => number;
  readonly reliefMs?: number;
  readonly gapMs?: number;
}

/** Counts a burst's time from its block applications and runs the reducing collection when due. */
export class BurstMemoryRelief {
  readonly #gc: ReducingGc | undefined;
  readonly #now: () => number;
  readonly #reliefMs: number;
  readonly #gapMs: number;
  /** When the current burst started or was last relieved. */
  #since = 0;
  /** When the previous block application ended. */
  #last = Number.NEGATIVE_INFINITY;
  #reliefs = 0;

  constructor(o: BurstMemoryReliefOptions = {}) {
    this.#gc = 'gc' in o ? o.gc : (globalThis.gc as ReducingGc | undefined);
    this.#now = o.now ?? (() => performance.now());
    this.#reliefMs = o.reliefMs ?? BURST_RELIEF_MS;
    this.#gapMs = o.gapMs ?? BURST_GAP_MS;
  }

  /** Memory-reducing collections run so far. */
  get reliefs(): number {
    return this.#reliefs;
  }

  /** Called once a block application has committed; returns whether it ran the collection. */
  blockApplied(): boolean {
    const now = this.#now();
    if (now - this.#last > this.#gapMs) this.#since = now;
    this.#last = now;
    if (this.#gc === undefined || now - this.#since < this.#reliefMs) return false;
    this.#gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    this.#reliefs++;
    // The collection's own time is neither a gap nor part of the next stretch.
    this.#since = this.#last = this.#now();
    return true;
  }
}
