/**
 * Engine-level rollback (nodeAdmin_rollbackTo): the rules a target must meet (the one place they
 * are written; node-config/rollback-coordinator.ts asks them too, before it pauses sync), then the
 * unwind of world state, chain tables (blocks, tx index, logs, L1→L2 placement, checkpoints, fee
 * state) and the dev L1's posted checkpoints in one transaction. Returns the txs of the unwound
 * blocks so the mempool can take them back.
 * @module
 */

import type { L1Chain } from '../l1/l1-chain.ts';
import type { ChainQueries } from './chain-queries.ts';
import type { ChainState } from './chain-state.ts';
import type { TxStatusOwner } from '../txpool/tx-status.ts';
import type { TxEffect } from './types.ts';

/** A tx that was in an unwound block. */
export interface UnwoundTx {
  readonly txHash: bigint;
  readonly blockNumber: number;
  readonly txIndex: number;
  readonly effect: TxEffect;
}

/** Options of a rollback. */
export interface RollbackOptions {
  /** Allow a target below the finalized block (all history is kept, so no rebuild is needed); clears the tx pool. */
  readonly force?: boolean;
}

/** Why a rollback is refused (ROLLBACK_REFUSED `data.reason` on the wire). */
export type RollbackRefusalReason = 'ABOVE_TIP' | 'BEHIND_FINALIZED_NEEDS_FORCE' | 'HISTORY_PRUNED_NEEDS_FORCE';

/** The chain's bounds a rollback target is checked against. */
export interface RollbackBounds {
  readonly tip: number;
  readonly finalized: number;
  /** The oldest block whose world state is held (absent: all of them). */
  readonly oldestHistoric?: number;
}

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

/**
 * The rollback rules (reference §2, §6): a target above the tip is refused; behind the finalized
 * block, or below the oldest block with world-state history, only with `force`.
 */
export function checkRollbackTarget(target: number, bounds: RollbackBounds, force: boolean): void {
  if (!Number.isInteger(target) || target < 0) throw new RangeError(`bad rollback target ${target}`);
  const blocks = { targetBlockNumber: target, tipBlockNumber: bounds.tip, finalizedBlockNumber: bounds.finalized };
  if (target > bounds.tip) throw new RollbackRefusal('ABOVE_TIP', blocks);
  if (target < bounds.finalized && !force) throw new RollbackRefusal('BEHIND_FINALIZED_NEEDS_FORCE', blocks);
  if (bounds.oldestHistoric !== undefined && target < bounds.oldestHistoric && !force) {
    throw new RollbackRefusal('HISTORY_PRUNED_NEEDS_FORCE', {
      ...blocks,
      oldestHistoricBlockNumber: bounds.oldestHistoric,
    });
  }
}

/** The tip, the finalized block and the oldest block with world-state history, as a rollback sees them. */
export async function rollbackBounds(state: ChainState, queries: ChainQueries): Promise<RollbackBounds> {
  return {
    tip: await state.latestBlockNumber(),
    finalized: (await queries.getL2Tips()).finalized.block.number,
    oldestHistoric: state.worldState.oldestHistoricBlockNumber,
  };
}

/** Unwinds the chain to `target`; a target equal to the tip is a no-op (with force: only the pool is cleared). Throws RollbackRefusal. */
export async function rollbackChain(
  state: ChainState,
  txStatus: TxStatusOwner | undefined,
  queries: ChainQueries,
  l1: L1Chain,
  target: number,
  opts: RollbackOptions = {},
): Promise<UnwoundTx[]> {
  const force = opts.force === true;
  const bounds = await rollbackBounds(state, queries);
  checkRollbackTarget(target, bounds, force);
  // At the tip nothing unwinds; with force the P2P data (the tx pool) is still cleared.
  if (target === bounds.tip && !force) return [];
  const removed = await state.unwindTo(
    target,
    txStatus,
    async (trx, lastCheckpoint) => {
      if (l1.discardCheckpointsAfter) await l1.discardCheckpointsAfter(trx, lastCheckpoint);
    },
    { force },
  );
  return removed.flatMap((b) =>
    b.body.txEffects.map((effect, txIndex) => ({
      txHash: effect.txHash,
      blockNumber: b.header.globalVariables.blockNumber,
      txIndex,
      effect,
    })),
  );
}
