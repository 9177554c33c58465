/**
 * Maps the domain errors of validators, slashing, node config, rollback and snapshots to wire
 * errors, with the exact messages and data of the documents' x-error-examples (the admin
 * document's "Rollback to block <n> refused: <reason>", "Keystore reload rejected: <reason>",
 * the public document's "Slot range a..b exceeds the slot window of n"). Anything else passes
 * through for the server's own mapping (-32603 without detail).
 * @module
 */
import { NodeNotReadyError, ReadOnlyNodeError, RpcError, RpcErrorCode, SnapshotInProgressError } from '../errors.ts';
import { ConfigRuleBroken } from '../../node-config/node-config.ts';
import { NodeIsReadOnly, RollbackRefusal } from '../../node-config/rollback-coordinator.ts';
import { SnapshotBusy, SnapshotNotReady } from '../../snapshots/snapshot-writer.ts';
import { KeystoreError } from '../../validators/keystore.ts';
import { ParamRuleBroken, SlotRangeTooWide } from '../../validators/errors.ts';

/** The wire error for a domain error; other values are returned unchanged. */
export function toRpcError(err: unknown): unknown {
  if (err instanceof RpcError) return err;
  if (err instanceof ParamRuleBroken) return invalidParams(err.param, err.index, err.rule);
  if (err instanceof ConfigRuleBroken) return invalidParams('config', 0, err.rule);
  if (err instanceof SlotRangeTooWide) {
    return new RpcError(
      RpcErrorCode.SLOT_RANGE_TOO_WIDE,
      `Slot range ${err.fromSlot}..${err.toSlot} exceeds the slot window of ${err.maxSlots}`,
      {
        fromSlot: err.fromSlot.toString(),
        toSlot: err.toSlot.toString(),
        maxSlots: err.maxSlots,
      },
    );
  }
  if (err instanceof KeystoreError) {
    return new RpcError(RpcErrorCode.KEYSTORE_RELOAD_REJECTED, `Keystore reload rejected: ${err.problem}`, {
      reason: err.problem,
      ...(err.detail === undefined ? {} : { detail: err.detail }),
      ...(err.validator === undefined ? {} : { validator: err.validator }),
    });
  }
  if (err instanceof RollbackRefusal) {
    return new RpcError(
      RpcErrorCode.ROLLBACK_REFUSED,
      `Rollback to block ${err.blocks.targetBlockNumber} refused: ${err.reason}`,
      { reason: err.reason, ...err.blocks },
    );
  }
  if (err instanceof SnapshotBusy) return new SnapshotInProgressError();
  if (err instanceof SnapshotNotReady) return new NodeNotReadyError(err.reason);
  if (err instanceof NodeIsReadOnly) return new ReadOnlyNodeError();
  return err;
}

function invalidParams(param: string, index: number, rule: string): RpcError {
  return new RpcError(RpcErrorCode.INVALID_PARAMS, `params[${index}] (${param}): ${rule}`, { param, index, rule });
}
