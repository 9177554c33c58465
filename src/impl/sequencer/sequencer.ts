/**
 * The dev sequencer: on each tick it seals each finished slot's blocks into that slot's checkpoint
 * (one checkpoint per slot, also when blocks of several slots are open — a block of the current
 * slot imported from its proposer before our first tick in it stays open) and posts it to L1, then,
 * when one of the node's validators is the proposer of the current slot (`SequencerRole.proposer`), builds
 * the next block of the slot with that validator's coinbase and fee recipient when there are
 * enough txs (or an empty one when configured). The first block of a checkpoint takes the inbox's
 * waiting L1→L2 messages.
 *
 * With a slot gate (`SequencerRole.slotGate`, validators on several nodes) the first build of each of our
 * slots waits for the gate (catching up with peers, docs/P2P.md) and no block is started in the
 * last `buildMarginMs` of the slot, so that it reaches the next proposer before that one builds.
 *
 * Checkpoint header fields we compute (documented, not circuit-exact): blockHeadersHash =
 * poseidon2Hash(block hashes); blobsHash = sha256ToField(blob fields as 32-byte words);
 * inHash = sha256ToField(the checkpoint's L1→L2 messages); outHash = sha256ToField(its L2→L1
 * message hashes); epochOutHash = sha256ToField(out hashes of the epoch's checkpoints so far).
 * @module
 */

import { fieldToBytes } from '../crypto/field.ts';
import { probeEventLoopStalls } from '../event-loop-stall.ts';
import { poseidon2Hash } from '../crypto/poseidon2.ts';
import { sha256ToField } from '../crypto/sha256-to-field.ts';
import { hashCheckpointHeader } from '../world-state/checkpoint-header.ts';
import type { ChainState } from '../chain/chain-state.ts';
import { secondsOf, type ChainTime, type Clock } from '../chain/time.ts';
import type { Checkpoint, GasFees, L2Block } from '../chain/types.ts';
import type { L1Chain } from '../l1/l1-chain.ts';
import { blockBlobFields, buildBlock, type BlockLimits } from './block-builder.ts';
import type { PublicExecutionOptions } from './public-processor.ts';
import type { TxSource } from './tx-source.ts';

/** Sequencer settings. */
export interface SequencerConfig extends BlockLimits {
  readonly minTxsPerBlock: number;
  readonly buildEmptyBlocks: boolean;
  readonly maxBlocksPerCheckpoint: number;
  /** 20-byte L1 address of the proposer. */
  readonly coinbase: bigint;
  readonly feeRecipient: bigint;
  readonly chainId: bigint;
  readonly rollupVersion: bigint;
}

/** The dependencies of the sequencer. */
export interface SequencerDeps {
  readonly chain: ChainState;
  readonly l1: L1Chain;
  readonly txs: TxSource;
  readonly clock: Clock;
  readonly time: ChainTime;
  readonly minFees: () => GasFees;
  /** Setup allow-list and signature registry of public execution; default: no setup calls allowed. */
  readonly publicVm?: PublicExecutionOptions;
  /** Who builds which slot, the gate before our builds and the observer of built blocks; none by default. */
  readonly role?: SequencerRole;
}

const NO_SETUP_CALLS: PublicExecutionOptions = { allowList: () => [] };

/** Who builds a slot's blocks: this node's validator that is the slot's proposer, or undefined when none is. */
export type ProposerSelection = (
  slot: number,
) => { readonly coinbase: bigint; readonly feeRecipient: bigint } | undefined;

/**
 * Before this node builds in a slot: `beforeBuild(slot, deadlineMs)` runs once per slot, before
 * the seal of the previous slots (so blocks it imports are sealed first), and false skips the
 * slot; `buildMarginMs` before the slot's end no block is started any more.
 */
export interface SlotGate {
  beforeBuild(slot: number, deadlineMs: number): Promise<boolean>;
  readonly buildMarginMs: number;
}

/**
 * Told of each block built and committed here, with the seconds from taking the candidates to the
 * commit and the longest event-loop stall meanwhile, in seconds (the node's metrics).
 */
export type BlockBuiltObserver = (block: L2Block, seconds: number, longestStallSeconds: number) => void;

/**
 * What a node's role decides about its sequencer, given when the sequencer is built (the full node
 * builds its sequencer once the admin side, p2p and the follower exist: full-node.ts).
 * `proposer`: builds only in the slots it names (one of this node's validators), with that
 * validator's coinbase and fee recipient; without it every slot is built with the configured ones.
 */
export interface SequencerRole {
  readonly proposer?: ProposerSelection;
  readonly slotGate?: SlotGate;
  readonly onBlockBuilt?: BlockBuiltObserver;
}

/** Hashes a list of fields as concatenated 32-byte words. */
export function sha256OfFields(fields: readonly bigint[]): bigint {
  const buf = new Uint8Array(32 * fields.length);
  fields.forEach((f, i) => {
    fieldToBytes(f, buf, 32 * i);
  });
  return sha256ToField(buf);
}

/** Builds blocks and checkpoints as time passes. */
export class Sequencer {
  readonly #cfg: SequencerConfig;
  readonly #d: SequencerDeps;
  readonly #proposer: ProposerSelection | undefined;
  readonly #gate: SlotGate | undefined;
  /** The slot the gate last ran for, and its answer. */
  #gated: { slot: number; ok: boolean } | undefined;
  readonly #onBuilt: BlockBuiltObserver | undefined;

  constructor(cfg: SequencerConfig, deps: SequencerDeps) {
    this.#cfg = cfg;
    this.#d = deps;
    this.#proposer = deps.role?.proposer;
    this.#gate = deps.role?.slotGate;
    this.#onBuilt = deps.role?.onBlockBuilt;
  }

  /** One step: seal the finished slots, then maybe build a block for the current one (when this node proposes it). */
  async tick(): Promise<void> {
    const { chain, time } = this.#d;
    const slot = time.slotAt(secondsOf(this.#d.clock));
    const proposer = slot < 1 ? undefined : this.#proposer === undefined ? this.#cfg : this.#proposer(slot);
    const gate = this.#gate;
    const deadlineMs = Number(time.slotStart(slot + 1)) * 1000 - (gate?.buildMarginMs ?? 0);
    if (gate !== undefined && proposer !== undefined && this.#gated?.slot !== slot) {
      this.#gated = { slot, ok: false };
      this.#gated.ok = await gate.beforeBuild(slot, deadlineMs);
    }
    const open = await chain.openCheckpointBlocks();
    // One checkpoint per finished slot, oldest first; the current slot's blocks stay open.
    let from = 0;
    while (from < open.length && open[from]!.header.globalVariables.slotNumber < slot) {
      const s = open[from]!.header.globalVariables.slotNumber;
      let to = from;
      while (to < open.length && open[to]!.header.globalVariables.slotNumber === s) to++;
      await this.#seal(open.slice(from, to));
      from = to;
    }
    if (proposer === undefined) return;
    if (gate !== undefined && (this.#gated?.slot !== slot || !this.#gated.ok || this.#d.clock.nowMs() >= deadlineMs))
      return;
    if (time.slotAt(secondsOf(this.#d.clock)) !== slot) return;
    const stillOpen = open.slice(from);
    if (stillOpen.some((b) => b.header.globalVariables.slotNumber !== slot)) return;
    const lastSealedSlot = (await chain.latestCheckpoint())?.header.slotNumber ?? 0;
    if (stillOpen.length === 0 && slot <= lastSealedSlot) return;
    if (stillOpen.length >= this.#cfg.maxBlocksPerCheckpoint) return;
    await this.#build(slot, stillOpen, proposer);
  }

  async #build(
    slot: number,
    open: readonly L2Block[],
    proposer: { readonly coinbase: bigint; readonly feeRecipient: bigint },
  ): Promise<void> {
    const started = performance.now();
    const stalls = this.#onBuilt === undefined ? undefined : probeEventLoopStalls();
    let block: L2Block | undefined;
    let longestStallMs = 0;
    try {
      block = await this.#buildBlock(slot, open, proposer);
    } finally {
      longestStallMs = stalls?.stop() ?? 0;
    }
    if (block !== undefined) this.#onBuilt?.(block, (performance.now() - started) / 1000, longestStallMs / 1000);
  }

  /** Builds and commits the slot's next block; undefined when there was none to build. */
  async #buildBlock(
    slot: number,
    open: readonly L2Block[],
    proposer: { readonly coinbase: bigint; readonly feeRecipient: bigint },
  ): Promise<L2Block | undefined> {
    const { chain, l1, txs, time } = this.#d;
    const candidates = await txs.pendingTxsInPriorityOrder(this.#cfg.maxTxsPerBlock * 2);
    const first = open.length === 0;
    if (candidates.length < Math.max(1, this.#cfg.minTxsPerBlock) && !(first && this.#cfg.buildEmptyBlocks)) return;
    const messages = first ? await l1.inboxMessages(await chain.consumedInboxCount(), 1024) : undefined;
    const tip = await chain.latestBlockNumber();
    const checkpointNumber = ((await chain.latestCheckpoint())?.number ?? 0) + 1;
    const proposed = await buildBlock(
      {
        hasNullifier: (n) => chain.latestState.hasNullifier(n),
        readPublicData: (s) => chain.latestState.readPublicData(s),
        contracts: chain.store.contracts,
        isInChain: (blockHash) => chain.isBlockHashInChain(blockHash),
      },
      {
        globals: {
          chainId: this.#cfg.chainId,
          version: this.#cfg.rollupVersion,
          blockNumber: tip + 1,
          slotNumber: slot,
          timestamp: time.slotStart(slot),
          coinbase: proposer.coinbase,
          feeRecipient: proposer.feeRecipient,
          gasFees: this.#d.minFees(),
        },
        candidates,
        limits: this.#cfg,
        l1ToL2Messages: messages?.map((m) => m.message),
        checkpointNumber,
        indexWithinCheckpoint: open.length,
      },
      this.#d.publicVm ?? NO_SETUP_CALLS,
    );
    // Every candidate was refused: no block (unless empty ones are wanted), only the refusals are recorded.
    if (proposed.txEffects.length === 0 && proposed.dropped.length > 0 && !(first && this.#cfg.buildEmptyBlocks)) {
      for (const reason of new Set(proposed.dropped.map((d) => d.reason))) {
        await txs.markDropped(
          proposed.dropped.filter((d) => d.reason === reason).map((d) => d.txHash),
          reason,
        );
      }
      return;
    }
    // The tx status owner takes the block's txs out of the pool and records the refusals in the block's own transaction.
    // Selection and application are each cut into short stretches; let requests in between them too.
    await new Promise<void>((resolve) => setImmediate(resolve));
    return chain.addBlock(proposed, txs);
  }

  async #seal(blocks: readonly L2Block[]): Promise<void> {
    const { chain, l1, time } = this.#d;
    const first = blocks[0]!,
      last = blocks[blocks.length - 1]!;
    const slot = first.header.globalVariables.slotNumber;
    const epoch = time.epochOfSlot(slot);
    const effects = blocks.flatMap((b) => b.body.txEffects);
    const outHash = sha256OfFields(effects.flatMap((e) => e.l2ToL1Msgs));
    const messages = await chain.l1ToL2MessagesOfBlock(first.header.globalVariables.blockNumber);
    const header = {
      lastArchiveRoot: first.header.lastArchive.root,
      blockHeadersHash: poseidon2Hash(blocks.map((b) => b.hash)),
      blobsHash: sha256OfFields(blockBlobFields(effects)),
      inHash: sha256OfFields(messages),
      epochOutHash: sha256OfFields([...(await l1.outHashesOfEpoch(epoch)), outHash]),
      slotNumber: slot,
      timestamp: first.header.globalVariables.timestamp,
      coinbase: first.header.globalVariables.coinbase,
      feeRecipient: first.header.globalVariables.feeRecipient,
      gasFees: first.header.globalVariables.gasFees,
      totalManaUsed: blocks.reduce((s, b) => s + b.header.totalManaUsed, 0n),
    };
    const hash = hashCheckpointHeader(header);
    const ref = await l1.postCheckpoint({ number: first.checkpointNumber, hash, slot, epoch, outHash });
    const checkpoint: Checkpoint = {
      number: first.checkpointNumber,
      header,
      hash,
      archive: last.archive,
      startBlock: first.header.globalVariables.blockNumber,
      blockCount: blocks.length,
      feeAssetPriceModifier: 0n,
      l1: { blockNumber: ref.number, timestamp: ref.timestamp, blockHash: ref.hash },
    };
    await chain.store.saveCheckpoint(checkpoint, epoch);
  }
}
