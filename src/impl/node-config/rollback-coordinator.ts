/**
 * nodeAdmin_rollbackTo around the engine's rollback (reference §2, §6): refuse a target the
 * rollback rules refuse (chain/rollback.ts `checkRollbackTarget`); pause sync,
 * let the engine unwind (with `force` it clears world state and peer data and rebuilds), hand
 * the unwound txs back to the pool where they are still valid, drop the validator record of
 * the undone slots, and always resume sync afterwards — also when the rollback fails.
 * @module
 */
import { checkRollbackTarget, type RollbackBounds } from '../chain/rollback.ts';
import type { SyncControl } from './sync-control.ts';

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
  rollbackBounds(): Promise<RollbackBounds>;
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
  // Refused before sync pauses; the engine checks again under its own lock (the tip may move meanwhile).
  checkRollbackTarget(target, await d.engine.rollbackBounds(), force);
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
