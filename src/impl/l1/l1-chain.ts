/**
 * The L1 as the node sees it, behind one interface so that a real EVM endpoint can replace the
 * in-process dev L1: chain id, contract addresses, blocks, inbox, checkpoint posting, proofs,
 * finality and the fee inputs of the rollup's fee model.
 * @module
 */
import type { Knex } from 'knex';

/** The L1 contract addresses (reference §1.3, L1ContractAddresses), as 20-byte bigints. */
export interface L1ContractAddresses {
  readonly rollupAddress: bigint;
  readonly registryAddress: bigint;
  readonly inboxAddress: bigint;
  readonly outboxAddress: bigint;
  readonly feeJuiceAddress: bigint;
  readonly stakingAssetAddress: bigint;
  readonly feeJuicePortalAddress: bigint;
  readonly coinIssuerAddress: bigint;
  readonly rewardDistributorAddress: bigint;
  readonly governanceProposerAddress: bigint;
  readonly governanceAddress: bigint;
}

/** An L1 block reference. */
export interface L1BlockRef {
  readonly number: bigint;
  readonly timestamp: bigint;
  readonly hash: bigint;
}

/** A message waiting in the inbox; `index` counts messages from 0 in send order. */
export interface InboxMessage {
  readonly index: number;
  readonly message: bigint;
  readonly l1BlockNumber: bigint;
}

/** What the rollup contract records for a posted checkpoint. */
export interface PostedCheckpoint {
  readonly number: number;
  readonly hash: bigint;
  readonly slot: number;
  readonly epoch: number;
  /** Hash of the checkpoint's L2→L1 messages (the outbox root for it). */
  readonly outHash: bigint;
}

/** The L1 chain and rollup contracts. */
export interface L1Chain {
  readonly chainId: number;
  readonly addresses: L1ContractAddresses;
  /** The latest L1 block. */
  currentBlock(): L1BlockRef;
  /** Dev entry point: sends an L1→L2 message through the inbox. */
  sendL1ToL2Message(message: bigint): Promise<InboxMessage>;
  /**
   * Dev L1 only (dev_sendL1ToL2Message): sends the message whose leaf `leaf(index)` computes from
   * the inbox index it gets, atomically with assigning that index.
   */
  sendL1ToL2MessageWith?(leaf: (index: number) => bigint): Promise<InboxMessage>;
  /** Dev L1 only: messages ever sent to the inbox. */
  inboxMessageCount?(): Promise<number>;
  /** Inbox messages with index ≥ `fromIndex` sent up to the current L1 block, at most `limit`. */
  inboxMessages(fromIndex: number, limit: number): Promise<InboxMessage[]>;
  /** Posts a checkpoint to the rollup contract; returns the L1 block it landed in. */
  postCheckpoint(c: PostedCheckpoint): Promise<L1BlockRef>;
  /**
   * Dev L1 only: forgets checkpoints after `checkpointNumber` inside the node's unwind transaction
   * (a real L1 cannot be rewound; there the archiver re-reads it instead).
   */
  discardCheckpointsAfter?(trx: Knex.Transaction, checkpointNumber: number): Promise<void>;
  /** The highest checkpoint proven on L1 (0 = none), as of `l1Block` (default: latest). */
  provenCheckpointNumber(l1Block?: bigint): Promise<number>;
  /** The latest L1 block considered final. */
  finalizedBlockNumber(): bigint;
  /** L1 gas prices and the fee asset price (1e12 precision). */
  feeInputs(): { readonly l1GasPriceWei: bigint; readonly l1BlobGasPriceWei: bigint; readonly ethPerFeeAsset: bigint };
  /** Outbox: the out hashes of the checkpoints posted in `epoch`. */
  outHashesOfEpoch(epoch: number): Promise<bigint[]>;
}
