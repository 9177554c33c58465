/**
 * The one domain-to-wire error mapping, at the RPC edge. Engine parts throw their own domain errors
 * (world state, chain rollback, mempool, node config, snapshots, keystore, validator record); this
 * module turns each into its catalogue class (./errors.ts), so the message is the document's
 * template filled from its data. The server sends what `toJsonRpcError` returns for anything a
 * handler throws; what it does not know is -32603 without detail (the cause goes to the log).
 * @module
 */
import { RollbackRefusal } from '../chain/rollback.ts';
import { ConfigRuleBroken } from '../node-config/node-config.ts';
import { NodeIsReadOnly } from '../node-config/rollback-coordinator.ts';
import { SnapshotBusy, SnapshotNotReady } from '../snapshots/snapshot-writer.ts';
import { PoolNotRunning, PoolRejection } from '../txpool/errors.ts';
import { ParamRuleBroken, SlotRangeTooWide } from '../validators/errors.ts';
import { KeystoreError } from '../validators/keystore.ts';
import { BlockNotRetained, BlockNotYetSynced, LeafIndexOutOfRange } from '../world-state/errors.ts';
import {
  BlockNotRetainedError,
  BlockNotYetSyncedError,
  INTERNAL_ERROR_MESSAGE,
  InvalidParamsError,
  type JsonRpcErrorObject,
  KeystoreReloadRejectedError,
  LeafIndexOutOfRangeError,
  NodeNotReadyError,
  ReadOnlyNodeError,
  RollbackRefusedError,
  RpcError,
  RpcErrorCode,
  SlotRangeTooWideError,
  SnapshotInProgressError,
  TxPoolRejectedError,
} from './errors.ts';

/** The catalogue error of a domain error (an `RpcError` as it is); undefined for anything else. */
export function toRpcError(err: unknown): RpcError | undefined {
  if (err instanceof RpcError) return err;
  if (err instanceof BlockNotYetSynced) return new BlockNotYetSyncedError(err.compared.requested, err.compared.latest);
  if (err instanceof BlockNotRetained) {
    return new BlockNotRetainedError(err.compared.requested, err.compared.oldestAvailable);
  }
  if (err instanceof LeafIndexOutOfRange) {
    return new LeafIndexOutOfRangeError(err.compared.leafIndex, err.compared.treeSize);
  }
  if (err instanceof PoolRejection) return new TxPoolRejectedError(err.code, err.message, err.fields);
  if (err instanceof PoolNotRunning) return new NodeNotReadyError(err.message);
  if (err instanceof ParamRuleBroken) return new InvalidParamsError(err.index, err.param, err.rule);
  if (err instanceof ConfigRuleBroken) return new InvalidParamsError(0, 'config', err.rule);
  if (err instanceof SlotRangeTooWide) return new SlotRangeTooWideError(err.fromSlot, err.toSlot, err.maxSlots);
  if (err instanceof KeystoreError) return new KeystoreReloadRejectedError(err.problem, err.detail, err.validator);
  if (err instanceof RollbackRefusal) return new RollbackRefusedError(err.reason, err.blocks);
  if (err instanceof SnapshotBusy) return new SnapshotInProgressError();
  if (err instanceof SnapshotNotReady) return new NodeNotReadyError(err.reason);
  if (err instanceof NodeIsReadOnly) return new ReadOnlyNodeError();
  return undefined;
}

/**
 * Turns whatever a handler threw into the wire error: a catalogue or domain error as its class
 * says; anything else -32603 with a generic message (no stack, no internal text on the wire).
 */
export function toJsonRpcError(err: unknown): JsonRpcErrorObject {
  const known = toRpcError(err);
  if (known === undefined) return { code: RpcErrorCode.INTERNAL_ERROR, message: INTERNAL_ERROR_MESSAGE };
  return known.data === undefined
    ? { code: known.code, message: known.message }
    : { code: known.code, message: known.message, data: known.data };
}
