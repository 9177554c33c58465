/**
 * The bot's counters: txs sent, accepted, refused by code, mined and dropped, and the hashes of
 * accepted txs whose receipts are still to be looked at.
 * @module
 */

/** Most accepted txs whose receipts the bot follows; older ones are let go (counted as untracked). */
export const MAX_TRACKED_TXS = 5_000;

/** A report: totals since the start. */
export interface BotCounts {
  /** Txs handed to node_sendTx. */
  readonly sent: number;
  readonly accepted: number;
  /** Refusals by code (LOW_PRIORITY_FEE, TX_INVALID, UNREACHABLE, …). */
  readonly rejected: Readonly<Record<string, number>>;
  readonly mined: number;
  readonly dropped: number;
  /** Accepted, no receipt beyond `pending` yet. */
  readonly pending: number;
  /** Accepted txs let go unobserved (more than MAX_TRACKED_TXS pending at once). */
  readonly untracked: number;
  /** Sends that could not even be built (node unreachable while reading the anchor or the fees). */
  readonly readFailures: number;
}

/** Mutable counters behind `BotCounts`. */
export class BotStats {
  sent = 0;
  accepted = 0;
  mined = 0;
  dropped = 0;
  untracked = 0;
  readFailures = 0;
  readonly rejected = new Map<string, number>();
  /** Accepted tx hashes still pending, oldest first. */
  readonly pending = new Set<string>();

  reject(code: string): void {
    this.rejected.set(code, (this.rejected.get(code) ?? 0) + 1);
  }

  accept(hash: string): void {
    this.accepted++;
    this.pending.add(hash);
    if (this.pending.size > MAX_TRACKED_TXS) {
      const oldest = this.pending.values().next().value!;
      this.pending.delete(oldest);
      this.untracked++;
    }
  }

  /** Records a receipt status of a pending tx. */
  settle(hash: string, status: string): void {
    if (status === 'pending' || !this.pending.has(hash)) return;
    this.pending.delete(hash);
    if (status === 'dropped') this.dropped++;
    else this.mined++;
  }

  counts(): BotCounts {
    return {
      sent: this.sent,
      accepted: this.accepted,
      rejected: Object.fromEntries([...this.rejected].sort()),
      mined: this.mined,
      dropped: this.dropped,
      pending: this.pending.size,
      untracked: this.untracked,
      readFailures: this.readFailures,
    };
  }
}
