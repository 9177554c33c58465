/**
 * Read-only views of a decoded tx that the pool, validators and sequencer need: non-empty side
 * effects, fee payer, gas settings, expiration, call counts and size. "Empty" follows the
 * package's helpers (TX-FORMAT §2.5): a zero field, an all-zero message or log hash, a private
 * log with `emittedLength` 0, a call request whose four parts are zero/false.
 * @module
 */
import { BYTES, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS } from './constants.ts';
import type {
  GasSettings,
  PrivateKernelTailCircuitPublicInputs,
  PrivateLog,
  PrivateToRollupAccumulatedData,
  PublicCallRequest,
  ScopedL2ToL1Message,
  ScopedLogHash,
  Tx,
} from './types.ts';

/** A public call request together with its calldata. */
export interface PublicCallWithCalldata {
  readonly request: PublicCallRequest;
  readonly calldata: readonly bigint[];
}

/** True when a call request is all zero (an unused slot, or no teardown). */
export function isEmptyCallRequest(c: PublicCallRequest): boolean {
  return c.msgSender === 0n && c.contractAddress === 0n && !c.isStaticCall && c.calldataHash === 0n;
}

/** True when a scoped log hash is all zero. */
export function isEmptyLogHash(h: ScopedLogHash): boolean {
  return h.logHash.value === 0n && h.logHash.length === 0 && h.contractAddress === 0n;
}

function isEmptyMessage(m: ScopedL2ToL1Message): boolean {
  return m.message.recipient === 0n && m.message.content === 0n && m.contractAddress === 0n;
}

/** Returns the accumulated-data blocks in tx order: non-revertible then revertible, or `end`. */
export function accumulatedDataBlocks(
  data: PrivateKernelTailCircuitPublicInputs,
): readonly PrivateToRollupAccumulatedData[] {
  return data.isForPublic
    ? [data.forPublic.nonRevertibleAccumulatedData, data.forPublic.revertibleAccumulatedData]
    : [data.forRollup.end];
}

/** Returns all non-empty nullifiers, non-revertible first. */
export function getNullifiers(tx: Tx): bigint[] {
  return accumulatedDataBlocks(tx.data).flatMap((d) => d.nullifiers.filter((x) => x !== 0n));
}

/** Returns the first nullifier, which makes the tx's note hashes unique (TX-FORMAT §2.5). */
export function getFirstNullifier(tx: Tx): bigint {
  return accumulatedDataBlocks(tx.data)[0].nullifiers[0];
}

/** Returns all non-empty note hashes, non-revertible first. */
export function getNoteHashes(tx: Tx): bigint[] {
  return accumulatedDataBlocks(tx.data).flatMap((d) => d.noteHashes.filter((x) => x !== 0n));
}

/** Returns all non-empty L2→L1 messages, non-revertible first. */
export function getL2ToL1Messages(tx: Tx): ScopedL2ToL1Message[] {
  return accumulatedDataBlocks(tx.data).flatMap((d) => d.l2ToL1Msgs.filter((m) => !isEmptyMessage(m)));
}

/** Returns all private logs with a non-zero `emittedLength`, non-revertible first. */
export function getPrivateLogs(tx: Tx): PrivateLog[] {
  return accumulatedDataBlocks(tx.data).flatMap((d) => d.privateLogs.filter((l) => l.emittedLength !== 0));
}

/** Returns all non-empty contract class log hashes, in the order `contractClassLogFields` follows. */
export function getContractClassLogHashes(data: PrivateKernelTailCircuitPublicInputs): ScopedLogHash[] {
  return accumulatedDataBlocks(data).flatMap((d) => d.contractClassLogsHashes.filter((h) => !isEmptyLogHash(h)));
}

/** Returns each contract class log: its hash entry, and its fields trimmed to the committed length. */
export function getContractClassLogs(
  tx: Tx,
): { readonly logHash: ScopedLogHash; readonly fields: readonly bigint[] }[] {
  return getContractClassLogHashes(tx.data).map((logHash, i) => ({
    logHash,
    fields: tx.contractClassLogFields[i].fields.slice(0, logHash.logHash.length),
  }));
}

/** Returns the fee payer address. */
export function getFeePayer(tx: Tx): bigint {
  return tx.data.feePayer;
}

/** Returns the gas settings: gasLimits, teardownGasLimits, maxFeesPerGas, maxPriorityFeesPerGas. */
export function getGasSettings(tx: Tx): GasSettings {
  return tx.data.constants.txContext.gasSettings;
}

/** Returns the expiration timestamp in seconds. */
export function getExpirationTimestamp(tx: Tx): bigint {
  return tx.data.expirationTimestamp;
}

/** Returns the non-empty setup (non-revertible), app-logic (revertible) and teardown call requests. */
export function getPublicCallRequests(data: PrivateKernelTailCircuitPublicInputs): {
  readonly setup: readonly PublicCallRequest[];
  readonly appLogic: readonly PublicCallRequest[];
  readonly teardown: PublicCallRequest | undefined;
} {
  if (!data.isForPublic) return { setup: [], appLogic: [], teardown: undefined };
  const p = data.forPublic;
  return {
    setup: p.nonRevertibleAccumulatedData.publicCallRequests.filter((c) => !isEmptyCallRequest(c)),
    appLogic: p.revertibleAccumulatedData.publicCallRequests.filter((c) => !isEmptyCallRequest(c)),
    teardown: isEmptyCallRequest(p.publicTeardownCallRequest) ? undefined : p.publicTeardownCallRequest,
  };
}

/** Returns the number of setup, app-logic and teardown (0 or 1) calls. */
export function getPublicCallCounts(tx: Tx): {
  readonly setup: number;
  readonly appLogic: number;
  readonly teardown: number;
} {
  const { setup, appLogic, teardown } = getPublicCallRequests(tx.data);
  return { setup: setup.length, appLogic: appLogic.length, teardown: teardown === undefined ? 0 : 1 };
}

/** Returns every non-empty call request in execution order (setup, app logic, teardown) with its calldata. */
export function getPublicCallsWithCalldata(tx: Tx): PublicCallWithCalldata[] {
  const { setup, appLogic, teardown } = getPublicCallRequests(tx.data);
  const requests = teardown === undefined ? [...setup, ...appLogic] : [...setup, ...appLogic, teardown];
  // Decoding checked that every request has an entry with its hash (TX-FORMAT §1: matched by hash).
  const byHash = new Map(tx.publicFunctionCalldata.map((c) => [c.hash, c.values] as const));
  return requests.map((request) => ({ request, calldata: byHash.get(request.calldataHash) ?? [] }));
}

/** Returns the total number of calldata fields over all public calls. */
export function getTotalCalldataCount(tx: Tx): number {
  return tx.publicFunctionCalldata.reduce((n, c) => n + c.values.length, 0);
}

/**
 * Returns the tx's size in bytes in its binary p2p form (`Tx.toBuffer()`, TX-FORMAT §6):
 * hash, data, proof, the contract class logs and the calldata with their counts.
 */
export function getTxSizeBytes(tx: Tx): number {
  const data = tx.data.isForPublic ? BYTES.dataForPublic : BYTES.dataForRollup;
  const logs = 1 + tx.contractClassLogFields.length * CONTRACT_CLASS_LOG_SIZE_IN_FIELDS * BYTES.field;
  const calldata =
    1 + tx.publicFunctionCalldata.reduce((n, c) => n + BYTES.u32 + (c.values.length + 1) * BYTES.field, 0);
  return BYTES.field + data + BYTES.chonkProof + logs + calldata;
}
