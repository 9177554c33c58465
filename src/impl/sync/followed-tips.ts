/**
 * The followed node's proven and finalized checkpoint numbers, kept in chain_meta so that a
 * restarted follower reports them before its first poll. Reported capped at our own latest
 * checkpoint: a follower never calls proven what it has not verified itself.
 * @module
 */
import type { ChainStore } from '../chain/chain-store.ts';
import type { L2Tips } from '../chain/types.ts';

const KEY = 'sync.followedProofTips';

/** Proven/finalized checkpoint numbers of the followed node. */
export class FollowedTips {
  readonly #store: Pick<ChainStore, 'getMeta' | 'setMeta'>;
  #proven = 0;
  #finalized = 0;
  #loaded: Promise<void> | undefined;

  constructor(store: Pick<ChainStore, 'getMeta' | 'setMeta'>) {
    this.#store = store;
  }

  /** Reads the numbers stored by an earlier run (once). */
  load(): Promise<void> {
    this.#loaded ??= this.#load();
    return this.#loaded;
  }

  async #load(): Promise<void> {
    const raw = await this.#store.getMeta(KEY);
    if (raw === undefined) return;
    const v = JSON.parse(raw) as { proven: number; finalized: number };
    this.#proven = v.proven;
    this.#finalized = v.finalized;
  }

  /** Takes the source's latest tips (stored only when they changed). */
  async record(tips: L2Tips): Promise<void> {
    await this.load();
    const proven = tips.proven.checkpoint.number,
      finalized = tips.finalized.checkpoint.number;
    if (proven === this.#proven && finalized === this.#finalized) return;
    this.#proven = proven;
    this.#finalized = finalized;
    await this.#store.setMeta(KEY, JSON.stringify({ proven, finalized }));
  }

  /** The numbers capped at our latest checkpoint (for ChainQueries.setProofTips). */
  async capped(store: Pick<ChainStore, 'latestCheckpointNumber'>): Promise<{ proven: number; finalized: number }> {
    await this.load();
    const ours = await store.latestCheckpointNumber();
    return { proven: Math.min(this.#proven, ours), finalized: Math.min(this.#finalized, ours) };
  }
}
