/**
 * Where the sequencer gets transactions: the `TxSource` seam the mempool implements, the
 * `MinableTx` view of a tx that block building needs, an adapter from a decoded `Tx`, and an
 * in-memory source for tests and for running without a pool.
 * @module
 */
import { toTxPublicPart } from '../execution/tx-public-input.ts';
import type { TxPublicPart } from '../execution/tx-public-input.ts';
import type { GasSettings, Tx } from '../tx/types.ts';

/** An L2→L1 message before hashing. */
export interface L2ToL1Message {
  readonly sender: bigint;
  readonly recipient: bigint;
  readonly content: bigint;
}

/** What block building needs from a tx. Arrays hold only non-empty entries, in tx order. */
export interface MinableTx {
  readonly txHash: bigint;
  readonly feePayer: bigint;
  readonly gasSettings: GasSettings;
  readonly gasUsed: { readonly daGas: number; readonly l2Gas: number };
  readonly noteHashes: readonly bigint[];
  readonly nullifiers: readonly bigint[];
  readonly l2ToL1Msgs: readonly L2ToL1Message[];
  readonly privateLogs: readonly { readonly fields: readonly bigint[]; readonly emittedLength: number }[];
  readonly contractClassLogs: readonly { readonly contractAddress: bigint; readonly fields: readonly bigint[]; readonly emittedLength: number }[];
  /** Number of enqueued public calls (setup, app logic and teardown). */
  readonly publicCallCount: number;
  /** What the public VM runs (calls with calldata, private effects by phase); set when publicCallCount > 0. */
  readonly publicPart?: TxPublicPart;
}

/** The mempool as the sequencer sees it. */
export interface TxSource {
  /** Up to `limit` pending txs, highest priority first. */
  pendingTxsInPriorityOrder(limit: number): Promise<readonly MinableTx[]>;
  /** Called once the txs are in block `block`. */
  markMined(txHashes: readonly bigint[], block: { readonly number: number; readonly hash: bigint }): Promise<void>;
  /** Called for txs the sequencer will never include, with the reason. */
  markDropped(txHashes: readonly bigint[], reason: string): Promise<void>;
}

/** Maps a decoded Tx to the view block building needs. */
export function toMinableTx(tx: Tx): MinableTx {
  const d = tx.data;
  const blocks = d.isForPublic ? [d.forPublic.nonRevertibleAccumulatedData, d.forPublic.revertibleAccumulatedData] : [d.forRollup.end];
  const calls = d.isForPublic
    ? [...blocks.flatMap((b) => ('publicCallRequests' in b ? (b.publicCallRequests as readonly { contractAddress: bigint; msgSender: bigint; calldataHash: bigint; isStaticCall: boolean }[]) : [])), d.forPublic.publicTeardownCallRequest]
        .filter((c) => c.contractAddress !== 0n || c.msgSender !== 0n || c.calldataHash !== 0n || c.isStaticCall).length
    : 0;
  let cclIndex = 0;
  return {
    txHash: tx.txHash,
    feePayer: d.feePayer,
    gasSettings: d.constants.txContext.gasSettings,
    gasUsed: d.gasUsed,
    noteHashes: blocks.flatMap((b) => b.noteHashes.filter((x) => x !== 0n)),
    nullifiers: blocks.flatMap((b) => b.nullifiers.filter((x) => x !== 0n)),
    l2ToL1Msgs: blocks.flatMap((b) => b.l2ToL1Msgs)
      .filter((m) => m.message.recipient !== 0n || m.message.content !== 0n || m.contractAddress !== 0n)
      .map((m) => ({ sender: m.contractAddress, recipient: m.message.recipient, content: m.message.content })),
    privateLogs: blocks.flatMap((b) => b.privateLogs.filter((l) => l.emittedLength > 0)),
    contractClassLogs: blocks.flatMap((b) => b.contractClassLogsHashes)
      .filter((h) => h.logHash.value !== 0n)
      .map((h) => ({ contractAddress: h.contractAddress, fields: tx.contractClassLogFields[cclIndex++]?.fields ?? [], emittedLength: h.logHash.length })),
    publicCallCount: calls,
    ...(calls > 0 ? { publicPart: toTxPublicPart(tx)! } : {}),
  };
}

/** A TxSource over an in-memory list ordered by max L2 priority fee (then hash). */
export class InMemoryTxSource implements TxSource {
  #pending = new Map<bigint, MinableTx>();
  readonly mined = new Map<bigint, number>();
  readonly dropped = new Map<bigint, string>();

  /** Adds a tx to the pending set. */
  add(tx: MinableTx): void {
    this.#pending.set(tx.txHash, tx);
  }

  /** True while `txHash` waits to be mined. */
  isPending(txHash: bigint): boolean {
    return this.#pending.has(txHash);
  }

  async pendingTxsInPriorityOrder(limit: number): Promise<readonly MinableTx[]> {
    const fee = (t: MinableTx) => {
      const g = t.gasSettings;
      return g.maxPriorityFeesPerGas.feePerL2Gas < g.maxFeesPerGas.feePerL2Gas ? g.maxPriorityFeesPerGas.feePerL2Gas : g.maxFeesPerGas.feePerL2Gas;
    };
    return [...this.#pending.values()]
      .sort((a, b) => (fee(b) !== fee(a) ? (fee(b) > fee(a) ? 1 : -1) : a.txHash < b.txHash ? -1 : 1))
      .slice(0, limit);
  }

  async markMined(txHashes: readonly bigint[], block: { readonly number: number }): Promise<void> {
    for (const h of txHashes) {
      this.#pending.delete(h);
      this.mined.set(h, block.number);
    }
  }

  async markDropped(txHashes: readonly bigint[], reason: string): Promise<void> {
    for (const h of txHashes) {
      this.#pending.delete(h);
      this.dropped.set(h, reason);
    }
  }
}
