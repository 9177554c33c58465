/**
 * Engine values of the chain: snapshots, block headers, tx effects, blocks, checkpoints, tips,
 * receipts and logs. Fields and addresses are bigint, counts and numbers are number; the wire
 * mappers in src/impl/encoding/wire/ turn them into the exact JSON of test/wire/examples.
 * @module
 */

/** A tree root with its next free leaf index. */
export interface Snapshot {
  readonly root: bigint;
  readonly nextAvailableLeafIndex: number;
}

/** The roots of the four state trees after a block. */
export interface StateReference {
  readonly l1ToL2MessageTree: Snapshot;
  readonly noteHashTree: Snapshot;
  readonly nullifierTree: Snapshot;
  readonly publicDataTree: Snapshot;
}

// Fees per gas and the block globals are the same values in a tx's anchor header and in our
// headers: one definition, in the tx format's types.
import type { GasFees, GlobalVariables } from '../tx/types.ts';
export type { GasFees, GlobalVariables };

/** A block header (22 fields when hashed, reference §5.2). */
export interface BlockHeader {
  readonly lastArchive: Snapshot;
  readonly state: StateReference;
  readonly spongeBlobHash: bigint;
  readonly globalVariables: GlobalVariables;
  readonly totalFees: bigint;
  readonly totalManaUsed: bigint;
}

/** A public data tree write. */
export interface PublicDataWrite {
  readonly leafSlot: bigint;
  readonly value: bigint;
}

/** A private log: 16 fields, of which the first `emittedLength` were emitted. */
export interface PrivateLog {
  readonly fields: readonly bigint[];
  readonly emittedLength: number;
}

/** A public log with its emitting contract (fields unpadded). */
export interface PublicLog {
  readonly contractAddress: bigint;
  readonly fields: readonly bigint[];
}

/** A contract class log: 3023 fields, of which the first `emittedLength` were emitted. */
export interface ContractClassLog {
  readonly contractAddress: bigint;
  readonly fields: readonly bigint[];
  readonly emittedLength: number;
}

/** Revert codes of TxEffect (0 = OK). */
export const RevertCode = { OK: 0, APP_LOGIC_REVERTED: 1, TEARDOWN_REVERTED: 2, BOTH_REVERTED: 3 } as const;
/** One of `RevertCode`. */
export type RevertCode = (typeof RevertCode)[keyof typeof RevertCode];

/** The effects of one mined tx, as they appear in a block body. */
export interface TxEffect {
  readonly revertCode: RevertCode;
  readonly txHash: bigint;
  readonly transactionFee: bigint;
  readonly noteHashes: readonly bigint[];
  readonly nullifiers: readonly bigint[];
  /** L2→L1 message hashes (computeL2ToL1MessageHash). */
  readonly l2ToL1Msgs: readonly bigint[];
  readonly publicDataWrites: readonly PublicDataWrite[];
  readonly privateLogs: readonly PrivateLog[];
  readonly publicLogs: readonly PublicLog[];
  readonly contractClassLogs: readonly ContractClassLog[];
}

/** An L2 block with the archive snapshot after it. */
export interface L2Block {
  readonly archive: Snapshot;
  readonly header: BlockHeader;
  readonly body: { readonly txEffects: readonly TxEffect[] };
  readonly checkpointNumber: number;
  readonly indexWithinCheckpoint: number;
  /** The header hash (the archive leaf); cached, not part of the wire shape. */
  readonly hash: bigint;
}

/** The per-slot header posted to L1. */
export interface CheckpointHeader {
  readonly lastArchiveRoot: bigint;
  readonly blockHeadersHash: bigint;
  readonly blobsHash: bigint;
  readonly inHash: bigint;
  readonly epochOutHash: bigint;
  readonly slotNumber: number;
  readonly timestamp: bigint;
  readonly coinbase: bigint;
  readonly feeRecipient: bigint;
  readonly gasFees: GasFees;
  readonly totalManaUsed: bigint;
}

/** Where and when a checkpoint landed on L1. */
export interface L1PublishedData {
  readonly blockNumber: bigint;
  readonly timestamp: bigint;
  readonly blockHash: bigint;
}

/** A checkpoint: the blocks of one slot, its header and hash, and its L1 landing. */
export interface Checkpoint {
  readonly number: number;
  readonly header: CheckpointHeader;
  readonly hash: bigint;
  /** Archive snapshot after the checkpoint's last block. */
  readonly archive: Snapshot;
  readonly startBlock: number;
  readonly blockCount: number;
  readonly feeAssetPriceModifier: bigint;
  readonly l1: L1PublishedData;
}

/** A block tip. */
export interface BlockTip {
  readonly number: number;
  readonly hash: bigint;
}

/** A block tip with the checkpoint that contains it. */
export interface CheckpointedTip {
  readonly block: BlockTip;
  readonly checkpoint: BlockTip;
}

/** The v4 chain tips (SPEC §2). */
export interface L2Tips {
  readonly proposed: BlockTip;
  readonly checkpointed: CheckpointedTip;
  readonly proven: CheckpointedTip;
  readonly finalized: CheckpointedTip;
}

/** Receipt statuses of SPEC §3. */
export type TxStatus = 'pending' | 'mined' | 'dropped';

/** Execution results, from the revert code. */
export type TxExecutionResult = 'success' | 'app_logic_reverted' | 'teardown_reverted' | 'both_reverted';

/** A tx receipt; optional fields are absent until known. */
export interface TxReceipt {
  readonly txHash: bigint;
  readonly status: TxStatus;
  readonly executionResult?: TxExecutionResult;
  readonly error?: string;
  readonly blockHash?: bigint;
  readonly blockNumber?: number;
  readonly epochNumber?: number;
  readonly transactionFee?: bigint;
}

/** A tx effect with the block it is in. */
export interface IndexedTxEffect {
  readonly l2BlockNumber: number;
  readonly l2BlockHash: bigint;
  readonly data: TxEffect;
  readonly txIndexInBlock: number;
}

/** The position of a log in the chain. */
export interface LogId {
  readonly blockNumber: number;
  readonly blockHash: bigint;
  readonly txHash: bigint;
  readonly txIndex: number;
  readonly logIndex: number;
}

/** A log found by tag, with the tx context a wallet needs. */
export interface TxScopedL2Log extends Pick<TxEffect, 'txHash' | 'noteHashes'> {
  readonly blockNumber: number;
  readonly blockTimestamp: bigint;
  readonly logData: readonly bigint[];
  readonly firstNullifier: bigint;
}

/** Filter of getPublicLogs / getContractClassLogs; `toBlock` is exclusive. */
export interface LogFilter {
  readonly txHash?: bigint;
  readonly fromBlock?: number;
  readonly toBlock?: number;
  readonly afterLog?: LogId;
  readonly contractAddress?: bigint;
  readonly tag?: bigint;
}

/** A page of logs; `maxLogsHit` says the page was cut at the cap. */
export interface LogsPage<T> {
  readonly logs: readonly { readonly id: LogId; readonly log: T }[];
  readonly maxLogsHit: boolean;
}
