/**
 * The in-memory index of the pending txs: by hash, by nullifier and by fee payer, plus the
 * priority order (rebuilt lazily after a change). The database holds the same set; the index is
 * rebuilt from it on open.
 * @module
 */
import { comparePriority } from './priority.ts';
import type { PoolEntry } from './priority.ts';

/** Pending txs, indexed the ways the pool rules look them up. */
export class PoolIndex {
  readonly #byHash = new Map<bigint, PoolEntry>();
  readonly #byNullifier = new Map<bigint, bigint>();
  readonly #byFeePayer = new Map<bigint, Set<bigint>>();
  #ordered: PoolEntry[] | undefined;

  /** Number of pending txs. */
  get size(): number {
    return this.#byHash.size;
  }

  /** The entry of a pending tx. */
  get(txHash: bigint): PoolEntry | undefined {
    return this.#byHash.get(txHash);
  }

  /** The pending tx that uses `nullifier`, if any. */
  ownerOfNullifier(nullifier: bigint): PoolEntry | undefined {
    const h = this.#byNullifier.get(nullifier);
    return h === undefined ? undefined : this.#byHash.get(h);
  }

  /** Pending txs paid by `feePayer`, in no particular order. */
  ofFeePayer(feePayer: bigint): PoolEntry[] {
    return [...(this.#byFeePayer.get(feePayer) ?? [])].map((h) => this.#byHash.get(h)!);
  }

  /** Every fee payer with pending txs. */
  feePayers(): bigint[] {
    return [...this.#byFeePayer.keys()];
  }

  /** All pending txs, highest priority first. The array is shared: do not modify it. */
  inPriorityOrder(): readonly PoolEntry[] {
    this.#ordered ??= [...this.#byHash.values()].sort(comparePriority);
    return this.#ordered;
  }

  /** The lowest-priority pending tx not in `except`. */
  lowest(except: ReadonlySet<bigint> = new Set()): PoolEntry | undefined {
    const ordered = this.inPriorityOrder();
    for (let i = ordered.length - 1; i >= 0; i--) if (!except.has(ordered[i]!.txHash)) return ordered[i];
    return undefined;
  }

  /** Adds an entry (its nullifiers must be free). */
  add(e: PoolEntry): void {
    this.#byHash.set(e.txHash, e);
    for (const n of e.nullifiers) this.#byNullifier.set(n, e.txHash);
    let set = this.#byFeePayer.get(e.feePayer);
    if (set === undefined) this.#byFeePayer.set(e.feePayer, (set = new Set()));
    set.add(e.txHash);
    this.#ordered = undefined;
  }

  /** Removes a pending tx; returns its entry, or undefined when it was not pending. */
  remove(txHash: bigint): PoolEntry | undefined {
    const e = this.#byHash.get(txHash);
    if (e === undefined) return undefined;
    this.#byHash.delete(txHash);
    for (const n of e.nullifiers) if (this.#byNullifier.get(n) === txHash) this.#byNullifier.delete(n);
    const set = this.#byFeePayer.get(e.feePayer)!;
    set.delete(txHash);
    if (set.size === 0) this.#byFeePayer.delete(e.feePayer);
    this.#ordered = undefined;
    return e;
  }

  /** A copy without `txHashes`: what the rules decide on before a commit makes the change real. */
  without(txHashes: Iterable<bigint>): PoolIndex {
    const skip = new Set(txHashes);
    const copy = new PoolIndex();
    for (const e of this.#byHash.values()) if (!skip.has(e.txHash)) copy.add(e);
    return copy;
  }
}
