/**
 * Domain errors of the mempool. `PoolRejection` carries the rejection code of SPEC §7 and the
 * fields of reference §4.2 (amounts as decimal strings); the RPC layer maps it to
 * TX_POOL_REJECTED. `PoolNotRunning` is the pool's "not ready" (NODE_NOT_READY on the wire).
 * @module
 */
import { toFieldHex } from '../crypto/field.ts';

/** The rejection codes a pool can answer with (reference §4.2 `TxPoolRejectionCode`). */
export const POOL_REJECTION = {
  LOW_PRIORITY_FEE: 'LOW_PRIORITY_FEE',
  INSUFFICIENT_FEE_PAYER_BALANCE: 'INSUFFICIENT_FEE_PAYER_BALANCE',
  NULLIFIER_CONFLICT: 'NULLIFIER_CONFLICT',
} as const;

/** One of the `POOL_REJECTION` codes. */
export type PoolRejectionCode = (typeof POOL_REJECTION)[keyof typeof POOL_REJECTION];

/** The mempool refused a valid tx; `fields` are the extra `data` fields of the wire error. */
export class PoolRejection extends Error {
  readonly code: PoolRejectionCode;
  readonly fields: Readonly<Record<string, string>>;

  constructor(code: PoolRejectionCode, message: string, fields: Record<string, string>) {
    super(message);
    this.name = 'PoolRejection';
    this.code = code;
    this.fields = fields;
  }

  /** The pool is full and `txPriorityFee` does not reach `minimumPriorityFee`. */
  static lowPriorityFee(minimumPriorityFee: bigint, txPriorityFee: bigint): PoolRejection {
    return new PoolRejection(
      POOL_REJECTION.LOW_PRIORITY_FEE,
      `Tx does not meet minimum priority fee. Required: ${minimumPriorityFee}, got: ${txPriorityFee}`,
      { minimumPriorityFee: minimumPriorityFee.toString(), txPriorityFee: txPriorityFee.toString() },
    );
  }

  /** The fee payer's balance left after its higher-priority pending txs does not cover `feeLimit`. */
  static insufficientBalance(
    feePayer: bigint,
    currentBalance: bigint,
    availableBalance: bigint,
    feeLimit: bigint,
  ): PoolRejection {
    return new PoolRejection(
      POOL_REJECTION.INSUFFICIENT_FEE_PAYER_BALANCE,
      `Fee payer ${toFieldHex(feePayer)} has insufficient balance. Balance at transaction: ${availableBalance}, required: ${feeLimit}`,
      {
        currentBalance: currentBalance.toString(),
        availableBalance: availableBalance.toString(),
        feeLimit: feeLimit.toString(),
      },
    );
  }

  /** A pending tx uses one of the nullifiers and `txPriorityFee` does not reach the bumped fee. */
  static nullifierConflict(
    conflictingTxHash: bigint,
    minimumPriceBumpFee: bigint,
    txPriorityFee: bigint,
  ): PoolRejection {
    const hash = toFieldHex(conflictingTxHash);
    return new PoolRejection(
      POOL_REJECTION.NULLIFIER_CONFLICT,
      `Nullifier conflict with existing tx ${hash}. Minimum required fee: ${minimumPriceBumpFee}, got: ${txPriorityFee}`,
      {
        conflictingTxHash: hash,
        minimumPriceBumpFee: minimumPriceBumpFee.toString(),
        txPriorityFee: txPriorityFee.toString(),
      },
    );
  }
}

/** The pool is not open (starting, or closed); sendTx answers NODE_NOT_READY. */
export class PoolNotRunning extends Error {
  constructor() {
    super('P2P client not running');
    this.name = 'PoolNotRunning';
  }
}
