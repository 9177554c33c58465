/**
 * The persistent mempool (TxPoolV2 rules, reference §4.3). Pending txs live in the database
 * (exact wire JSON plus indexed columns) and in an in-memory index rebuilt on open. Every change
 * is serialized and written before it is acknowledged. Txs leave when mined, when a block makes
 * them invalid, or when evicted; dropped ones are recorded with the reason for receipts.
 * It is the sequencer's `TxSource`.
 * @module
 */
import type { Knex } from 'knex';
import { toFieldHex } from '../crypto/field.ts';
import { toMinableTx } from '../sequencer/tx-source.ts';
import type { MinableTx, TxSource } from '../sequencer/tx-source.ts';
import { decodeTx } from '../tx/index.ts';
import type { GasFees, Tx } from '../tx/index.ts';
import type { ChainView } from './chain-view.ts';
import { PoolNotRunning, PoolRejection } from './errors.ts';
import { PoolIndex } from './pool-index.ts';
import { planAdmission, planRevalidation, planShrink } from './pool-rules.ts';
import type { Eviction, PoolLimits } from './pool-rules.ts';
import { migrateTxPoolSchema, PoolStore } from './pool-store.ts';
import { toPoolEntry } from './priority.ts';

/** Pool settings (env P2P_MAX_PENDING_TX_COUNT, P2P_RPC_PRICE_BUMP_PERCENTAGE). */
export interface TxPoolConfig extends PoolLimits {}

/** Defaults of 4.1.2: 1000 pending txs, 10 % price bump. */
export const DEFAULT_TX_POOL_CONFIG: TxPoolConfig = { maxPendingTxCount: 1000, priceBumpPercent: 10n };

/** What a pool is opened with. */
export interface TxPoolDeps {
  readonly db: Knex;
  readonly chain: ChainView;
  readonly config?: Partial<TxPoolConfig>;
  /** Milliseconds clock for the stored timestamps. */
  readonly now?: () => number;
  readonly observer?: TxPoolObserver;
}

/** Told of what enters and leaves the pool (the node's metrics). */
export interface TxPoolObserver {
  admitted(): void;
  /** A pool rule refused a tx (`PoolRejection.code`). */
  rejected(code: string): void;
  /** Pending txs left without being mined, with the reason recorded for their receipts. */
  dropped(evictions: readonly Eviction[]): void;
}

/** Where a tx stands in this pool, for `node_getTxReceipt`; undefined when the pool never saw it (or it was mined). */
export type PoolTxStatus = { readonly status: 'pending' } | { readonly status: 'dropped'; readonly reason: string } | undefined;

/** The outcome of an accepted `add`: newly pending, or already pending (accepted idempotently). */
export type AddOutcome = 'added' | 'duplicate';

/** The mempool. */
export class TxPool implements TxSource {
  readonly #store: PoolStore;
  readonly #chain: ChainView;
  readonly #index = new PoolIndex();
  readonly #minable = new Map<bigint, MinableTx>();
  #limits: TxPoolConfig;
  #seq = 0;
  #queue: Promise<unknown> = Promise.resolve();
  #open = true;
  readonly #observer: TxPoolObserver | undefined;

  private constructor(store: PoolStore, chain: ChainView, limits: TxPoolConfig, observer?: TxPoolObserver) {
    this.#store = store;
    this.#chain = chain;
    this.#limits = limits;
    this.#observer = observer;
  }

  /** Migrates the pool tables, loads the pending txs and returns the running pool. */
  static async open(deps: TxPoolDeps): Promise<TxPool> {
    await migrateTxPoolSchema(deps.db);
    const pool = new TxPool(new PoolStore(deps.db, deps.now), deps.chain, { ...DEFAULT_TX_POOL_CONFIG, ...deps.config }, deps.observer);
    for (const e of await pool.#store.loadEntries()) {
      pool.#index.add(e);
      pool.#seq = Math.max(pool.#seq, e.seq + 1);
    }
    return pool;
  }

  /** The current limits. */
  get limits(): TxPoolConfig {
    return this.#limits;
  }

  /** True until `close()`: the pool takes txs (node_isReady consults it). */
  get running(): boolean {
    return this.#open;
  }

  /** Number of pending txs. */
  get pendingCount(): number {
    return this.#index.size;
  }

  /** Changes the capacity at run time (`nodeAdmin_setConfig({maxPendingTxCount})`); lowering it evicts the lowest. */
  setMaxPendingTxCount(max: number): Promise<void> {
    if (!Number.isInteger(max) || max < 0) throw new RangeError('maxPendingTxCount must be an integer >= 0');
    return this.#exclusive(async () => {
      this.#limits = { ...this.#limits, maxPendingTxCount: max };
      await this.#evict(planShrink(this.#index, max));
    });
  }

  /**
   * Adds a validated tx. `wire` is the `Tx` JSON as sent; it is stored with `txHash` set to the
   * recomputed hash, so lookups return what was sent. Throws `PoolRejection` when a rule refuses.
   */
  add(tx: Tx, wire: object): Promise<AddOutcome> {
    return this.#exclusive(async () => {
      if (this.#index.get(tx.txHash) !== undefined) return 'duplicate';
      const entry = toPoolEntry(tx, this.#seq);
      const hashHex = toFieldHex(tx.txHash);
      let evictions: Eviction[];
      try {
        evictions = planAdmission(this.#index, entry, hashHex, this.#limits, (p) => this.#chain.feeJuiceBalance(p));
      } catch (err) {
        if (err instanceof PoolRejection) this.#observer?.rejected(err.code);
        throw err;
      }
      const wireJson = JSON.stringify({ ...wire, txHash: hashHex });
      await this.#store.apply({ add: [{ entry, wireJson }], dropped: evictions });
      this.#seq++;
      for (const e of evictions) this.#forget(e.txHash);
      this.#index.add(entry);
      this.#minable.set(tx.txHash, toMinableTx(tx));
      this.#observer?.admitted();
      if (evictions.length > 0) this.#observer?.dropped(evictions);
      return 'added';
    });
  }

  /** True while the tx is pending. */
  isPending(txHash: bigint): boolean {
    return this.#index.get(txHash) !== undefined;
  }

  /** Pending, dropped (with the reason) or unknown to the pool. */
  async getTxStatus(txHash: bigint): Promise<PoolTxStatus> {
    if (this.isPending(txHash)) return { status: 'pending' };
    const reason = await this.#store.findDropReason(txHash);
    return reason === undefined ? undefined : { status: 'dropped', reason };
  }

  /** The wire JSON of a pending tx, parsed, or undefined. */
  async getTxByHash(txHash: bigint): Promise<unknown> {
    if (!this.isPending(txHash)) return undefined;
    const json = await this.#store.findWireJson(txHash);
    return json === undefined ? undefined : JSON.parse(json);
  }

  /** The pending txs among `txHashes`, in request order, unknown ones left out. */
  async getTxsByHash(txHashes: readonly bigint[]): Promise<unknown[]> {
    const found = await this.#store.findWireJsons(txHashes.filter((h) => this.isPending(h)));
    return txHashes.flatMap((h) => (found.has(h) ? [JSON.parse(found.get(h)!)] : []));
  }

  /** Up to `limit` pending txs (wire JSON) in priority order, after `after` when given ([] when `after` is not pending). */
  async getPendingTxs(limit: number, after?: bigint): Promise<unknown[]> {
    const ordered = this.#index.inPriorityOrder();
    let start = 0;
    if (after !== undefined) {
      start = ordered.findIndex((e) => e.txHash === after) + 1;
      if (start === 0) return [];
    }
    return this.getTxsByHash(ordered.slice(start, start + limit).map((e) => e.txHash));
  }

  /** `maxPriorityFeesPerGas` of the highest-priority pending tx; zero fees when empty. */
  getMaxPriorityFees(): GasFees {
    return this.#index.inPriorityOrder()[0]?.maxPriorityFeesPerGas ?? { feePerDaGas: 0n, feePerL2Gas: 0n };
  }

  /** TxSource: up to `limit` pending txs, highest priority first. */
  async pendingTxsInPriorityOrder(limit: number): Promise<readonly MinableTx[]> {
    const hashes = this.#index.inPriorityOrder().slice(0, limit).map((e) => e.txHash);
    const missing = hashes.filter((h) => !this.#minable.has(h));
    // After a restart the view is rebuilt from the stored JSON, only for the txs asked for.
    for (const [h, json] of await this.#store.findWireJsons(missing)) {
      if (this.isPending(h)) this.#minable.set(h, toMinableTx(decodeTx(JSON.parse(json))));
    }
    return hashes.flatMap((h) => this.#minable.get(h) ?? []);
  }

  /** TxSource: the txs are in a block; they leave the pool, then the rest is revalidated against the new state. */
  markMined(txHashes: readonly bigint[], block?: { readonly number: number; readonly hash?: bigint }): Promise<void> {
    return this.#exclusive(async () => {
      const mined = txHashes.filter((h) => this.isPending(h));
      // With the block number, the wire JSON is kept (txpool_mined) so a rollback can re-admit the tx.
      await this.#store.apply({ mined, ...(block === undefined ? {} : { minedBlock: block.number }) });
      for (const h of mined) this.#forget(h);
      await this.#evict(await this.#revalidationPlan());
    });
  }

  /**
   * The decoded Tx and wire JSON of a tx this pool saw mined (kept until its block is finalized,
   * at most the newest 10 000), or undefined: what a rollback re-admits.
   */
  async getMinedTx(txHash: bigint): Promise<{ tx: Tx; wire: object } | undefined> {
    const json = await this.#store.findMinedWireJson(txHash);
    if (json === undefined) return undefined;
    const wire = JSON.parse(json) as object;
    return { tx: decodeTx(wire), wire };
  }

  /** Forgets the mined-tx records at or below the finalized block (they cannot be unwound any more). */
  pruneMined(finalizedBlockNumber: number): Promise<void> {
    return this.#exclusive(() => this.#store.pruneMined(finalizedBlockNumber));
  }

  /** Records a tx that is not pending as dropped with `reason` (an unwound tx that is no longer valid). */
  recordDropped(txHash: bigint, reason: string): Promise<void> {
    return this.#exclusive(async () => {
      if (!this.isPending(txHash)) await this.#store.recordDropped(txHash, reason);
    });
  }

  /** TxSource: the sequencer will never include these txs. */
  markDropped(txHashes: readonly bigint[], reason: string): Promise<void> {
    return this.#exclusive(() => this.#evict(txHashes.filter((h) => this.isPending(h)).map((txHash) => ({ txHash, reason }))));
  }

  /** Drops pending txs a new block (or the passing of time) made invalid; returns them. */
  revalidateAfterBlock(): Promise<readonly Eviction[]> {
    return this.#exclusive(async () => {
      const plan = await this.#revalidationPlan();
      await this.#evict(plan);
      return plan;
    });
  }

  /** Stops accepting calls (pending writes finish first). The database stays open: its owner closes it. */
  async close(): Promise<void> {
    this.#open = false;
    await this.#queue.catch(() => undefined);
  }

  async #revalidationPlan(): Promise<Eviction[]> {
    const chain = this.#chain;
    const nextBlockNumber = (await chain.latestBlockNumber()) + 1;
    return planRevalidation(this.#index, {
      hasNullifier: (n) => chain.hasNullifier(n),
      nextBlockTimestamp: chain.nextBlockTimestamp(),
      nextBlockNumber,
      balanceOf: (p) => chain.feeJuiceBalance(p),
    });
  }

  async #evict(evictions: readonly Eviction[]): Promise<void> {
    if (evictions.length === 0) return;
    await this.#store.apply({ dropped: evictions });
    for (const e of evictions) this.#forget(e.txHash);
    this.#observer?.dropped(evictions);
  }

  #forget(txHash: bigint): void {
    this.#index.remove(txHash);
    this.#minable.delete(txHash);
  }

  /** Runs `fn` after every earlier change, so rule decisions and writes never interleave. */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.#open) return Promise.reject(new PoolNotRunning());
    const run = this.#queue.catch(() => undefined).then(fn);
    this.#queue = run;
    return run;
  }
}
