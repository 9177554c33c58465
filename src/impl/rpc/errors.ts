/**
 * The error catalogue of the JSON-RPC surfaces: `RpcError`, one class per catalogue entry
 * (docs/ARCHITECTURE.md "Contract: the error catalogue").
 *
 * Each class sends exactly the message template of its `components/errors` entry (the same in
 * both documents), filled from its `data`, e.g. `Block 7 not yet synced (world state is at block 5)`
 * with `{requested: 7, latest: 5}`. test/unit/codegen/error-catalogue.test.ts rebuilds every
 * `x-error-examples` entry of both documents from these classes and compares message and data.
 * Engine parts throw their own domain errors; ./wire-errors.ts turns them into these classes.
 * @module
 */
import { ErrorCode as AdminErrorCode } from '../../generated/admin/errors.ts';
import type { KeystoreReloadRejectedErrorData, RollbackRefusedErrorData } from '../../generated/admin/types.ts';
import { ErrorCode as DevErrorCode } from '../../generated/dev/errors.ts';
import { ErrorCode as PublicErrorCode } from '../../generated/public/errors.ts';

/**
 * Every JSON-RPC error code this node sends, by catalogue name: the generated catalogues of the three
 * documents (`components/errors`), which give a name the same code wherever it is declared.
 */
export const RpcErrorCode = { ...PublicErrorCode, ...AdminErrorCode, ...DevErrorCode } as const;

/** A catalogue name, e.g. `'NOT_IMPLEMENTED'`. */
export type RpcErrorName = keyof typeof RpcErrorCode;

/** The JSON-RPC 2.0 error object as it goes on the wire. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** An error that already knows its JSON-RPC code, message and structured `data`. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.data = data;
  }
}

/**
 * -32602: a parameter breaks its schema or a documented rule. `params[<index>] (<param>): <rule>`,
 * `data: {index, param, rule}`; `param` is the declared parameter's name, and a problem inside the
 * value starts `rule` with its path (`fromBlock must be integer`).
 */
export class InvalidParamsError extends RpcError {
  static readonly code = RpcErrorCode.INVALID_PARAMS;
  constructor(index: number, param: string, rule: string) {
    super(InvalidParamsError.code, `params[${index}] (${param}): ${rule}`, { index, param, rule });
  }
}

/** The base of a catalogue error without `data`: its code and its one message. */
function fixedMessageError(code: number, message: string) {
  return class extends RpcError {
    static readonly code = code;
    constructor() {
      super(code, message);
    }
  };
}

/** The admin API key is missing or wrong (SPEC §5); sent with HTTP 401. */
export class UnauthorizedError extends fixedMessageError(
  RpcErrorCode.UNAUTHORIZED,
  'Unauthorized: invalid or missing API key',
) {}

/** The method is in the document but the engine part behind it is not built yet. */
export class NotImplementedError extends RpcError {
  static readonly code = RpcErrorCode.NOT_IMPLEMENTED;
  constructor(method: string) {
    super(NotImplementedError.code, `Method not implemented: ${method}`, { method });
  }
}

/** The node is starting or shutting down and cannot answer yet. */
export class NodeNotReadyError extends RpcError {
  static readonly code = RpcErrorCode.NODE_NOT_READY;
  constructor(reason = 'starting') {
    super(NodeNotReadyError.code, `Node not ready: ${reason}`, { reason });
  }
}

/** A block above the synced tip was asked for, or a block hash (`requested`) the node does not know. */
export class BlockNotYetSyncedError extends RpcError {
  static readonly code = RpcErrorCode.BLOCK_NOT_YET_SYNCED;
  constructor(requested: number | string, latest: number) {
    super(BlockNotYetSyncedError.code, `Block ${requested} not yet synced (world state is at block ${latest})`, {
      requested,
      latest,
    });
  }
}

/** The block's history has been pruned from this node. */
export class BlockNotRetainedError extends RpcError {
  static readonly code = RpcErrorCode.BLOCK_NOT_RETAINED;
  constructor(requested: number, oldestAvailable: number) {
    super(
      BlockNotRetainedError.code,
      `State of block ${requested} is no longer retained (oldest available: ${oldestAvailable})`,
      {
        requested,
        oldestAvailable,
      },
    );
  }
}

/** A leaf index at or beyond the tree's size. Indexes are bigints, sent as decimal strings. */
export class LeafIndexOutOfRangeError extends RpcError {
  static readonly code = RpcErrorCode.LEAF_INDEX_OUT_OF_RANGE;
  constructor(leafIndex: bigint, treeSize: bigint) {
    super(LeafIndexOutOfRangeError.code, `Leaf index ${leafIndex} out of range (tree size ${treeSize})`, {
      leafIndex: leafIndex.toString(),
      treeSize: treeSize.toString(),
    });
  }
}

/** Transaction pool rejection codes (SPEC §7). */
export type TxPoolRejectionCode = 'LOW_PRIORITY_FEE' | 'INSUFFICIENT_FEE_PAYER_BALANCE' | 'NULLIFIER_CONFLICT';

/**
 * The mempool refused the transaction; `data.code` says why (SPEC §7). The message is the
 * rejection's own message (reference §4.2), repeated as `data.message`.
 */
export class TxPoolRejectedError extends RpcError {
  static readonly code = RpcErrorCode.TX_POOL_REJECTED;
  constructor(code: TxPoolRejectionCode, message: string, details: Record<string, string> = {}) {
    super(TxPoolRejectedError.code, message, { code, message, ...details });
  }
}

/**
 * The transaction failed validation; `data.reasons` lists why (message worded as Aztec 4.1 words it),
 * and `data.code` names the SPEC §7 rejection code when its condition is among them.
 */
export class TxInvalidError extends RpcError {
  static readonly code = RpcErrorCode.TX_INVALID;
  constructor(reasons: readonly string[], code?: TxPoolRejectionCode) {
    super(TxInvalidError.code, `Invalid tx: ${reasons.join(', ')}`, {
      reasons: [...reasons],
      ...(code === undefined ? {} : { code }),
    });
  }
}

/** The node refuses to simulate, e.g. `L2 gas limit 2365678 exceeds the maximum of 2000000`. */
export class SimulationRefusedError extends RpcError {
  static readonly code = RpcErrorCode.SIMULATION_REFUSED;
  constructor(reason: string, gas: { l2GasLimit?: bigint; maxL2GasLimit?: bigint; code?: TxPoolRejectionCode } = {}) {
    super(SimulationRefusedError.code, `Simulation refused: ${reason}`, {
      reason,
      ...(gas.code === undefined ? {} : { code: gas.code }),
      ...(gas.l2GasLimit === undefined ? {} : { l2GasLimit: gas.l2GasLimit.toString() }),
      ...(gas.maxL2GasLimit === undefined ? {} : { maxL2GasLimit: gas.maxL2GasLimit.toString() }),
    });
  }
}

/** A validator-stats slot range wider than the node keeps. Slots are bigints as decimal strings; `maxSlots` a number. */
export class SlotRangeTooWideError extends RpcError {
  static readonly code = RpcErrorCode.SLOT_RANGE_TOO_WIDE;
  constructor(fromSlot: bigint, toSlot: bigint, maxSlots: number) {
    super(SlotRangeTooWideError.code, `Slot range ${fromSlot}..${toSlot} exceeds the slot window of ${maxSlots}`, {
      fromSlot: fromSlot.toString(),
      toSlot: toSlot.toString(),
      maxSlots,
    });
  }
}

/** A keystore reload failed validation and nothing was changed (SPEC §4.12); `detail` goes in `data` only. */
export class KeystoreReloadRejectedError extends RpcError {
  static readonly code = RpcErrorCode.KEYSTORE_RELOAD_REJECTED;
  constructor(reason: KeystoreReloadRejectedErrorData['reason'], detail?: string, validator?: string) {
    super(KeystoreReloadRejectedError.code, `Keystore reload rejected: ${reason}`, {
      reason,
      ...(detail === undefined ? {} : { detail }),
      ...(validator === undefined ? {} : { validator }),
    });
  }
}

/** A snapshot upload is already running. */
export class SnapshotInProgressError extends fixedMessageError(
  RpcErrorCode.SNAPSHOT_IN_PROGRESS,
  'Snapshot upload already in progress',
) {}

/** A rollback the node will not do, e.g. behind the finalized block without `force`. */
export class RollbackRefusedError extends RpcError {
  static readonly code = RpcErrorCode.ROLLBACK_REFUSED;
  constructor(reason: RollbackRefusedErrorData['reason'], blocks: Omit<RollbackRefusedErrorData, 'reason'>) {
    super(RollbackRefusedError.code, `Rollback to block ${blocks.targetBlockNumber} refused: ${reason}`, {
      reason,
      ...blocks,
    });
  }
}

/** The node runs read-only and cannot change state. */
export class ReadOnlyNodeError extends fixedMessageError(RpcErrorCode.READ_ONLY_NODE, 'Node is read-only') {}

/** The wire message of -32603; the real cause goes to the log only. */
export const INTERNAL_ERROR_MESSAGE = 'Internal error';
