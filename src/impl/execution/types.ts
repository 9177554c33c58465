/**
 * Shapes shared by the public VM, its host and the phase executor: the host the VM runs against,
 * the call environment, call results with revert reasons, and the side effects a tx produces.
 * @module
 */
import type { PublicDataWrite, PublicLog } from '../chain/types.ts';
import type { Gas, GasFees, PrivateToRollupAccumulatedData, ScopedL2ToL1Message } from '../tx/types.ts';

export type { Gas, GasFees, PublicDataWrite, PublicLog, ScopedL2ToL1Message };

/** A value or a promise of it: hosts over an async store return promises, in-memory hosts values. */
export type MaybePromise<T> = T | Promise<T>;

/** A deployed contract as the VM needs it: its class id (the decode cache key) and public bytecode. */
export interface ContractCode {
  readonly classId: bigint;
  readonly packedBytecode: Uint8Array;
}

/** Committed state the VM reads through the journal; the chain implements it over world state. */
export interface PublicStateSource {
  /** Returns the value at a public data tree leaf slot (0 when never written). */
  readPublicData(leafSlot: bigint): MaybePromise<bigint>;
  /** True when the siloed nullifier is in the nullifier tree. */
  hasNullifier(siloedNullifier: bigint): MaybePromise<boolean>;
  /** Returns the deployed contract at `address`, or undefined. */
  getContract(address: bigint): MaybePromise<ContractCode | undefined>;
}

/** The journaled view the interpreter runs against (implemented by JournaledState). */
export interface PublicVmHost {
  getContract(address: bigint): MaybePromise<ContractCode | undefined>;
  readStorage(contract: bigint, slot: bigint): MaybePromise<bigint>;
  writeStorage(contract: bigint, slot: bigint, value: bigint): void;
  nullifierExists(contract: bigint, innerNullifier: bigint): MaybePromise<boolean>;
  /** Records the siloed nullifier; false (and nothing recorded) when it already exists. */
  emitNullifier(contract: bigint, innerNullifier: bigint): MaybePromise<boolean>;
  emitNoteHash(contract: bigint, noteHash: bigint): void;
  emitPublicLog(contract: bigint, fields: readonly bigint[]): void;
  sendL2ToL1Message(contract: bigint, recipient: bigint, content: bigint): void;
  /** Opens a nested journal level; each is closed by exactly one commit() or rollback(). */
  checkpoint(): void;
  commit(): void;
  rollback(): void;
}

/** Block and tx values readable with GETENV. */
export interface CallEnvironment {
  readonly chainId: bigint;
  readonly version: bigint;
  readonly blockNumber: number;
  readonly timestamp: bigint;
  readonly gasFees: GasFees;
  /** The fee the tx pays; only known in teardown (0 elsewhere, as in the AVM). */
  readonly transactionFee?: bigint;
}

/** One entry of a revert's function error stack (outermost call first). */
export interface FunctionErrorFrame {
  readonly contractAddress: bigint;
  readonly functionSelector?: number;
  readonly functionName?: string;
}

/** Why a call reverted. */
export interface PublicCallRevert {
  readonly message: string;
  readonly stack: readonly FunctionErrorFrame[];
  readonly revertData: readonly bigint[];
}

/** The outcome of one call frame, with the frames it called. */
export interface PublicCallResult {
  readonly contractAddress: bigint;
  /** calldata[0] when present and a valid selector. */
  readonly selector: number | undefined;
  readonly reverted: boolean;
  /** Values returned, or the revert data when reverted. */
  readonly returnValues: readonly bigint[];
  readonly revert: PublicCallRevert | undefined;
  readonly gasUsed: Gas;
  readonly nested: readonly PublicCallResult[];
  /** Instructions executed in this frame and its children. */
  readonly instructions: number;
}

/** Side effects of the private part of a tx (note hashes and nullifiers already siloed), as the kernel lists them. */
export type PrivateEffects = Pick<PrivateToRollupAccumulatedData, 'noteHashes' | 'nullifiers' | 'l2ToL1Msgs'>;

/**
 * Side effects accumulated by a tx, in emission order: the private ones (note hashes siloed and
 * made unique by the tx executor, nullifiers siloed) and the public ones.
 */
export interface SideEffects extends PrivateEffects {
  readonly publicLogs: readonly PublicLog[];
  /** One write per leaf slot with its final value, in order of first write. */
  readonly publicDataWrites: readonly PublicDataWrite[];
}
