/**
 * This node's validators on the network. After a step seals a checkpoint in a slot one of our
 * validators proposes, it signs and gossips the proposal (and our other committee members'
 * attestations to it). A gossiped proposal that passes the message checks is verified against
 * our own chain — the proposal's last block, imported and re-executed here through the verified
 * import path, must have the proposal's hash, archive root and slot, and be the slot's last
 * block — and then each of our committee members attests to it. Accepted attestations, received
 * and our own, are kept per slot for the sentinel (`attestationsFor`).
 * @module
 */
import type { EngineLogger } from '../engine-logger.ts';
import type { CheckpointAttestation, CheckpointProposal } from '../p2p/consensus-messages.ts';
import type { GossipVerdict } from '../p2p/types.ts';
import { proposalDigest, type Committees } from './committee.ts';
import { ConsensusMessageChecker, DEFAULT_RECENT_SLOTS } from './consensus-validation.ts';
import type { ValidatorKeyring } from './keyring.ts';

/** The chain reads the duties need (the engine's store fits). */
export interface ConsensusChain {
  /** A block of our chain, or undefined while we do not hold it. */
  findBlock(n: number): Promise<
    | {
        readonly hash: bigint;
        readonly archive: { readonly root: bigint };
        readonly header: { readonly globalVariables: { readonly slotNumber: number } };
      }
    | undefined
  >;
  latestCheckpointNumber(): Promise<number>;
  checkpointsFrom(
    n: number,
    limit: number,
  ): Promise<
    readonly {
      readonly number: number;
      readonly archive: { readonly root: bigint };
      readonly startBlock: number;
      readonly blockCount: number;
      readonly header: { readonly slotNumber: number };
    }[]
  >;
}

/** Where the duties publish (the p2p service fits). */
export interface ConsensusPublisher {
  publishProposal(p: CheckpointProposal): Promise<number>;
  publishAttestation(a: CheckpointAttestation): Promise<number>;
}

/** What the duties are built from. */
export interface ConsensusDutiesOptions {
  readonly committees: Committees;
  readonly keyring: ValidatorKeyring;
  readonly chain: ConsensusChain;
  readonly publisher: ConsensusPublisher;
  readonly currentSlot: () => number;
  /** How long a proposal waits for its block to be imported here before it is ignored (default 2000 ms). */
  readonly blockWaitMs?: number;
  readonly recentSlots?: number;
  /** Asked to import now when a proposal names a block we do not hold yet (the follower's wake). */
  readonly fetchBlocks?: () => void;
  readonly logger?: Pick<EngineLogger, 'info' | 'warn'>;
}

const POLL_MS = 50;

/** Proposals out, attestations in and out. */
export class ConsensusDuties {
  readonly #o: ConsensusDutiesOptions;
  readonly #checker: ConsensusMessageChecker;
  /** slot → attester → signature, for attestations accepted (ours included). */
  readonly #signatures = new Map<number, Map<string, Uint8Array>>();
  #nextCheckpoint: number | undefined;

  constructor(options: ConsensusDutiesOptions) {
    this.#o = options;
    this.#checker = new ConsensusMessageChecker({
      committees: options.committees,
      currentSlot: options.currentSlot,
      ...(options.recentSlots === undefined ? {} : { recentSlots: options.recentSlots }),
    });
  }

  /** Signatures over slot's proposal that were accepted here (the sentinel verifies them again). */
  attestationsFor(slot: number): Uint8Array[] {
    return [...(this.#signatures.get(slot)?.values() ?? [])];
  }

  /** True once every committee member but the slot's proposer has an accepted attestation here (the slot can be reported). */
  attestationsComplete(slot: number): boolean {
    const { committees } = this.#o;
    const proposer = committees.proposerOf(slot);
    const got = this.#signatures.get(slot);
    return committees.committeeOf(committees.epochOfSlot(slot)).every((m) => m === proposer || got?.has(m) === true);
  }

  /**
   * After a production step: each checkpoint sealed since the last call whose slot one of our
   * validators proposes is signed and gossiped, with our other committee members' attestations.
   */
  async afterStep(): Promise<void> {
    const { chain, committees, keyring } = this.#o;
    // Start at the checkpoints sealed from now on (a restart does not re-propose old slots).
    this.#nextCheckpoint ??= (await chain.latestCheckpointNumber()) + 1;
    for (;;) {
      const found = await chain.checkpointsFrom(this.#nextCheckpoint, 16);
      for (const cp of found) {
        this.#nextCheckpoint = cp.number + 1;
        const slot = cp.header.slotNumber;
        const proposer = committees.proposerOf(slot);
        const signer = proposer === undefined ? undefined : keyring.signerOf(proposer);
        if (proposer === undefined || signer === undefined) continue;
        const last = await chain.findBlock(cp.startBlock + cp.blockCount - 1);
        if (last === undefined) continue;
        const archive = cp.archive.root;
        const signature = signer.sign(proposalDigest(slot, archive, proposer));
        const proposal: CheckpointProposal = {
          slot,
          blockNumber: cp.startBlock + cp.blockCount - 1,
          blockHash: last.hash,
          archive,
          proposer,
          signature,
        };
        // Our own proposal must never come back as a "duplicate" from a peer: remember it first.
        this.#checker.checkProposal(proposal);
        await this.#o.publisher
          .publishProposal(proposal)
          .catch((err: unknown) => this.#o.logger?.warn('p2p: publishing a proposal failed', { slot, err }));
        await this.#attest(slot, archive, proposer);
      }
      if (found.length < 16) return;
    }
  }

  /** The proposal topic's hook: message checks, then our chain, then our attestations. */
  async onProposal(p: CheckpointProposal): Promise<GossipVerdict> {
    const checked = this.#checker.checkProposal(p);
    if (checked.verdict !== 'accept') {
      if (checked.verdict === 'reject')
        this.#o.logger?.warn('p2p: proposal refused', { slot: p.slot, proposer: p.proposer, reason: checked.reason });
      return checked.verdict;
    }
    const block = await this.#awaitBlock(p.blockNumber);
    if (block === undefined) {
      this.#o.logger?.info('p2p: proposal not attested, its block is not here yet', {
        slot: p.slot,
        block: p.blockNumber,
      });
      return 'ignore';
    }
    const next = await this.#o.chain.findBlock(p.blockNumber + 1);
    const problem =
      block.hash !== p.blockHash
        ? 'block hash'
        : block.archive.root !== p.archive
          ? 'archive root'
          : block.header.globalVariables.slotNumber !== p.slot
            ? 'slot'
            : next !== undefined && next.header.globalVariables.slotNumber === p.slot
              ? 'last block of the slot'
              : undefined;
    if (problem !== undefined) {
      this.#o.logger?.warn('p2p: proposal differs from our re-executed chain', {
        slot: p.slot,
        block: p.blockNumber,
        field: problem,
      });
      return 'reject';
    }
    this.#keep(p.slot, p.proposer, p.signature);
    await this.#attest(p.slot, p.archive, p.proposer);
    return 'accept';
  }

  /** The attestation topic's hook: message checks; an accepted signature is kept for the sentinel. */
  async onAttestation(a: CheckpointAttestation): Promise<GossipVerdict> {
    const checked = this.#checker.checkAttestation(a);
    if (checked.verdict === 'reject')
      this.#o.logger?.warn('p2p: attestation refused', { slot: a.slot, attester: a.attester, reason: checked.reason });
    if (checked.verdict === 'accept') this.#keep(a.slot, a.attester, a.signature);
    return checked.verdict;
  }

  /** Each of our committee members (the proposer aside) signs the payload; kept here and gossiped. */
  async #attest(slot: number, archive: bigint, proposer: string): Promise<void> {
    const { committees, keyring } = this.#o;
    const digest = proposalDigest(slot, archive, proposer);
    for (const member of committees.committeeOf(committees.epochOfSlot(slot))) {
      const signer = member === proposer ? undefined : keyring.signerOf(member);
      if (signer === undefined) continue;
      const attestation: CheckpointAttestation = {
        slot,
        archive,
        proposer,
        attester: member,
        signature: signer.sign(digest),
      };
      this.#checker.checkAttestation(attestation);
      this.#keep(slot, member, attestation.signature);
      await this.#o.publisher
        .publishAttestation(attestation)
        .catch((err: unknown) => this.#o.logger?.warn('p2p: publishing an attestation failed', { slot, err }));
    }
  }

  #keep(slot: number, attester: string, signature: Uint8Array): void {
    let bySigner = this.#signatures.get(slot);
    if (bySigner === undefined) this.#signatures.set(slot, (bySigner = new Map()));
    bySigner.set(attester, signature);
    // The sentinel reports a slot within a few slots; older ones are no longer asked for.
    const oldest = this.#o.currentSlot() - 4 * (this.#o.recentSlots ?? DEFAULT_RECENT_SLOTS);
    for (const s of this.#signatures.keys()) if (s < oldest) this.#signatures.delete(s);
  }

  /** Waits (bounded) for block n to be imported here: the proposal may outrun the block. */
  async #awaitBlock(n: number): Promise<Awaited<ReturnType<ConsensusChain['findBlock']>>> {
    const end = Date.now() + (this.#o.blockWaitMs ?? 2000);
    for (let asked = false; ; asked = true) {
      const block = await this.#o.chain.findBlock(n);
      if (block !== undefined || Date.now() >= end) return block;
      // The proposal outran the block's announcement (or it was lost): fetch instead of waiting for a poll.
      if (!asked) this.#o.fetchBlocks?.();
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}
