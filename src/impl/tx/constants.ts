/**
 * The protocol constants (`@aztec/constants` 4.1.2, as listed in TX-FORMAT.md), one owner for the
 * tx, the world state and the chain: the array lengths and byte sizes that fix the shape of a `Tx`
 * on the wire, and the domain separators of every hash. The world state's tree layout (ids,
 * heights, prefill) is in world-state/constants.ts.
 * @module
 */

/** Note hashes per tx (TX-FORMAT §2.5). */
export const MAX_NOTE_HASHES_PER_TX = 64;
/** Nullifiers per tx. */
export const MAX_NULLIFIERS_PER_TX = 64;
/** L2→L1 messages per tx. */
export const MAX_L2_TO_L1_MSGS_PER_TX = 8;
/** Private logs per tx. */
export const MAX_PRIVATE_LOGS_PER_TX = 64;
/** Fields in one private log. */
export const PRIVATE_LOG_SIZE_IN_FIELDS = 16;
/** Contract class log hashes per accumulated-data block. */
export const MAX_CONTRACT_CLASS_LOGS_PER_TX = 1;
/** Public call requests per accumulated-data block. */
export const MAX_ENQUEUED_CALLS_PER_TX = 32;
/** Fields of a contract class log as sent in `contractClassLogFields` (zero padded). */
export const CONTRACT_CLASS_LOG_SIZE_IN_FIELDS = 3023;
/** Fields of a chonk proof (TX-FORMAT §3). */
export const CHONK_PROOF_LENGTH = 1935;

/** The declared length of each accumulated-data array, by field name: what the codec reads and writes and the builders pad to. */
export const ACCUMULATED_DATA_LENGTHS = {
  noteHashes: MAX_NOTE_HASHES_PER_TX,
  nullifiers: MAX_NULLIFIERS_PER_TX,
  l2ToL1Msgs: MAX_L2_TO_L1_MSGS_PER_TX,
  privateLogs: MAX_PRIVATE_LOGS_PER_TX,
  contractClassLogsHashes: MAX_CONTRACT_CLASS_LOGS_PER_TX,
  publicCallRequests: MAX_ENQUEUED_CALLS_PER_TX,
} as const;

/** Byte sizes of the fixed-size parts of `Tx.data` (TX-FORMAT §2). */
export const BYTES = {
  field: 32,
  ethAddress: 20,
  u32: 4,
  u64: 8,
  u128: 16,
  bool: 1,
  blockHeader: 440,
  txConstantData: 648,
  scopedL2ToL1Message: 84,
  privateLog: 516,
  scopedLogHash: 68,
  publicCallRequest: 97,
  privateToRollupAccumulatedData: 37_860,
  privateToPublicAccumulatedData: 40_964,
  /** Total `data` length when `isForPublic` = 1. */
  dataForPublic: 82_722,
  /** Total `data` length when `isForPublic` = 0. */
  dataForRollup: 38_557,
  chonkProof: 4 + 1935 * 32,
} as const;

/** Domain separators of the tx, block header and storage slot hashes (`DomainSeparator`, trees.json → domainSeparators). */
export const DOMAIN_SEPARATOR = {
  PUBLIC_TX_HASH: 1630108851,
  PRIVATE_TX_HASH: 1971680439,
  PUBLIC_CALLDATA: 2760353947,
  BLOCK_HEADER_HASH: 4195546849,
  PUBLIC_LEAF_SLOT: 1247650290,
  PUBLIC_STORAGE_MAP_SLOT: 4015149901,
} as const;

/** Field counts of the hashed kernel structs (TX-FORMAT §4; the package checks these too). */
export const FIELD_COUNTS = {
  txConstantData: 34,
  privateToPublicAccumulatedData: 1371,
  privateToRollupAccumulatedData: 1243,
  privateToPublicKernel: 2784,
  privateToRollupKernel: 1281,
} as const;
