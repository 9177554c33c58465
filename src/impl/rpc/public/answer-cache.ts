/**
 * Answers kept as their JSON text (issue #21), so a repeated call costs a map lookup and a copy
 * instead of database reads, a wire conversion and `JSON.stringify` (a block of 8 txs is 19 KB, a
 * 100-tag log query 80 KB). Two caches, each dropped whole when its version moves:
 *
 * - **pinned**: answers about a block given by number or hash — a block, header or full page of
 *   blocks, a sibling path, witness, leaf index or storage value at that block. Blocks at or below
 *   the tip change only by an unwind (rollback, reorg, or — for a `--role rpc` reader — its
 *   writer's unwind), and every unwind moves `historyVersion` (chain/chain-store.ts) as it starts
 *   and again once it settles; a new block does not touch them.
 * - **tip**: the same calls about `latest` (or a block not there yet: `null`), short pages, and logs
 *   by tag (`TIP_ANSWERS`): a function of the chain up to its tip, valid until `tipVersion`
 *   (chain/chain-state.ts) moves — as a block is applied, as blocks are unwound, when a reader
 *   catches up with its writer.
 *
 * An answer is stored only if it was read entirely while no block was being applied or unwound
 * (the tip version even and unchanged from start to end) and its own cache's version did not move.
 * Errors are never stored.
 * Both are bounded by bytes, least recently used out first.
 * @module
 */
import { SerializedResult } from '../../../server/serialized-result.ts';

/** Default bound on the cached text (keys and answers), in bytes. */
export const ANSWER_CACHE_BYTES = 32 * 1024 * 1024;

/** Per-entry bookkeeping counted against the bound besides the key and the text. */
const ENTRY_OVERHEAD_BYTES = 96;

/** Whether an answer (to validated params) may be stored. */
type Cacheable = (params: readonly unknown[], result: unknown) => boolean;

/** A block number or hash (not `latest`, not omitted): the answer is about a fixed block. */
const pinned = (p: unknown): boolean => typeof p === 'number' || (typeof p === 'string' && p !== 'latest');
const atPinnedBlock: Cacheable = (p) => pinned(p[0]);
const foundAtPinnedBlock: Cacheable = (p, r) => pinned(p[0]) && r !== null;
const found: Cacheable = (_p, r) => r !== null;

/**
 * The public handlers whose answers are about blocks, by handler name, with when an answer is about
 * a pinned block (else it is about the tip).
 */
export const PINNED_ANSWERS: Readonly<Record<string, Cacheable>> = {
  getBlock: foundAtPinnedBlock,
  getBlockHeader: foundAtPinnedBlock,
  getBlockByHash: found,
  getBlockByArchive: found,
  getBlockHeaderByArchive: found,
  // A page shorter than asked for grows as blocks are added.
  getBlocks: (p, r) => Array.isArray(r) && r.length === p[1],
  findLeavesIndexes: atPinnedBlock,
  getNullifierSiblingPath: atPinnedBlock,
  getNoteHashSiblingPath: atPinnedBlock,
  getArchiveSiblingPath: atPinnedBlock,
  getPublicDataSiblingPath: atPinnedBlock,
  getNullifierMembershipWitness: atPinnedBlock,
  getLowNullifierMembershipWitness: atPinnedBlock,
  getPublicDataWitness: atPinnedBlock,
  getBlockHashMembershipWitness: atPinnedBlock,
  getNoteHashMembershipWitness: atPinnedBlock,
  getPublicStorageAt: atPinnedBlock,
};

/** Handlers whose answers depend on the chain up to its tip and nothing else (not the pool, not the clock). */
export const TIP_ANSWERS: readonly string[] = [
  'getLogsByTags',
  'getPrivateLogsByTags',
  'getPublicLogsByTagsFromContract',
];

/** A version source: answers read while it had one value are stale once it has another. */
export type VersionSource = () => number;

/** What the two caches follow (`engine.chain`). */
export interface ChainVersions {
  historyVersion(): number;
  tipVersion(): number;
}

/** JSON texts by key, bounded by bytes, dropped whole when the history version moves. */
export class AnswerCache {
  readonly #entries = new Map<string, string>();
  readonly #maxBytes: number;
  readonly #source: VersionSource;
  #bytes = 0;
  #seenVersion: number;

  constructor(source: VersionSource, maxBytes = ANSWER_CACHE_BYTES) {
    this.#source = source;
    this.#maxBytes = maxBytes;
    this.#seenVersion = source();
  }

  /** The version now; pass it to `set` for an answer whose reading starts now. */
  version(): number {
    const v = this.#source();
    if (v !== this.#seenVersion) {
      this.#entries.clear();
      this.#bytes = 0;
      this.#seenVersion = v;
    }
    return v;
  }

  /** The cached text, or undefined. */
  get(key: string): string | undefined {
    this.version();
    const json = this.#entries.get(key);
    if (json !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, json);
    }
    return json;
  }

  /** Stores an answer read entirely at `readAtVersion` (dropped if an unwind began since). */
  set(key: string, json: string, readAtVersion: number): void {
    if (this.version() !== readAtVersion) return;
    const size = key.length + json.length + ENTRY_OVERHEAD_BYTES;
    if (size > this.#maxBytes / 4) return;
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#entries.delete(key);
      this.#bytes -= key.length + old.length + ENTRY_OVERHEAD_BYTES;
    }
    this.#entries.set(key, json);
    this.#bytes += size;
    for (const [k, v] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(k);
      this.#bytes -= k.length + v.length + ENTRY_OVERHEAD_BYTES;
    }
  }

  /** Entries and bytes held (tests, metrics). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }
}

type Handler = (...params: unknown[]) => unknown;

/** The pinned and tip caches of one public server. */
export interface AnswerCaches {
  readonly pinned: AnswerCache;
  readonly tip: AnswerCache;
}

/** Both caches over a chain: the pinned one gets three quarters of `maxBytes`. */
export function answerCachesOver(chain: ChainVersions, maxBytes = ANSWER_CACHE_BYTES): AnswerCaches {
  return {
    pinned: new AnswerCache(() => chain.historyVersion(), (maxBytes * 3) / 4),
    tip: new AnswerCache(() => chain.tipVersion(), maxBytes / 4),
  };
}

/**
 * The handler table with the `PINNED_ANSWERS` and `TIP_ANSWERS` handlers answering from the caches
 * when they can: a hit is a `SerializedResult` returned synchronously; a miss runs the handler and
 * stringifies its answer once, stores it in the cache it belongs to (as read at that cache's
 * version) and returns it as text — the same bytes the dispatcher's own `JSON.stringify` writes.
 * Other handlers pass through untouched.
 */
export function withAnswerCache<T extends object>(handlers: T, caches: AnswerCaches): T {
  const out = { ...handlers } as Record<string, unknown>;
  const wrap = (name: string, cacheFor: (params: readonly unknown[], result: unknown) => AnswerCache) => {
    const handler = (handlers as Record<string, unknown>)[name];
    if (typeof handler !== 'function') return;
    const inner = handler as Handler;
    out[name] = (...params: unknown[]): unknown => {
      const key = `${name}\0${JSON.stringify(params)}`;
      const hit = caches.pinned.get(key) ?? caches.tip.get(key);
      if (hit !== undefined) return new SerializedResult(hit);
      const pinnedAt = caches.pinned.version();
      const tipAt = caches.tip.version();
      return Promise.resolve(inner.apply(handlers, params)).then((result) => {
        const json = JSON.stringify(result);
        // Read while no block was being applied or unwound (an odd tip version), start to end.
        if (tipAt % 2 === 0 && caches.tip.version() === tipAt) {
          const cache = cacheFor(params, result);
          cache.set(key, json, cache === caches.pinned ? pinnedAt : tipAt);
        }
        return new SerializedResult(json);
      });
    };
  };
  for (const [name, pinned] of Object.entries(PINNED_ANSWERS))
    wrap(name, (p, r) => (pinned(p, r) ? caches.pinned : caches.tip));
  for (const name of TIP_ANSWERS) wrap(name, () => caches.tip);
  return out as T;
}
