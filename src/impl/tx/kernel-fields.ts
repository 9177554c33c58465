/**
 * The field list a tx hash is computed over: `PrivateToPublicKernelCircuitPublicInputs.toFields()`
 * or `PrivateToRollupKernelCircuitPublicInputs.toFields()` (TX-FORMAT §4). The order differs from
 * the byte order: gasUsed, feePayer and expirationTimestamp come after the accumulated data.
 * @module
 */
import { FIELD_COUNTS } from './constants.ts';
import type {
  AppendOnlyTreeSnapshot,
  BlockHeader,
  PrivateKernelTailCircuitPublicInputs,
  PrivateToPublicAccumulatedData,
  PrivateToRollupAccumulatedData,
  PublicCallRequest,
  TxConstantData,
} from './types.ts';

/** Returns the 22 fields of a block header (TX-FORMAT §4.3, indices 0–21). */
export function blockHeaderToFields(h: BlockHeader): bigint[] {
  const out: bigint[] = [];
  const snap = (s: AppendOnlyTreeSnapshot) => out.push(s.root, BigInt(s.nextAvailableLeafIndex));
  snap(h.lastArchive);
  snap(h.state.l1ToL2MessageTree);
  snap(h.state.partial.noteHashTree);
  snap(h.state.partial.nullifierTree);
  snap(h.state.partial.publicDataTree);
  const g = h.globalVariables;
  out.push(h.spongeBlobHash, g.chainId, g.version, BigInt(g.blockNumber), BigInt(g.slotNumber), g.timestamp);
  out.push(g.coinbase, g.feeRecipient, g.gasFees.feePerDaGas, g.gasFees.feePerL2Gas, h.totalFees, h.totalManaUsed);
  return out;
}

/** Returns the 34 fields of `TxConstantData` (TX-FORMAT §4.3). */
export function txConstantDataToFields(c: TxConstantData): bigint[] {
  const s = c.txContext.gasSettings;
  return [
    ...blockHeaderToFields(c.anchorBlockHeader),
    c.txContext.chainId,
    c.txContext.version,
    BigInt(s.gasLimits.daGas),
    BigInt(s.gasLimits.l2Gas),
    BigInt(s.teardownGasLimits.daGas),
    BigInt(s.teardownGasLimits.l2Gas),
    s.maxFeesPerGas.feePerDaGas,
    s.maxFeesPerGas.feePerL2Gas,
    s.maxPriorityFeesPerGas.feePerDaGas,
    s.maxPriorityFeesPerGas.feePerL2Gas,
    c.vkTreeRoot,
    c.protocolContractsHash,
  ];
}

function pushCallRequest(out: bigint[], c: PublicCallRequest): void {
  out.push(c.msgSender, c.contractAddress, c.isStaticCall ? 1n : 0n, c.calldataHash);
}

function pushRollupAccumulatedData(out: bigint[], d: PrivateToRollupAccumulatedData): void {
  // TX-FORMAT §4.4
  out.push(...d.noteHashes, ...d.nullifiers);
  for (const m of d.l2ToL1Msgs) out.push(m.message.recipient, m.message.content, m.contractAddress);
  for (const log of d.privateLogs) out.push(...log.fields, BigInt(log.emittedLength));
  for (const h of d.contractClassLogsHashes) out.push(h.logHash.value, BigInt(h.logHash.length), h.contractAddress);
}

function pushPublicAccumulatedData(out: bigint[], d: PrivateToPublicAccumulatedData): void {
  pushRollupAccumulatedData(out, d);
  for (const c of d.publicCallRequests) pushCallRequest(out, c);
}

/** Returns the hashed kernel struct's fields: 2 784 for a forPublic tx, 1 281 for a forRollup tx. */
export function kernelToFields(data: PrivateKernelTailCircuitPublicInputs): bigint[] {
  const out = txConstantDataToFields(data.constants);
  if (data.isForPublic) {
    pushPublicAccumulatedData(out, data.forPublic.nonRevertibleAccumulatedData);
    pushPublicAccumulatedData(out, data.forPublic.revertibleAccumulatedData);
    pushCallRequest(out, data.forPublic.publicTeardownCallRequest);
  } else {
    pushRollupAccumulatedData(out, data.forRollup.end);
  }
  out.push(BigInt(data.gasUsed.daGas), BigInt(data.gasUsed.l2Gas), data.feePayer, data.expirationTimestamp);
  const expected = data.isForPublic ? FIELD_COUNTS.privateToPublicKernel : FIELD_COUNTS.privateToRollupKernel;
  // The package asserts these lengths at run time; so do we, since a short list would hash silently.
  if (out.length !== expected) throw new RangeError(`kernel fields: expected ${expected}, got ${out.length}`);
  return out;
}
