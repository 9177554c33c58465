/**
 * Where the sequencer gets transactions: the `TxSource` seam the mempool implements, the
 * `MinableTx` view of a tx that block building needs, an adapter from a decoded `Tx`, and an
 * in-memory source for tests and for running without a pool. A source is also the chain's
 * `TxStatusOwner` (txpool/tx-status.ts): a block's txs change status inside the block's commit.
 * @module
 */
import type { Knex } from 'knex';
import type { ContractClassLog, L2Block, PrivateLog } from '../chain/types.ts';
import { priorityFee } from '../fees/fees.ts';
import { toTxPublicPart } from '../execution/tx-public-input.ts';
import type { TxPublicPart } from '../execution/tx-public-input.ts';
import { computeBlockHeaderHash } from '../tx/tx-hash.ts';
import type { GasSettings, Tx } from '../tx/types.ts';
import type { CommitFollowUp, PoolTxStatus, TxStatusOwner, UnwindOptions } from '../txpool/tx-status.ts';

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
  readonly privateLogs: readonly PrivateLog[];
  readonly contractClassLogs: readonly ContractClassLog[];
  /** Hash of the block header the tx was proven against; a block includes it only when that block is in the chain it extends. */
  readonly anchorBlockHash?: bigint;
  /** The tx is valid in blocks whose timestamp is at most this (seconds). */
  readonly expirationTimestamp?: bigint;
  /** Number of enqueued public calls (setup, app logic and teardown). */
  readonly publicCallCount: number;
  /** What the public VM runs (calls with calldata, private effects by phase); set when publicCallCount > 0. */
  readonly publicPart?: TxPublicPart;
}

/** The mempool as the sequencer sees it; it owns tx status, so the chain hands it each commit and unwind. */
export interface TxSource extends TxStatusOwner {
  /** Up to `limit` pending txs, highest priority first. */
  pendingTxsInPriorityOrder(limit: number): Promise<readonly MinableTx[]>;
  /** Called for txs the sequencer will never include, with the reason, when no block records them. */
  markDropped(txHashes: readonly bigint[], reason: string): Promise<void>;
}

/** Maps a decoded Tx to the view block building needs. */
export function toMinableTx(tx: Tx): MinableTx {
  const d = tx.data;
  const blocks = d.isForPublic
    ? [d.forPublic.nonRevertibleAccumulatedData, d.forPublic.revertibleAccumulatedData]
    : [d.forRollup.end];
  const calls = d.isForPublic
    ? [
        ...blocks.flatMap((b) =>
          'publicCallRequests' in b
            ? (b.publicCallRequests as readonly {
                contractAddress: bigint;
                msgSender: bigint;
                calldataHash: bigint;
                isStaticCall: boolean;
              }[])
            : [],
        ),
        d.forPublic.publicTeardownCallRequest,
      ].filter((c) => c.contractAddress !== 0n || c.msgSender !== 0n || c.calldataHash !== 0n || c.isStaticCall).length
    : 0;
  let cclIndex = 0;
  return {
    txHash: tx.txHash,
    anchorBlockHash: computeBlockHeaderHash(d.constants.anchorBlockHeader),
    expirationTimestamp: d.expirationTimestamp,
    feePayer: d.feePayer,
    gasSettings: d.constants.txContext.gasSettings,
    gasUsed: d.gasUsed,
    noteHashes: blocks.flatMap((b) => b.noteHashes.filter((x) => x !== 0n)),
    nullifiers: blocks.flatMap((b) => b.nullifiers.filter((x) => x !== 0n)),
    l2ToL1Msgs: blocks
      .flatMap((b) => b.l2ToL1Msgs)
      .filter((m) => m.message.recipient !== 0n || m.message.content !== 0n || m.contractAddress !== 0n)
      .map((m) => ({ sender: m.contractAddress, recipient: m.message.recipient, content: m.message.content })),
    privateLogs: blocks.flatMap((b) => b.privateLogs.filter((l) => l.emittedLength > 0)),
    contractClassLogs: blocks
      .flatMap((b) => b.contractClassLogsHashes)
      .filter((h) => h.logHash.value !== 0n)
      .map((h) => ({
        contractAddress: h.contractAddress,
        fields: tx.contractClassLogFields[cclIndex++]?.fields ?? [],
        emittedLength: h.logHash.length,
      })),
    publicCallCount: calls,
    ...(calls > 0 ? { publicPart: toTxPublicPart(tx)! } : {}),
  };
}

/**
 * A TxSource over an in-memory list ordered by max L2 priority fee (then hash), for tests and
 * benches that feed synthetic txs straight to the sequencer: like their fees, their anchor and
 * expiration are not checked (the pool's txs are: txpool/tx-pool.ts).
 */
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
    const fee = (t: MinableTx) => priorityFee(t.gasSettings);
    return [...this.#pending.values()]
      .sort((a, b) => (fee(b) !== fee(a) ? (fee(b) > fee(a) ? 1 : -1) : a.txHash < b.txHash ? -1 : 1))
      .slice(0, limit)
      .map(({ anchorBlockHash: _a, expirationTimestamp: _e, ...unchecked }) => unchecked);
  }

  async markDropped(txHashes: readonly bigint[], reason: string): Promise<void> {
    for (const h of txHashes) {
      this.#pending.delete(h);
      this.dropped.set(h, reason);
    }
  }

  async getTxStatus(txHash: bigint): Promise<PoolTxStatus> {
    if (this.#pending.has(txHash)) return { status: 'pending' };
    const reason = this.dropped.get(txHash);
    return reason === undefined ? undefined : { status: 'dropped', reason };
  }

  serializeCommit<T>(fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  /** In memory: nothing to write in the transaction; the block's txs leave after the commit. */
  async inBlockCommit(
    _trx: Knex.Transaction,
    block: L2Block,
    dropped: readonly { readonly txHash: bigint; readonly reason: string }[],
  ): Promise<CommitFollowUp> {
    return () => {
      for (const e of block.body.txEffects) {
        this.#pending.delete(e.txHash);
        this.mined.set(e.txHash, block.header.globalVariables.blockNumber);
      }
      for (const d of dropped) {
        this.#pending.delete(d.txHash);
        this.dropped.set(d.txHash, d.reason);
      }
    };
  }

  /** In memory: unwound txs are forgotten as mined (a test re-adds what it wants pending). */
  async inUnwind(_trx: Knex.Transaction, removed: readonly L2Block[], _opts: UnwindOptions): Promise<CommitFollowUp> {
    return () => {
      for (const b of removed) for (const e of b.body.txEffects) this.mined.delete(e.txHash);
    };
  }
}
