/**
 * nodeAdmin_rollbackTo around the engine's rollback (reference §2, §6): refuse a target above
 * the tip, or behind the finalized block (or below pruned history) without `force`; pause sync,
 * let the engine unwind (with `force` it clears world state and peer data and rebuilds), hand
 * the unwound txs back to the pool where they are still valid, drop the validator record of
 * the undone slots, and always resume sync afterwards — also when the rollback fails.
 * @module
 */
import type { SyncControl } from './sync-control.ts';

/** Why a rollback is refused. */
export type RollbackRefusalReason = 'ABOVE_TIP' | 'BEHIND_FINALIZED_NEEDS_FORCE' | 'HISTORY_PRUNED_NEEDS_FORCE';

/** The block numbers a refusal compared. */
export interface RollbackBlocks {
  readonly targetBlockNumber: number;
  readonly tipBlockNumber: number;
  readonly finalizedBlockNumber: number;
  readonly oldestHistoricBlockNumber?: number;
}

/** A refused rollback; nothing was changed. */
export class RollbackRefusal extends Error {
  readonly reason: RollbackRefusalReason;
  readonly blocks: RollbackBlocks;
  constructor(reason: RollbackRefusalReason, blocks: RollbackBlocks) {
    super(`Rollback to block ${blocks.targetBlockNumber} refused: ${reason}`);
    this.name = 'RollbackRefusal';
    this.reason = reason;
    this.blocks = blocks;
  }
}

/** The node was started read-only. */
export class NodeIsReadOnly extends Error {
  constructor() {
    super('Node is read-only');
    this.name = 'NodeIsReadOnly';
  }
}

/** What the engine offers for a rollback (engine.rollbackTo). */
export interface Rollback {
  /** Tip, finalized and (when history is pruned) oldest block with world-state history. */
  rollbackBounds(): Promise<{ tip: number; finalized: number; oldestHistoric?: number }>;
  /** Unwinds to `target` (with `force`: clears world state and peer data and rebuilds); returns the unwound txs. */
  rollbackTo(target: number, force: boolean): Promise<readonly unknown[]>;
  /** The slot of block `n` (0 for genesis), to trim the validator record. */
  slotOfBlock?(n: number): Promise<number>;
}

/** Coordinator dependencies. */
export interface RollbackDeps {
  readonly engine: Rollback;
  readonly sync: SyncControl;
  /** Re-admits an unwound tx; a rejection (no longer valid) is expected and ignored. */
  readonly readmitTx: (tx: unknown) => Promise<unknown>;
  /** Refuses while another state-rewriting operation runs (a snapshot upload). */
  readonly assertNotBusy?: () => void;
  readonly readOnly?: boolean;
  /** Forgets validator-record slots after the given slot. */
  readonly trimRecordAfterSlot?: (slot: number) => Promise<void>;
}

/** The outcome of a rollback. */
export interface RollbackOutcome {
  readonly unwound: number;
  readonly readmitted: number;
}

/** Runs nodeAdmin_rollbackTo. */
export async function rollbackTo(d: RollbackDeps, target: number, force = false): Promise<RollbackOutcome> {
  if (d.readOnly === true) throw new NodeIsReadOnly();
  d.assertNotBusy?.();
  const { tip, finalized, oldestHistoric } = await d.engine.rollbackBounds();
  const blocks: RollbackBlocks = { targetBlockNumber: target, tipBlockNumber: tip, finalizedBlockNumber: finalized };
  if (target > tip) throw new RollbackRefusal('ABOVE_TIP', blocks);
  if (target < finalized && !force) throw new RollbackRefusal('BEHIND_FINALIZED_NEEDS_FORCE', blocks);
  if (oldestHistoric !== undefined && target < oldestHistoric && !force) {
    throw new RollbackRefusal('HISTORY_PRUNED_NEEDS_FORCE', { ...blocks, oldestHistoricBlockNumber: oldestHistoric });
  }
  await d.sync.pause();
  try {
    const unwound = await d.engine.rollbackTo(target, force);
    if (d.trimRecordAfterSlot !== undefined && d.engine.slotOfBlock !== undefined)
      await d.trimRecordAfterSlot(await d.engine.slotOfBlock(target));
    let readmitted = 0;
    for (const tx of unwound) {
      try {
        await d.readmitTx(tx);
        readmitted++;
      } catch {
        // Expected for txs the rolled-back chain makes invalid (spent nullifier, fee too low, expired).
      }
    }
    return { unwound: unwound.length, readmitted };
  } finally {
    // As in Aztec: always resumed, in `finally`, also when the node was paused before.
    d.sync.resume();
  }
}
