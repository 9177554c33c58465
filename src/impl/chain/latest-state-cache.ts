/**
 * Synchronous reads of the latest committed state that block selection and the mempool's rules
 * need on every tx (is this nullifier spent? what is this FeeJuice balance?). It is a cache, not
 * a second world state: loaded from the world state's tables on open, advanced only after a block
 * committed, reloaded after an unwind. No trees, no hashing; the database stays the truth.
 * @module
 */
import type { PublicDataWrite } from './types.ts';
import type { WorldState } from '../world-state/world-state.ts';
import { TreeId } from '../world-state/constants.ts';

/** Latest nullifiers and public data values, read synchronously. */
export class LatestStateCache {
  #nullifiers = new Set<bigint>();
  #publicData = new Map<bigint, bigint>();

  /** Loads the cache from the world state's latest block. */
  static async load(ws: WorldState): Promise<LatestStateCache> {
    const c = new LatestStateCache();
    await c.reload(ws);
    return c;
  }

  /** Replaces the contents with the world state's latest block (after an unwind). */
  async reload(ws: WorldState): Promise<void> {
    this.#nullifiers = new Set((await ws.latestIndexedEntries(TreeId.NULLIFIER_TREE)).keys());
    this.#publicData = await ws.latestIndexedEntries(TreeId.PUBLIC_DATA_TREE);
  }

  /** True when the nullifier is in the nullifier tree. */
  hasNullifier(nullifier: bigint): boolean {
    return this.#nullifiers.has(nullifier);
  }

  /** The public data value at `leafSlot`, 0 when unset. */
  readPublicData(leafSlot: bigint): bigint {
    return this.#publicData.get(leafSlot) ?? 0n;
  }

  /** Records a committed block's effects. */
  applyCommitted(
    txs: readonly { readonly nullifiers: readonly bigint[]; readonly publicDataWrites: readonly PublicDataWrite[] }[],
  ): void {
    for (const tx of txs) {
      for (const n of tx.nullifiers) if (n !== 0n) this.#nullifiers.add(n);
      for (const w of tx.publicDataWrites) this.#publicData.set(w.leafSlot, w.value);
    }
  }
}
