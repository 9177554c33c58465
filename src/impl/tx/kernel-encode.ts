/**
 * Encodes `Tx.data` from its typed structures: the exact inverse of `kernel-decode.ts`
 * (TX-FORMAT §2), so a decoded tx re-encodes to the bytes it came from.
 * @module
 */
import { ByteWriter } from './byte-writer.ts';
import { ACCUMULATED_DATA_LENGTHS as LENGTHS, BYTES, PRIVATE_LOG_SIZE_IN_FIELDS } from './constants.ts';
import type * as T from './types.ts';

/** Encodes `Tx.data`; throws `RangeError` on a structure that breaks the layout (wrong array length, value out of range). */
export function encodeKernelPublicInputs(data: T.PrivateKernelTailCircuitPublicInputs): Uint8Array {
  const w = new ByteWriter(data.isForPublic ? BYTES.dataForPublic : BYTES.dataForRollup);
  w.writeBool(data.isForPublic);
  writeTxConstantData(w, data.constants);
  writeGas(w, data.gasUsed);
  w.writeField(data.feePayer);
  w.writeU64(data.expirationTimestamp);
  if (data.isForPublic) {
    const p = data.forPublic;
    for (const phase of [p.nonRevertibleAccumulatedData, p.revertibleAccumulatedData])
      writePublicAccumulatedData(w, phase);
    writePublicCallRequest(w, p.publicTeardownCallRequest);
  } else writeRollupAccumulatedData(w, data.forRollup.end);
  return w.finish();
}

function writeArray<T>(
  w: ByteWriter,
  items: readonly T[],
  length: number,
  write: (w: ByteWriter, item: T) => void,
): void {
  if (items.length !== length) throw new RangeError(`fixed array needs ${length} elements, got ${items.length}`);
  for (const item of items) write(w, item);
}

function writeFieldItem(w: ByteWriter, x: bigint): void {
  w.writeField(x);
}

function writeSnapshot(w: ByteWriter, s: T.AppendOnlyTreeSnapshot): void {
  w.writeField(s.root);
  w.writeU32(s.nextAvailableLeafIndex);
}

function writeGas(w: ByteWriter, g: T.Gas): void {
  w.writeU32(g.daGas);
  w.writeU32(g.l2Gas);
}

function writeGasFees(w: ByteWriter, f: T.GasFees): void {
  w.writeU128(f.feePerDaGas);
  w.writeU128(f.feePerL2Gas);
}

/** Writes a 440-byte `BlockHeader`. */
export function writeBlockHeader(w: ByteWriter, h: T.BlockHeader): void {
  writeSnapshot(w, h.lastArchive);
  writeSnapshot(w, h.state.l1ToL2MessageTree);
  writeSnapshot(w, h.state.partial.noteHashTree);
  writeSnapshot(w, h.state.partial.nullifierTree);
  writeSnapshot(w, h.state.partial.publicDataTree);
  w.writeField(h.spongeBlobHash);
  const g = h.globalVariables;
  w.writeField(g.chainId);
  w.writeField(g.version);
  w.writeU32(g.blockNumber);
  w.writeU32(g.slotNumber);
  w.writeU64(g.timestamp);
  w.writeEthAddress(g.coinbase);
  w.writeField(g.feeRecipient);
  writeGasFees(w, g.gasFees);
  w.writeField(h.totalFees);
  w.writeField(h.totalManaUsed);
}

function writeTxConstantData(w: ByteWriter, c: T.TxConstantData): void {
  writeBlockHeader(w, c.anchorBlockHeader);
  w.writeField(c.txContext.chainId);
  w.writeField(c.txContext.version);
  const s = c.txContext.gasSettings;
  writeGas(w, s.gasLimits);
  writeGas(w, s.teardownGasLimits);
  writeGasFees(w, s.maxFeesPerGas);
  writeGasFees(w, s.maxPriorityFeesPerGas);
  w.writeField(c.vkTreeRoot);
  w.writeField(c.protocolContractsHash);
}

function writeL2ToL1Message(w: ByteWriter, m: T.ScopedL2ToL1Message): void {
  w.writeEthAddress(m.message.recipient);
  w.writeField(m.message.content);
  w.writeField(m.contractAddress);
}

function writePrivateLog(w: ByteWriter, log: T.PrivateLog): void {
  writeArray(w, log.fields, PRIVATE_LOG_SIZE_IN_FIELDS, writeFieldItem);
  w.writeU32(log.emittedLength);
}

function writeScopedLogHash(w: ByteWriter, h: T.ScopedLogHash): void {
  w.writeField(h.logHash.value);
  w.writeU32(h.logHash.length);
  w.writeField(h.contractAddress);
}

function writeRollupAccumulatedData(w: ByteWriter, d: T.PrivateToRollupAccumulatedData): void {
  writeArray(w, d.noteHashes, LENGTHS.noteHashes, writeFieldItem);
  writeArray(w, d.nullifiers, LENGTHS.nullifiers, writeFieldItem);
  writeArray(w, d.l2ToL1Msgs, LENGTHS.l2ToL1Msgs, writeL2ToL1Message);
  writeArray(w, d.privateLogs, LENGTHS.privateLogs, writePrivateLog);
  writeArray(w, d.contractClassLogsHashes, LENGTHS.contractClassLogsHashes, writeScopedLogHash);
}

function writePublicAccumulatedData(w: ByteWriter, d: T.PrivateToPublicAccumulatedData): void {
  writeRollupAccumulatedData(w, d);
  writeArray(w, d.publicCallRequests, LENGTHS.publicCallRequests, writePublicCallRequest);
}

function writePublicCallRequest(w: ByteWriter, c: T.PublicCallRequest): void {
  w.writeField(c.msgSender);
  w.writeField(c.contractAddress);
  w.writeBool(c.isStaticCall);
  w.writeField(c.calldataHash);
}
