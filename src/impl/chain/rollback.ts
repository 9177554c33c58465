/**
 * Engine-level rollback (nodeAdmin_rollbackTo): checks the target against the tips, then unwinds
 * world state, chain tables (blocks, tx index, logs, L1→L2 placement, checkpoints, fee state) and
 * the dev L1's posted checkpoints in one transaction. Returns the txs of the unwound blocks so
 * the mempool can take them back.
 * @module
 */
import { RollbackRefusedError } from '../rpc/errors.ts';
import type { ChainQueries } from './chain-queries.ts';
import type { ChainState } from './chain-state.ts';
import type { TxEffect } from './types.ts';
import type { L1Chain } from '../l1/l1-chain.ts';

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

/** Unwinds the chain to `target`; a target equal to the tip is a no-op (with force: only the pool is cleared). Throws RollbackRefusedError. */
export async function rollbackChain(
  state: ChainState,
  queries: ChainQueries,
  l1: L1Chain,
  target: number,
  opts: RollbackOptions = {},
): Promise<UnwoundTx[]> {
  const tip = await state.latestBlockNumber();
  const finalized = (await queries.getL2Tips()).finalized.block.number;
  const blocks = { targetBlockNumber: target, tipBlockNumber: tip, finalizedBlockNumber: finalized };
  if (!Number.isInteger(target) || target < 0) throw new RangeError(`bad rollback target ${target}`);
  if (target > tip) throw new RollbackRefusedError('ABOVE_TIP', blocks);
  if (target < finalized && opts.force !== true) throw new RollbackRefusedError('BEHIND_FINALIZED_NEEDS_FORCE', blocks);
  // At the tip nothing unwinds; with force the P2P data (the tx pool) is still cleared.
  if (target === tip && opts.force !== true) return [];
  const removed = await state.unwindTo(
    target,
    async (trx, lastCheckpoint) => {
      if (l1.discardCheckpointsAfter) await l1.discardCheckpointsAfter(trx, lastCheckpoint);
    },
    { force: opts.force === true },
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
