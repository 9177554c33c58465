/**
 * The decoded `Tx`: plain readonly structures mirroring `@aztec/stdlib` 4.1.2 names.
 * Field elements, addresses, u64 and u128 values are bigint; u32 values (gas, lengths, leaf
 * indices, block and slot numbers) are number. Fixed arrays keep their full declared length,
 * padding included, so that re-encoding is exact (TX-FORMAT §2.1).
 * @module
 */

/** A tree root and its next free leaf index. */
export interface AppendOnlyTreeSnapshot {
  readonly root: bigint;
  readonly nextAvailableLeafIndex: number;
}

/** Gas amounts; the DA dimension comes first on the wire (TX-FORMAT §2.3). */
export interface Gas {
  readonly daGas: number;
  readonly l2Gas: number;
}

/** Fees per unit of gas (u128 each). */
export interface GasFees {
  readonly feePerDaGas: bigint;
  readonly feePerL2Gas: bigint;
}

/** The gas and fee limits a tx sets for itself. */
export interface GasSettings {
  readonly gasLimits: Gas;
  readonly teardownGasLimits: Gas;
  readonly maxFeesPerGas: GasFees;
  readonly maxPriorityFeesPerGas: GasFees;
}

/** Block-level globals of the anchor block. */
export interface GlobalVariables {
  readonly chainId: bigint;
  readonly version: bigint;
  readonly blockNumber: number;
  readonly slotNumber: number;
  /** Seconds (u64). */
  readonly timestamp: bigint;
  /** 20-byte L1 address. */
  readonly coinbase: bigint;
  readonly feeRecipient: bigint;
  readonly gasFees: GasFees;
}

/** The header of the block a tx was built against (TX-FORMAT §2.4). */
export interface BlockHeader {
  readonly lastArchive: AppendOnlyTreeSnapshot;
  readonly state: {
    readonly l1ToL2MessageTree: AppendOnlyTreeSnapshot;
    readonly partial: {
      readonly noteHashTree: AppendOnlyTreeSnapshot;
      readonly nullifierTree: AppendOnlyTreeSnapshot;
      readonly publicDataTree: AppendOnlyTreeSnapshot;
    };
  };
  readonly spongeBlobHash: bigint;
  readonly globalVariables: GlobalVariables;
  readonly totalFees: bigint;
  readonly totalManaUsed: bigint;
}

/** Chain id, rollup version and gas settings the tx commits to. */
export interface TxContext {
  readonly chainId: bigint;
  readonly version: bigint;
  readonly gasSettings: GasSettings;
}

/** Data constant over the whole tx (TX-FORMAT §2.3). */
export interface TxConstantData {
  readonly anchorBlockHeader: BlockHeader;
  readonly txContext: TxContext;
  readonly vkTreeRoot: bigint;
  readonly protocolContractsHash: bigint;
}

/** An L2→L1 message with the contract that sent it. */
export interface ScopedL2ToL1Message {
  /** `recipient` is a 20-byte L1 address. */
  readonly message: { readonly recipient: bigint; readonly content: bigint };
  readonly contractAddress: bigint;
}

/** A private log: 16 fields, of which the first `emittedLength` are meaningful. */
export interface PrivateLog {
  readonly fields: readonly bigint[];
  readonly emittedLength: number;
}

/** A log hash with its length and emitting contract. */
export interface ScopedLogHash {
  readonly logHash: { readonly value: bigint; readonly length: number };
  readonly contractAddress: bigint;
}

/** An enqueued public call; its calldata travels in `Tx.publicFunctionCalldata`. */
export interface PublicCallRequest {
  readonly msgSender: bigint;
  readonly contractAddress: bigint;
  readonly isStaticCall: boolean;
  readonly calldataHash: bigint;
}

/** Side effects of a private-only tx (TX-FORMAT §2.5, without call requests). */
export interface PrivateToRollupAccumulatedData {
  readonly noteHashes: readonly bigint[];
  readonly nullifiers: readonly bigint[];
  readonly l2ToL1Msgs: readonly ScopedL2ToL1Message[];
  readonly privateLogs: readonly PrivateLog[];
  readonly contractClassLogsHashes: readonly ScopedLogHash[];
}

/** Side effects of one phase of a tx with public calls. */
export interface PrivateToPublicAccumulatedData extends PrivateToRollupAccumulatedData {
  readonly publicCallRequests: readonly PublicCallRequest[];
}

/** The variant of a tx with public calls. */
export interface PartialPrivateTailPublicInputsForPublic {
  readonly nonRevertibleAccumulatedData: PrivateToPublicAccumulatedData;
  readonly revertibleAccumulatedData: PrivateToPublicAccumulatedData;
  readonly publicTeardownCallRequest: PublicCallRequest;
}

/** The variant of a private-only tx. */
export interface PartialPrivateTailPublicInputsForRollup {
  readonly end: PrivateToRollupAccumulatedData;
}

interface KernelCommon {
  readonly constants: TxConstantData;
  readonly gasUsed: Gas;
  readonly feePayer: bigint;
  /** Seconds (u64). */
  readonly expirationTimestamp: bigint;
}

/** `Tx.data`: the private kernel tail's public inputs; `isForPublic` picks the variant. */
export type PrivateKernelTailCircuitPublicInputs =
  | (KernelCommon & { readonly isForPublic: true; readonly forPublic: PartialPrivateTailPublicInputsForPublic })
  | (KernelCommon & { readonly isForPublic: false; readonly forRollup: PartialPrivateTailPublicInputsForRollup });

/** `Tx.chonkProof`: exactly `CHONK_PROOF_LENGTH` fields. */
export interface ChonkProof {
  readonly fields: readonly bigint[];
}

/** One contract class log, zero padded to `CONTRACT_CLASS_LOG_SIZE_IN_FIELDS` fields. */
export interface ContractClassLogFields {
  readonly fields: readonly bigint[];
}

/** Calldata of one public call and its hash (`HashedValues`). */
export interface HashedValues {
  readonly values: readonly bigint[];
  readonly hash: bigint;
}

/** A decoded, internally consistent tx. `txHash` is always the recomputed one. */
export interface Tx {
  readonly txHash: bigint;
  readonly data: PrivateKernelTailCircuitPublicInputs;
  readonly chonkProof: ChonkProof;
  readonly contractClassLogFields: readonly ContractClassLogFields[];
  readonly publicFunctionCalldata: readonly HashedValues[];
}

/** The `Tx` JSON object as it travels (TX-FORMAT §1); key order matters for byte equality. */
export interface WireTx {
  readonly txHash: string;
  readonly data: string;
  readonly chonkProof: string;
  readonly contractClassLogFields: readonly { readonly fields: readonly string[] }[];
  readonly publicFunctionCalldata: readonly { readonly values: readonly string[]; readonly hash: string }[];
}
