/**
 * Answers that cannot change while the blocks they name stay in the chain, kept as their JSON text
 * (issue #21): a block by number or hash, a header, a full page of blocks, a sibling path, witness,
 * leaf index or storage value at a block given by number or hash. Serialized once, served as bytes
 * (`SerializedResult`), so a repeated call costs a map lookup and a copy instead of a database read,
 * a wire conversion and `JSON.stringify` of a 19 KB block.
 *
 * Correctness rests on one rule: blocks at or below the tip change only by an unwind (rollback,
 * reorg, or — for a `--role rpc` reader — its writer's unwind), and every unwind moves
 * `historyVersion` (chain/chain-store.ts) as it starts and again once it settles. An answer is
 * stored only if the version did not move while it was read, and the whole cache is dropped as soon
 * as a lookup sees a new version. Answers about `latest`, `null` answers (the block may come later),
 * short pages and errors are never stored. Bounded by bytes, least recently used first out.
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

/** The public handlers whose answers are immutable under the rule above, by handler name. */
export const IMMUTABLE_ANSWERS: Readonly<Record<string, Cacheable>> = {
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

/** What moves when blocks are unwound (`engine.chain`). */
export interface HistoryVersionSource {
  historyVersion(): number;
}

/** JSON texts by key, bounded by bytes, dropped whole when the history version moves. */
export class AnswerCache {
  readonly #entries = new Map<string, string>();
  readonly #maxBytes: number;
  readonly #source: HistoryVersionSource;
  #bytes = 0;
  #seenVersion: number;

  constructor(source: HistoryVersionSource, maxBytes = ANSWER_CACHE_BYTES) {
    this.#source = source;
    this.#maxBytes = maxBytes;
    this.#seenVersion = source.historyVersion();
  }

  /** The version now; pass it to `set` for an answer whose reading starts now. */
  version(): number {
    const v = this.#source.historyVersion();
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

/**
 * The handler table with the `IMMUTABLE_ANSWERS` handlers answering from `cache` when they can:
 * a hit is a `SerializedResult` returned synchronously; a miss runs the handler, and a storable
 * answer is stringified once, stored and returned as text (the same bytes the dispatcher's own
 * `JSON.stringify` writes). Other handlers pass through untouched.
 */
export function withAnswerCache<T extends object>(handlers: T, cache: AnswerCache): T {
  const out = { ...handlers } as Record<string, unknown>;
  for (const [name, cacheable] of Object.entries(IMMUTABLE_ANSWERS)) {
    const handler = (handlers as Record<string, unknown>)[name];
    if (typeof handler !== 'function') continue;
    const inner = handler as Handler;
    out[name] = (...params: unknown[]): unknown => {
      const key = `${name}\0${JSON.stringify(params)}`;
      const hit = cache.get(key);
      if (hit !== undefined) return new SerializedResult(hit);
      const readAt = cache.version();
      return Promise.resolve(inner.apply(handlers, params)).then((result) => {
        if (!cacheable(params, result)) return result;
        const json = JSON.stringify(result);
        cache.set(key, json, readAt);
        return new SerializedResult(json);
      });
    };
  }
  return out as T;
}
