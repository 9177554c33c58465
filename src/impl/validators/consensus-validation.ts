/**
 * Checks on gossiped checkpoint proposals and attestations that need no chain: the slot is the
 * current one or recent, the proposer is the slot's proposer, an attester is in the slot's
 * committee, the signature recovers to the claimed address, and the message is not a repeat.
 * A repeat of the same payload is ignored (gossip delivers copies); a second, different payload
 * for the same slot from the same signer is an equivocation and refused. Only messages whose
 * signature checked out are remembered, so a forgery cannot block the real message.
 * @module
 */
import { proposalDigest, type Committees } from './committee.ts';
import { recoverSigner } from './signer.ts';

/** The verdict on a message, with the rule it broke when refused or ignored. */
export type ConsensusVerdict =
  | { readonly verdict: 'accept' }
  | { readonly verdict: 'reject' | 'ignore'; readonly reason: string };

/** The fields both message kinds carry. */
export interface SignedPayload {
  readonly slot: number;
  readonly archive: bigint;
  readonly proposer: string;
  readonly signature: Uint8Array;
}

/** Checker settings. */
export interface ConsensusCheckOptions {
  readonly committees: Committees;
  /** The current slot by this node's clock. */
  readonly currentSlot: () => number;
  /** Slots before the current one still accepted (default 4). */
  readonly recentSlots?: number;
}

/** Default number of past slots a proposal or attestation may be for. */
export const DEFAULT_RECENT_SLOTS = 4;

const ACCEPT: ConsensusVerdict = { verdict: 'accept' };
const refuse = (reason: string): ConsensusVerdict => ({ verdict: 'reject', reason });

/** Validates gossiped proposals and attestations; remembers the accepted ones per slot for duplicates. */
export class ConsensusMessageChecker {
  readonly #o: ConsensusCheckOptions;
  readonly #recent: number;
  /** slot → proposer's archive, for proposals seen. */
  readonly #proposals = new Map<number, bigint>();
  /** slot → attester → archive, for attestations seen. */
  readonly #attestations = new Map<number, Map<string, bigint>>();

  constructor(options: ConsensusCheckOptions) {
    this.#o = options;
    this.#recent = options.recentSlots ?? DEFAULT_RECENT_SLOTS;
  }

  /** Checks a proposal; an accepted one is remembered. */
  checkProposal(p: SignedPayload): ConsensusVerdict {
    const base = this.#checkSlotAndProposer(p);
    if (base !== undefined) return base;
    if (recoverSigner(proposalDigest(p.slot, p.archive, p.proposer), p.signature) !== p.proposer) {
      return refuse(`signature does not recover to proposer ${p.proposer}`);
    }
    const seen = this.#proposals.get(p.slot);
    if (seen !== undefined) {
      return seen === p.archive
        ? { verdict: 'ignore', reason: 'duplicate proposal' }
        : refuse(`second, different proposal for slot ${p.slot}`);
    }
    this.#proposals.set(p.slot, p.archive);
    this.#prune();
    return ACCEPT;
  }

  /** Checks an attestation; an accepted one is remembered. */
  checkAttestation(a: SignedPayload & { readonly attester: string }): ConsensusVerdict {
    const base = this.#checkSlotAndProposer(a);
    if (base !== undefined) return base;
    const { committees } = this.#o;
    if (!committees.committeeOf(committees.epochOfSlot(a.slot)).includes(a.attester as `0x${string}`)) {
      return refuse(`attester ${a.attester} is not in the committee of slot ${a.slot}`);
    }
    if (recoverSigner(proposalDigest(a.slot, a.archive, a.proposer), a.signature) !== a.attester) {
      return refuse(`signature does not recover to attester ${a.attester}`);
    }
    let bySigner = this.#attestations.get(a.slot);
    const seen = bySigner?.get(a.attester);
    if (seen !== undefined) {
      return seen === a.archive
        ? { verdict: 'ignore', reason: 'duplicate attestation' }
        : refuse(`second, different attestation by ${a.attester} for slot ${a.slot}`);
    }
    if (bySigner === undefined) this.#attestations.set(a.slot, (bySigner = new Map()));
    bySigner.set(a.attester, a.archive);
    this.#prune();
    return ACCEPT;
  }

  #checkSlotAndProposer(p: SignedPayload): ConsensusVerdict | undefined {
    const current = this.#o.currentSlot();
    if (p.slot > current) return refuse(`slot ${p.slot} has not started (current slot ${current})`);
    if (p.slot < current - this.#recent)
      return refuse(`slot ${p.slot} is stale (current slot ${current}, at most ${this.#recent} back)`);
    const expected = this.#o.committees.proposerOf(p.slot);
    if (expected === undefined || expected !== p.proposer)
      return refuse(`${p.proposer} is not the proposer of slot ${p.slot}`);
    return undefined;
  }

  /** Slots too old to be accepted again need no duplicate record. */
  #prune(): void {
    const oldest = this.#o.currentSlot() - this.#recent;
    for (const slot of this.#proposals.keys()) if (slot < oldest) this.#proposals.delete(slot);
    for (const slot of this.#attestations.keys()) if (slot < oldest) this.#attestations.delete(slot);
  }
}
