/**
 * The persistent mempool (TxPoolV2 rules, reference §4.3), and the owner of tx status
 * (tx-status.ts). Pending txs live in the database (exact wire JSON plus indexed columns) and in
 * an in-memory index rebuilt on open. Every change is serialized and written before it is
 * acknowledged; the in-memory index follows the database, never leads it. Txs leave when mined
 * (inside the block's transaction, with the revalidation of the rest against the state after the
 * block), when evicted, or when a rollback unwinds their anchor block or clears the pool (`force`);
 * dropped ones are recorded with the reason for receipts. It is the sequencer's `TxSource`.
 * @module
 */
import type { Knex } from 'knex';
import { feeJuiceBalanceLeafSlot } from '../chain/protocol.ts';
import type { L2Block } from '../chain/types.ts';
import { toFieldHex } from '../crypto/field.ts';
import type { MinableTx, TxSource } from '../sequencer/tx-source.ts';
import { toMinableTx } from '../sequencer/tx-source.ts';
import type { GasFees, Tx } from '../tx/index.ts';
import { computeBlockHeaderHash, decodeTx, isExpiredFor, TX_ERROR } from '../tx/index.ts';
import { EventLoopBudget } from '../world-state/event-loop-budget.ts';
import type { ChainView } from './chain-view.ts';
import { PoolNotRunning, PoolRejection } from './errors.ts';
import { PoolIndex } from './pool-index.ts';
import type { Eviction, PoolLimits, PostBlockState } from './pool-rules.ts';
import { DROP_REASON, planAdmission, planRevalidation, planShrink } from './pool-rules.ts';
import type { StoredTx } from './pool-store.ts';
import { migrateTxPoolSchema, PoolStore } from './pool-store.ts';
import { toPoolEntry } from './priority.ts';
import type { CommitFollowUp, DroppedTx, PoolTxStatus, UnwindOptions } from './tx-status.ts';
import { FORCED_ROLLBACK_REASON } from './tx-status.ts';
import { poolWireJson } from './wire-json.ts';

export type { PoolTxStatus } from './tx-status.ts';

/** Why an unwound tx the pool never saw mined (so it kept no wire form) cannot be pending again. */
export const UNWOUND_UNKNOWN_REASON = 'Unwound by a rollback, and this node kept no copy of the tx to re-admit it';

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
  /** The (tip, next block timestamp) the pool was last revalidated for: revalidation runs once per block and slot. */
  #revalidatedFor: string | undefined;

  private constructor(store: PoolStore, chain: ChainView, limits: TxPoolConfig, observer?: TxPoolObserver) {
    this.#store = store;
    this.#chain = chain;
    this.#limits = limits;
    this.#observer = observer;
  }

  /** Migrates the pool tables, loads the pending txs and returns the running pool. */
  static async open(deps: TxPoolDeps): Promise<TxPool> {
    await migrateTxPoolSchema(deps.db);
    const pool = new TxPool(
      new PoolStore(deps.db, deps.now),
      deps.chain,
      { ...DEFAULT_TX_POOL_CONFIG, ...deps.config },
      deps.observer,
    );
    const anchorOf = (json: string) =>
      computeBlockHeaderHash(decodeTx(JSON.parse(json)).data.constants.anchorBlockHeader);
    for (const e of await pool.#store.loadEntries(anchorOf)) {
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
      const wireJson = poolWireJson(wire, hashHex);
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
    const hashes = this.#index
      .inPriorityOrder()
      .slice(0, limit)
      .map((e) => e.txHash);
    const missing = hashes.filter((h) => !this.#minable.has(h));
    // After a restart the view is rebuilt from the stored JSON, only for the txs asked for.
    for (const [h, json] of await this.#store.findWireJsons(missing)) {
      if (this.isPending(h)) this.#minable.set(h, toMinableTx(decodeTx(JSON.parse(json))));
    }
    return hashes.flatMap((h) => this.#minable.get(h) ?? []);
  }

  /** Forgets the mined-tx records at or below the finalized block (they cannot be unwound any more). */
  pruneMined(finalizedBlockNumber: number): Promise<void> {
    return this.#exclusive(() => this.#store.pruneMined(finalizedBlockNumber));
  }

  /** TxSource: the sequencer will never include these txs. */
  markDropped(txHashes: readonly bigint[], reason: string): Promise<void> {
    return this.#exclusive(() =>
      this.#evict(txHashes.filter((h) => this.isPending(h)).map((txHash) => ({ txHash, reason }))),
    );
  }

  /**
   * Drops pending txs the passing of time made invalid (expired by the next slot); returns them.
   * A no-op when nothing changed since the last revalidation: each block commit revalidates
   * the pool inside its own transaction.
   */
  revalidateAfterBlock(): Promise<readonly Eviction[]> {
    return this.#exclusive(async () => {
      const key = await this.#revalidationKey();
      if (key === this.#revalidatedFor) return [];
      const plan = await this.#revalidationPlan();
      await this.#evict(plan);
      this.#revalidatedFor = key;
      return plan;
    });
  }

  /** TxStatusOwner: a block commit or unwind runs after every earlier pool change, and none runs during it. */
  serializeCommit<T>(fn: () => Promise<T>): Promise<T> {
    return this.#exclusive(fn);
  }

  /**
   * TxStatusOwner, inside block `block`'s transaction: its txs leave the pool (their wire JSON is
   * kept for a rollback), the builder's refusals are recorded, and the rest is revalidated against
   * the state after the block (the latest-state cache plus the block's own effects).
   */
  async inBlockCommit(trx: Knex.Transaction, block: L2Block, dropped: readonly DroppedTx[]): Promise<CommitFollowUp> {
    const number = block.header.globalVariables.blockNumber;
    const mined = block.body.txEffects.map((e) => e.txHash).filter((h) => this.isPending(h));
    const minedSet = new Set(block.body.txEffects.map((e) => e.txHash));
    const refused = dropped.filter((d) => !minedSet.has(d.txHash));
    const rest = this.#index.without([...mined, ...refused.map((d) => d.txHash)]);
    const state = this.#postBlockState(block);
    const plan = planRevalidation(rest, state);
    await this.#store.applyIn(trx, { mined, minedBlock: number, dropped: [...refused, ...plan] });
    const key = `${number}:${state.nextBlockTimestamp}`;
    return () => {
      for (const h of mined) this.#forget(h);
      for (const d of refused) this.#forget(d.txHash);
      for (const e of plan) this.#forget(e.txHash);
      this.#revalidatedFor = key;
      const left = [...refused, ...plan];
      if (left.length > 0) this.#observer?.dropped(left);
    };
  }

  /**
   * TxStatusOwner, inside an unwind's transaction (the chain rows above the target are deleted):
   * with `force` every pending and unwound tx is dropped (the P2P data is cleared); otherwise the
   * unwound txs are re-admitted in block order where still valid (anchor block still in the chain,
   * not expired, the pool's nullifier and capacity rules) and dropped with the reason where not,
   * and every pending tx anchored in an unwound block is dropped.
   */
  async inUnwind(trx: Knex.Transaction, removed: readonly L2Block[], opts: UnwindOptions): Promise<CommitFollowUp> {
    const unwound = removed.flatMap((b) => b.body.txEffects.map((e) => e.txHash));
    if (opts.force) {
      const cleared = [...this.#index.inPriorityOrder().map((e) => e.txHash), ...unwound].map((txHash) => ({
        txHash,
        reason: FORCED_ROLLBACK_REASON,
      }));
      await this.#store.applyIn(trx, { dropped: cleared, unmined: unwound });
      return () => {
        for (const d of cleared) this.#forget(d.txHash);
        if (cleared.length > 0) this.#observer?.dropped(cleared);
      };
    }
    const wires = await this.#store.findMinedWireJsons(trx, unwound);
    const index = this.#index.without([]);
    const reasons = new Map<bigint, string>();
    const readmitted = new Map<bigint, { stored: StoredTx; tx: Tx }>();
    const next = { nextBlockTimestamp: this.#chain.nextBlockTimestamp(), nextBlockNumber: opts.target + 1 };
    let seq = this.#seq;
    const noBalanceRule = () => 2n ** 255n; // balances are checked by afterUnwind, on the reloaded state
    for (const h of unwound) {
      const json = wires.get(h);
      if (json === undefined) {
        reasons.set(h, UNWOUND_UNKNOWN_REASON);
        continue;
      }
      const tx = decodeTx(JSON.parse(json));
      const entry = toPoolEntry(tx, seq);
      if (isExpiredFor(entry.expirationTimestamp, next)) {
        reasons.set(h, DROP_REASON.EXPIRED);
        continue;
      }
      try {
        for (const e of planAdmission(index, entry, toFieldHex(h), this.#limits, noBalanceRule)) {
          index.remove(e.txHash);
          reasons.set(e.txHash, e.reason);
        }
      } catch (err) {
        if (!(err instanceof PoolRejection)) throw err;
        reasons.set(h, err.message);
        continue;
      }
      index.add(entry);
      seq++;
      readmitted.set(h, { stored: { entry, wireJson: json }, tx });
    }
    // A tx is valid only on a chain that holds its anchor block.
    const known = await this.#knownBlockHashes(
      trx,
      index.inPriorityOrder().map((e) => e.anchorBlockHash),
    );
    for (const e of [...index.inPriorityOrder()]) {
      if (known.has(e.anchorBlockHash)) continue;
      index.remove(e.txHash);
      reasons.set(e.txHash, TX_ERROR.BLOCK_HEADER);
    }
    const add = [...readmitted.values()].filter((r) => index.get(r.stored.entry.txHash) !== undefined);
    const dropped = [...reasons].map(([txHash, reason]) => ({ txHash, reason }));
    await this.#store.applyIn(trx, { add: add.map((r) => r.stored), dropped, unmined: unwound });
    return () => {
      for (const d of dropped) this.#forget(d.txHash);
      for (const { stored, tx } of add) {
        this.#index.add(stored.entry);
        this.#minable.set(tx.txHash, toMinableTx(tx));
      }
      this.#seq = Math.max(this.#seq, seq);
      this.#revalidatedFor = undefined;
      if (dropped.length > 0) this.#observer?.dropped(dropped);
    };
  }

  /** TxStatusOwner: after an unwind, the whole pool against the unwound state (balances, nullifiers, expiry) at once. */
  afterUnwind(): Promise<void> {
    return this.#exclusive(async () => {
      await this.#evict(await this.#revalidationPlan());
      this.#revalidatedFor = await this.#revalidationKey();
    });
  }

  /** Stops accepting calls (pending writes finish first). The database stays open: its owner closes it. */
  async close(): Promise<void> {
    this.#open = false;
    await this.#queue.catch(() => undefined);
  }

  async #revalidationKey(): Promise<string> {
    return `${await this.#chain.getBlockNumber()}:${this.#chain.nextBlockTimestamp()}`;
  }

  /** The state after `block` as the rules read it: the latest-state cache (before the block) plus the block's effects. */
  #postBlockState(block: L2Block): PostBlockState {
    const nullifiers = new Set(block.body.txEffects.flatMap((e) => e.nullifiers));
    const writes = new Map(
      block.body.txEffects.flatMap((e) => e.publicDataWrites.map((w) => [w.leafSlot, w.value] as const)),
    );
    const chain = this.#chain;
    return {
      hasNullifier: (n) => nullifiers.has(n) || chain.hasNullifier(n),
      nextBlockTimestamp: chain.nextBlockTimestamp(),
      nextBlockNumber: block.header.globalVariables.blockNumber + 1,
      balanceOf: (p) => writes.get(feeJuiceBalanceLeafSlot(p)) ?? chain.feeJuiceBalance(p),
    };
  }

  /** Which of `hashes` are header hashes of blocks in the chain (read in `trx`, so an unwind's deletions count). */
  async #knownBlockHashes(trx: Knex.Transaction, hashes: readonly bigint[]): Promise<Set<bigint>> {
    const known = new Set<bigint>();
    const genesis = this.#chain.genesisBlockHash;
    if (genesis !== undefined) known.add(genesis);
    const wanted = [...new Set(hashes)].filter((h) => !known.has(h)).map(toFieldHex);
    for (let i = 0; i < wanted.length; i += 500) {
      for (const r of await trx('chain_blocks')
        .whereIn('hash', wanted.slice(i, i + 500))
        .select('hash'))
        known.add(BigInt(r.hash));
    }
    return known;
  }

  async #revalidationPlan(): Promise<Eviction[]> {
    const chain = this.#chain;
    const nextBlockNumber = (await chain.getBlockNumber()) + 1;
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

  /**
   * Runs `fn` after every earlier change, so rule decisions and writes never interleave. Changes
   * queued behind a block commit (the bot's and clients' adds) would otherwise run back to back
   * without the event loop turning, their SQLite queries resolving at once: each lets it turn
   * first once the stretch has used its slice (issue #21).
   */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.#open) return Promise.reject(new PoolNotRunning());
    const run = this.#queue
      .catch(() => undefined)
      .then(() => new EventLoopBudget().turn())
      .then(fn);
    this.#queue = run;
    return run;
  }
}
