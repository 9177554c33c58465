/**
 * Validation of a decoded tx (issue 5; reference §4.1). The pure checks need only the tx and
 * values the caller passes in; the stateful ones (nullifier tree, fee payer balance, anchor
 * block, setup allow-list, proof) are injected callbacks, so the chain engine wires them later.
 * Reason strings are the 4.1.2 `TX_ERROR_*` texts that clients already match on.
 * @module
 */
import { readClassPublishedLog, readInstancePublishedLog } from '../contracts/registry-events.ts';
import { coversFees, INSUFFICIENT_FEE_PAYER_BALANCE, maxFee } from '../fees/fees.ts';
import type { PublicCallWithCalldata } from './tx-accessors.ts';
import {
  getContractClassLogs,
  getFeePayer,
  getGasSettings,
  getNullifiers,
  getPrivateLogs,
  getPublicCallRequests,
  getPublicCallsWithCalldata,
  getTotalCalldataCount,
  getTxSizeBytes,
} from './tx-accessors.ts';
import type { Gas, GasFees, GasSettings, Tx } from './types.ts';

/** The reasons a tx is invalid (`@aztec/stdlib` tx error constants). */
export const TX_ERROR = {
  INCORRECT_L1_CHAIN_ID: 'Incorrect L1 chain id',
  INCORRECT_ROLLUP_VERSION: 'Incorrect rollup version',
  INCORRECT_VK_TREE_ROOT: 'Incorrect verification keys tree root',
  INCORRECT_PROTOCOL_CONTRACTS_HASH: 'Incorrect protocol contracts hash',
  INVALID_EXPIRATION_TIMESTAMP: 'Invalid expiration timestamp',
  SIZE_ABOVE_LIMIT: 'Transaction size above size limit',
  CALLDATA_COUNT_TOO_LARGE: 'Total calldata too large for enqueued public calls',
  INSUFFICIENT_GAS_LIMIT: 'Gas limit is below the minimum fixed cost',
  GAS_LIMIT_TOO_HIGH: 'Gas limit is higher than the maximum amount of gas this network allows per tx',
  INSUFFICIENT_FEE_PER_GAS: 'Insufficient fee per gas',
  DUPLICATE_NULLIFIER_IN_TX: 'Duplicate nullifier in tx',
  EXISTING_NULLIFIER: 'Existing nullifier',
  INSUFFICIENT_FEE_PAYER_BALANCE: INSUFFICIENT_FEE_PAYER_BALANCE,
  BLOCK_HEADER: 'Block header not found',
  SETUP_FUNCTION_NOT_ALLOWED: 'Setup function not on allow list',
  INVALID_PROOF: 'Invalid proof',
  INCORRECT_CONTRACT_CLASS_ID: 'Incorrect contract class id',
  MALFORMED_CONTRACT_CLASS_LOG: 'Failed to parse contract class registration log',
  INCORRECT_CONTRACT_ADDRESS: 'Incorrect contract instance deployment address',
  MALFORMED_CONTRACT_INSTANCE_LOG: 'Failed to parse contract instance deployment log',
} as const;

/** One of the `TX_ERROR` texts. */
export type TxErrorReason = (typeof TX_ERROR)[keyof typeof TX_ERROR];

/** The node's values the pure checks compare against. */
export interface TxValidationContext {
  readonly chainId: bigint;
  readonly rollupVersion: bigint;
  /** Checked when given (reference §9 has the 4.1.2 values). */
  readonly vkTreeRoot?: bigint;
  readonly protocolContractsHash?: bigint;
  /** Timestamp (seconds) of the next block; a tx expiring before it is invalid. */
  readonly nextBlockTimestamp: bigint;
  /** Number of the next block, when known: block 1 takes txs whatever their expiration (see `isExpiredFor`). */
  readonly nextBlockNumber?: number;
  readonly maxTxSizeBytes: number;
  readonly maxCalldataFields: number;
  /** The fixed minimum gas a tx is charged, by kind (public calls cost more overhead). */
  readonly minGasLimits: { readonly forPublic: Gas; readonly forRollup: Gas };
  /** The most gas one tx may ask for (bounded by the block maximum). */
  readonly maxGasLimits: Gas;
  /** The current minimum fees per gas. */
  readonly minFeesPerGas: GasFees;
  readonly skipFeeEnforcement?: boolean;
  /** Simulation skips proof verification, as `isValidTx(tx, {isSimulation})` does. */
  readonly isSimulation?: boolean;
}

/** Chain-state lookups the stateful checks call; any left out is not checked. */
export interface TxStateChecks {
  /** Returns the nullifiers (of those given) that are already in the nullifier tree. */
  findExistingNullifiers?(nullifiers: readonly bigint[]): Promise<readonly bigint[]>;
  /** Returns the fee juice balance available to the fee payer for this tx (claims in setup included). */
  getFeePayerBalance?(feePayer: bigint, tx: Tx): Promise<bigint>;
  /** True when the tx's anchor block is in the archive. */
  isAnchorBlockKnown?(tx: Tx): Promise<boolean>;
  /** True when a setup-phase call is on the allow-list. */
  isSetupCallAllowed?(call: PublicCallWithCalldata): Promise<boolean>;
  /** True when the chonk proof verifies. */
  verifyProof?(tx: Tx): Promise<boolean>;
}

/** The outcome, in the `TxValidationResult` shape of the API. */
export type TxValidationResult =
  | { readonly result: 'valid' }
  | { readonly result: 'invalid'; readonly reason: readonly string[] };

/** Checks chain id, rollup version and, when configured, vk tree root and protocol contracts hash. */
export function checkMetadata(tx: Tx, ctx: TxValidationContext): TxErrorReason | undefined {
  const c = tx.data.constants;
  if (c.txContext.chainId !== ctx.chainId) return TX_ERROR.INCORRECT_L1_CHAIN_ID;
  if (c.txContext.version !== ctx.rollupVersion) return TX_ERROR.INCORRECT_ROLLUP_VERSION;
  if (ctx.vkTreeRoot !== undefined && c.vkTreeRoot !== ctx.vkTreeRoot) return TX_ERROR.INCORRECT_VK_TREE_ROOT;
  if (ctx.protocolContractsHash !== undefined && c.protocolContractsHash !== ctx.protocolContractsHash) {
    return TX_ERROR.INCORRECT_PROTOCOL_CONTRACTS_HASH;
  }
  return undefined;
}

/**
 * True when a tx expiring at `expirationTimestamp` may not go into the next block: it expires
 * before that block's timestamp (expiring exactly then is still fine). Block 1 is exempt, as in
 * 4.1.2's TimestampTxValidator: a tx anchored at genesis (timestamp 0) derives its expiration from
 * that anchor, and the rollup circuits skip the check for block 1.
 */
export function isExpiredFor(
  expirationTimestamp: bigint,
  next: { readonly nextBlockTimestamp: bigint; readonly nextBlockNumber?: number },
): boolean {
  return next.nextBlockNumber !== 1 && expirationTimestamp < next.nextBlockTimestamp;
}

/** Checks that the tx has not expired by the next block. */
export function checkExpiration(
  tx: Tx,
  ctx: Pick<TxValidationContext, 'nextBlockTimestamp' | 'nextBlockNumber'>,
): TxErrorReason | undefined {
  return isExpiredFor(tx.data.expirationTimestamp, ctx) ? TX_ERROR.INVALID_EXPIRATION_TIMESTAMP : undefined;
}

/** Checks the byte size and the total calldata field count. */
export function checkSize(
  tx: Tx,
  ctx: Pick<TxValidationContext, 'maxTxSizeBytes' | 'maxCalldataFields'>,
): TxErrorReason | undefined {
  if (getTxSizeBytes(tx) > ctx.maxTxSizeBytes) return TX_ERROR.SIZE_ABOVE_LIMIT;
  if (getTotalCalldataCount(tx) > ctx.maxCalldataFields) return TX_ERROR.CALLDATA_COUNT_TOO_LARGE;
  return undefined;
}

/** Checks the gas limits against the fixed minimum for the tx's kind and the maximum. */
export function checkGasLimits(
  tx: Tx,
  ctx: Pick<TxValidationContext, 'minGasLimits' | 'maxGasLimits'>,
): TxErrorReason | undefined {
  const { gasLimits } = getGasSettings(tx);
  const min = tx.data.isForPublic ? ctx.minGasLimits.forPublic : ctx.minGasLimits.forRollup;
  if (gasLimits.daGas < min.daGas || gasLimits.l2Gas < min.l2Gas) return TX_ERROR.INSUFFICIENT_GAS_LIMIT;
  if (gasLimits.daGas > ctx.maxGasLimits.daGas || gasLimits.l2Gas > ctx.maxGasLimits.l2Gas)
    return TX_ERROR.GAS_LIMIT_TOO_HIGH;
  return undefined;
}

/** Checks that the max fees per gas cover the current minimum fees, in both dimensions, unless fee enforcement is off. */
export function checkFeesPerGas(
  tx: Tx,
  ctx: Pick<TxValidationContext, 'minFeesPerGas' | 'skipFeeEnforcement'>,
): TxErrorReason | undefined {
  if (ctx.skipFeeEnforcement === true) return undefined;
  return coversFees(getGasSettings(tx).maxFeesPerGas, ctx.minFeesPerGas)
    ? undefined
    : TX_ERROR.INSUFFICIENT_FEE_PER_GAS;
}

/** Checks that no non-empty nullifier appears twice in the tx. */
export function checkNoDuplicateNullifiers(tx: Tx): TxErrorReason | undefined {
  const nullifiers = getNullifiers(tx);
  return new Set(nullifiers).size === nullifiers.length ? undefined : TX_ERROR.DUPLICATE_NULLIFIER_IN_TX;
}

/**
 * Checks each class publication log: its id must be the one its artifact hash, private functions
 * root and bytecode derive (4.1.2 DataTxValidator), so a deployment cannot claim another class's id.
 */
export function checkContractClassLogs(tx: Tx): TxErrorReason | undefined {
  for (const { logHash, fields } of getContractClassLogs(tx)) {
    const reading = readClassPublishedLog({
      contractAddress: logHash.contractAddress,
      fields,
      emittedLength: fields.length,
    });
    if (reading.kind === 'malformed') return TX_ERROR.MALFORMED_CONTRACT_CLASS_LOG;
    if (reading.kind === 'mismatch') return TX_ERROR.INCORRECT_CONTRACT_CLASS_ID;
  }
  return undefined;
}

/**
 * Checks each instance publication log: its address must be the one its fields derive (4.1.2
 * ContractInstanceTxValidator), so a deployment cannot publish an instance at someone else's address.
 */
export function checkContractInstanceLogs(tx: Tx): TxErrorReason | undefined {
  for (const log of getPrivateLogs(tx)) {
    const reading = readInstancePublishedLog(log);
    if (reading.kind === 'malformed') return TX_ERROR.MALFORMED_CONTRACT_INSTANCE_LOG;
    if (reading.kind === 'mismatch') return TX_ERROR.INCORRECT_CONTRACT_ADDRESS;
  }
  return undefined;
}

/** Runs every pure check and returns all failing reasons, in the 4.1.2 validator order. */
export function validateTxPure(tx: Tx, ctx: TxValidationContext): TxErrorReason[] {
  const reasons = [
    checkExpiration(tx, ctx),
    checkSize(tx, ctx),
    checkMetadata(tx, ctx),
    checkNoDuplicateNullifiers(tx),
    checkGasLimits(tx, ctx),
    checkFeesPerGas(tx, ctx),
    checkContractClassLogs(tx),
    checkContractInstanceLogs(tx),
  ];
  return reasons.filter((r): r is TxErrorReason => r !== undefined);
}

/**
 * Validates a tx: all pure checks first (every failing reason is reported); only when they pass,
 * the stateful checks in order, stopping at the first failure (they can be costly: the proof last).
 */
export async function validateTx(
  tx: Tx,
  ctx: TxValidationContext,
  state: TxStateChecks = {},
): Promise<TxValidationResult> {
  const pure = validateTxPure(tx, ctx);
  if (pure.length > 0) return { result: 'invalid', reason: pure };
  const reason = await firstStatefulFailure(tx, ctx, state);
  return reason === undefined ? { result: 'valid' } : { result: 'invalid', reason: [reason] };
}

async function firstStatefulFailure(
  tx: Tx,
  ctx: TxValidationContext,
  state: TxStateChecks,
): Promise<TxErrorReason | undefined> {
  if (state.isSetupCallAllowed) {
    // getPublicCallsWithCalldata lists setup calls first.
    const setupCount = getPublicCallRequests(tx.data).setup.length;
    for (const call of getPublicCallsWithCalldata(tx).slice(0, setupCount)) {
      if (!(await state.isSetupCallAllowed(call))) return TX_ERROR.SETUP_FUNCTION_NOT_ALLOWED;
    }
  }
  if (state.isAnchorBlockKnown && !(await state.isAnchorBlockKnown(tx))) return TX_ERROR.BLOCK_HEADER;
  if (state.findExistingNullifiers && (await state.findExistingNullifiers(getNullifiers(tx))).length > 0) {
    return TX_ERROR.EXISTING_NULLIFIER;
  }
  if (state.getFeePayerBalance && ctx.skipFeeEnforcement !== true) {
    const balance = await state.getFeePayerBalance(getFeePayer(tx), tx);
    if (balance < maxFee(getGasSettings(tx))) return TX_ERROR.INSUFFICIENT_FEE_PAYER_BALANCE;
  }
  if (state.verifyProof && ctx.isSimulation !== true && !(await state.verifyProof(tx))) return TX_ERROR.INVALID_PROOF;
  return undefined;
}
