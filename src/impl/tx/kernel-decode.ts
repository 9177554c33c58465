/**
 * Decodes `Tx.data` (`PrivateKernelTailCircuitPublicInputs.toBuffer()`) into typed structures,
 * following the byte layout of TX-FORMAT §2. Every read names its field, so an error says where.
 * @module
 */
import { ByteReader } from './byte-reader.ts';
import { ACCUMULATED_DATA_LENGTHS as LENGTHS, PRIVATE_LOG_SIZE_IN_FIELDS } from './constants.ts';
import type {
  AppendOnlyTreeSnapshot,
  BlockHeader,
  Gas,
  GasFees,
  GasSettings,
  PrivateKernelTailCircuitPublicInputs,
  PrivateLog,
  PrivateToPublicAccumulatedData,
  PrivateToRollupAccumulatedData,
  PublicCallRequest,
  ScopedL2ToL1Message,
  ScopedLogHash,
  TxConstantData,
} from './types.ts';

/** Decodes `Tx.data` bytes; throws `TxDecodeError` (path under `root`) on any malformation. */
export function decodeKernelPublicInputs(bytes: Uint8Array, root = 'tx.data'): PrivateKernelTailCircuitPublicInputs {
  const r = new ByteReader(bytes, root);
  // TX-FORMAT §2.2: the flag byte picks the variant; the common part precedes either.
  const isForPublic = r.readBool('isForPublic');
  const constants = readTxConstantData(r, 'constants');
  const gasUsed = readGas(r, 'gasUsed');
  const feePayer = r.readField('feePayer');
  const expirationTimestamp = r.readU64('expirationTimestamp');
  const common = { constants, gasUsed, feePayer, expirationTimestamp };
  if (isForPublic) {
    const forPublic = {
      nonRevertibleAccumulatedData: readPublicAccumulatedData(r, 'forPublic.nonRevertibleAccumulatedData'),
      revertibleAccumulatedData: readPublicAccumulatedData(r, 'forPublic.revertibleAccumulatedData'),
      publicTeardownCallRequest: readPublicCallRequest(r, 'forPublic.publicTeardownCallRequest'),
    };
    r.assertEnd();
    return { ...common, isForPublic: true, forPublic };
  }
  const forRollup = { end: readRollupAccumulatedData(r, 'forRollup.end') };
  r.assertEnd();
  return { ...common, isForPublic: false, forRollup };
}

function readArray<T>(r: ByteReader, path: string, length: number, read: (r: ByteReader, path: string) => T): T[] {
  const out = new Array<T>(length);
  for (let i = 0; i < length; i++) out[i] = read(r, `${path}[${i}]`);
  return out;
}

function readFieldAt(r: ByteReader, path: string): bigint {
  return r.readField(path);
}

function readSnapshot(r: ByteReader, path: string): AppendOnlyTreeSnapshot {
  return { root: r.readField(`${path}.root`), nextAvailableLeafIndex: r.readU32(`${path}.nextAvailableLeafIndex`) };
}

function readGas(r: ByteReader, path: string): Gas {
  return { daGas: r.readU32(`${path}.daGas`), l2Gas: r.readU32(`${path}.l2Gas`) };
}

function readGasFees(r: ByteReader, path: string): GasFees {
  return { feePerDaGas: r.readU128(`${path}.feePerDaGas`), feePerL2Gas: r.readU128(`${path}.feePerL2Gas`) };
}

function readGasSettings(r: ByteReader, path: string): GasSettings {
  return {
    gasLimits: readGas(r, `${path}.gasLimits`),
    teardownGasLimits: readGas(r, `${path}.teardownGasLimits`),
    maxFeesPerGas: readGasFees(r, `${path}.maxFeesPerGas`),
    maxPriorityFeesPerGas: readGasFees(r, `${path}.maxPriorityFeesPerGas`),
  };
}

/** Reads a 440-byte `BlockHeader` (TX-FORMAT §2.4). */
export function readBlockHeader(r: ByteReader, path: string): BlockHeader {
  const lastArchive = readSnapshot(r, `${path}.lastArchive`);
  const l1ToL2MessageTree = readSnapshot(r, `${path}.state.l1ToL2MessageTree`);
  const noteHashTree = readSnapshot(r, `${path}.state.partial.noteHashTree`);
  const nullifierTree = readSnapshot(r, `${path}.state.partial.nullifierTree`);
  const publicDataTree = readSnapshot(r, `${path}.state.partial.publicDataTree`);
  const spongeBlobHash = r.readField(`${path}.spongeBlobHash`);
  const g = `${path}.globalVariables`;
  const globalVariables = {
    chainId: r.readField(`${g}.chainId`),
    version: r.readField(`${g}.version`),
    blockNumber: r.readU32(`${g}.blockNumber`),
    slotNumber: r.readU32(`${g}.slotNumber`),
    timestamp: r.readU64(`${g}.timestamp`),
    coinbase: r.readEthAddress(`${g}.coinbase`),
    feeRecipient: r.readField(`${g}.feeRecipient`),
    gasFees: readGasFees(r, `${g}.gasFees`),
  };
  return {
    lastArchive,
    state: { l1ToL2MessageTree, partial: { noteHashTree, nullifierTree, publicDataTree } },
    spongeBlobHash,
    globalVariables,
    totalFees: r.readField(`${path}.totalFees`),
    totalManaUsed: r.readField(`${path}.totalManaUsed`),
  };
}

function readTxConstantData(r: ByteReader, path: string): TxConstantData {
  const anchorBlockHeader = readBlockHeader(r, `${path}.anchorBlockHeader`);
  const c = `${path}.txContext`;
  const txContext = {
    chainId: r.readField(`${c}.chainId`),
    version: r.readField(`${c}.version`),
    gasSettings: readGasSettings(r, `${c}.gasSettings`),
  };
  return {
    anchorBlockHeader,
    txContext,
    vkTreeRoot: r.readField(`${path}.vkTreeRoot`),
    protocolContractsHash: r.readField(`${path}.protocolContractsHash`),
  };
}

function readL2ToL1Message(r: ByteReader, path: string): ScopedL2ToL1Message {
  const recipient = r.readEthAddress(`${path}.message.recipient`);
  const content = r.readField(`${path}.message.content`);
  return { message: { recipient, content }, contractAddress: r.readField(`${path}.contractAddress`) };
}

function readPrivateLog(r: ByteReader, path: string): PrivateLog {
  const fields = readArray(r, `${path}.fields`, PRIVATE_LOG_SIZE_IN_FIELDS, readFieldAt);
  return { fields, emittedLength: r.readU32(`${path}.emittedLength`) };
}

function readScopedLogHash(r: ByteReader, path: string): ScopedLogHash {
  const value = r.readField(`${path}.logHash.value`);
  const length = r.readU32(`${path}.logHash.length`);
  return { logHash: { value, length }, contractAddress: r.readField(`${path}.contractAddress`) };
}

function readPublicCallRequest(r: ByteReader, path: string): PublicCallRequest {
  return {
    msgSender: r.readField(`${path}.msgSender`),
    contractAddress: r.readField(`${path}.contractAddress`),
    isStaticCall: r.readBool(`${path}.isStaticCall`),
    calldataHash: r.readField(`${path}.calldataHash`),
  };
}

function readRollupAccumulatedData(r: ByteReader, path: string): PrivateToRollupAccumulatedData {
  // TX-FORMAT §2.5: fixed arrays back to back, no length prefixes.
  return {
    noteHashes: readArray(r, `${path}.noteHashes`, LENGTHS.noteHashes, readFieldAt),
    nullifiers: readArray(r, `${path}.nullifiers`, LENGTHS.nullifiers, readFieldAt),
    l2ToL1Msgs: readArray(r, `${path}.l2ToL1Msgs`, LENGTHS.l2ToL1Msgs, readL2ToL1Message),
    privateLogs: readArray(r, `${path}.privateLogs`, LENGTHS.privateLogs, readPrivateLog),
    contractClassLogsHashes: readArray(
      r,
      `${path}.contractClassLogsHashes`,
      LENGTHS.contractClassLogsHashes,
      readScopedLogHash,
    ),
  };
}

function readPublicAccumulatedData(r: ByteReader, path: string): PrivateToPublicAccumulatedData {
  const base = readRollupAccumulatedData(r, path);
  return {
    ...base,
    publicCallRequests: readArray(r, `${path}.publicCallRequests`, LENGTHS.publicCallRequests, readPublicCallRequest),
  };
}
