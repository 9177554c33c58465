/**
 * The slasher: detects offenses from the validator record and groups them into slash payloads.
 *
 * - PROPOSED_INSUFFICIENT_ATTESTATIONS (5): a checkpoint proposed or mined with fewer valid
 *   committee attestations than the quorum (⌊2n/3⌋ + 1); against the proposer, at the slot.
 * - INACTIVITY (3): a validator whose missed share of its entries reached
 *   slashInactivityTargetPercentage in each of the last slashInactivityConsecutiveEpochThreshold
 *   proven epochs; at the epoch.
 * Amounts come from the configured penalties; a "0" penalty disables the offense; slots within
 * slashGracePeriodL2Slots are not judged. Rounds are `roundSizeInSlots` long. The payloads of
 * round R slash the offenses recorded in round R − 1 (expired ones and slashValidatorsNever, and
 * this node's own validators unless slashSelfAllowed, left out; slashValidatorsAlways added),
 * at most slashMaxPayloadSize validators per payload; this node's proposers vote during round R.
 * @module
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import type { NodeAdminConfig, Offense, OffenseType, SlashPayloadRound } from '../../generated/admin/types.ts';
import { u256 } from '../validators/committee.ts';
import type { RecordListener } from '../validators/sentinel.ts';
import type { SlotRecord, SlotRecordStore } from '../validators/slot-record.ts';
import { attestationQuorum, OFFENSE, penaltyOf, type RecordedOffense } from './offenses.ts';
import type { SlashingStore, StoredPayload } from './slashing-store.ts';

/** Slasher dependencies. */
export interface SlasherDeps {
  readonly store: SlashingStore;
  readonly record: SlotRecordStore;
  readonly config: () => Readonly<NodeAdminConfig>;
  /** Attesters this node runs (never slashed by this node unless slashSelfAllowed). */
  readonly ownValidators: () => readonly string[];
  readonly slotsPerEpoch: number;
  readonly roundSizeInSlots: number;
  readonly slotStart: (slot: number) => bigint;
  /** The current slot (chain time). */
  readonly currentSlot: () => number;
}

/** Offense detection and payloads. */
export class Slasher implements RecordListener {
  readonly #d: SlasherDeps;
  constructor(deps: SlasherDeps) {
    if (deps.roundSizeInSlots < 1) throw new RangeError('roundSizeInSlots must be >= 1');
    this.#d = deps;
  }

  /** The round of a slot. */
  roundOf(slot: number): number {
    return Math.floor(slot / this.#d.roundSizeInSlots);
  }

  /** The current round. */
  get currentRound(): number {
    return this.roundOf(this.#d.currentSlot());
  }

  async onSlotRecorded(r: SlotRecord): Promise<void> {
    const proposed = r.proposerStatus === 'checkpoint-mined' || r.proposerStatus === 'checkpoint-proposed';
    if (
      proposed &&
      r.attestations < attestationQuorum(r.committeeSize) &&
      r.slot >= this.#d.config().slashGracePeriodL2Slots
    ) {
      await this.#offend(r.proposer, OFFENSE.PROPOSED_INSUFFICIENT_ATTESTATIONS, r.slot, r.slot);
    }
    if (proposed && this.#isOwn(r.proposer)) {
      const round = this.roundOf(r.slot);
      const payloads = await this.payloadsOf(round, r.slot);
      // One vote per slot: for the payload slashing the most.
      if (payloads.length > 0) await this.#d.store.vote(r.slot, round, payloads[0]!.address);
    }
  }

  async onEpochPerformance(epoch: number, perf: ReadonlyMap<string, { missed: number; total: number }>): Promise<void> {
    const c = this.#d.config();
    const firstSlot = epoch * this.#d.slotsPerEpoch;
    if (firstSlot + this.#d.slotsPerEpoch - 1 < c.slashGracePeriodL2Slots) return;
    const n = c.slashInactivityConsecutiveEpochThreshold;
    for (const [validator, p] of perf) {
      if (!inactive(p, c.slashInactivityTargetPercentage)) continue;
      const past = (await this.#d.record.provenPerformance(validator)).filter(
        (e) => e.epoch > epoch - n && e.epoch < epoch,
      );
      const streak = past.filter((e) => inactive(e, c.slashInactivityTargetPercentage)).length + 1;
      if (streak >= n) await this.#offend(validator, OFFENSE.INACTIVITY, epoch, firstSlot + this.#d.slotsPerEpoch - 1);
    }
  }

  /** nodeAdmin_getSlashOffenses: 'current', 'all' (not expired) or a decimal round. */
  async offenses(round: string): Promise<Offense[]> {
    const current = this.currentRound;
    let list: RecordedOffense[];
    if (round === 'current') list = await this.#d.store.offenses(current, current);
    else if (round === 'all')
      list = await this.#d.store.offenses(current - this.#d.config().slashOffenseExpirationRounds, current);
    else {
      const r = BigInt(round);
      if (r > BigInt(Number.MAX_SAFE_INTEGER)) return [];
      list = await this.#d.store.offenses(Number(r), Number(r));
    }
    return list.map(({ validator, amount, offenseType, epochOrSlot }) => ({
      validator,
      amount,
      offenseType,
      epochOrSlot,
    }));
  }

  /** nodeAdmin_getSlashPayloads: the current round's payloads with their votes. */
  async currentPayloads(): Promise<SlashPayloadRound[]> {
    return this.payloadsOf(this.currentRound, this.#d.currentSlot());
  }

  /** The payloads of `round`, built (and stored) on first use at `slot`. */
  async payloadsOf(round: number, slot: number): Promise<SlashPayloadRound[]> {
    if (!(await this.#d.store.hasPayloads(round)))
      await this.#d.store.savePayloads(round, await this.#build(round, slot));
    return this.#d.store.payloads(round);
  }

  async #build(round: number, slot: number): Promise<StoredPayload[]> {
    const c = this.#d.config();
    const excluded = new Set(c.slashValidatorsNever.map((a) => a.toLowerCase()));
    if (!c.slashSelfAllowed) for (const v of this.#d.ownValidators()) excluded.add(v.toLowerCase());
    const offenses =
      round < 1 ? [] : await this.#d.store.offenses(Math.max(0, round - 1 - c.slashOffenseExpirationRounds), round - 1);
    const byValidator = new Map<
      string,
      { amount: bigint; offenses: { offenseType: OffenseType; epochOrSlot: string }[] }
    >();
    for (const o of offenses) {
      if (excluded.has(o.validator) || !withinVoteRange(BigInt(o.amount), penaltyOf(o.offenseType, c), c)) continue;
      const s = byValidator.get(o.validator) ?? { amount: 0n, offenses: [] };
      s.amount += BigInt(o.amount);
      s.offenses.push({ offenseType: o.offenseType, epochOrSlot: o.epochOrSlot });
      byValidator.set(o.validator, s);
    }
    const unknownPenalty = penaltyOf(OFFENSE.UNKNOWN, c);
    for (const a of c.slashValidatorsAlways.map((x) => x.toLowerCase())) {
      if (byValidator.has(a) || unknownPenalty === 0n) continue;
      byValidator.set(a, {
        amount: unknownPenalty,
        offenses: [{ offenseType: OFFENSE.UNKNOWN, epochOrSlot: String(round) }],
      });
    }
    const slashes = [...byValidator]
      .map(([validator, s]) => ({ validator, amount: s.amount.toString(), offenses: s.offenses }))
      .sort((a, b) =>
        BigInt(b.amount) > BigInt(a.amount)
          ? 1
          : BigInt(b.amount) < BigInt(a.amount)
            ? -1
            : a.validator < b.validator
              ? -1
              : 1,
      );
    const payloads: StoredPayload[] = [];
    for (let i = 0; i < slashes.length; i += c.slashMaxPayloadSize) {
      const part = slashes.slice(i, i + c.slashMaxPayloadSize);
      payloads.push({
        address: payloadAddress(round, part),
        timestamp: this.#d.slotStart(slot).toString(),
        round: String(round),
        slashes: part,
      });
    }
    return payloads;
  }

  async #offend(validator: string, type: OffenseType, epochOrSlot: number, slot: number): Promise<void> {
    const amount = penaltyOf(type, this.#d.config());
    if (amount === 0n) return;
    await this.#d.store.addOffense({
      validator,
      offenseType: type,
      epochOrSlot: String(epochOrSlot),
      amount: amount.toString(),
      round: this.roundOf(slot),
    });
  }

  #isOwn(address: string): boolean {
    return this.#d.ownValidators().some((v) => v.toLowerCase() === address);
  }
}

function inactive(p: { missed: number; total: number }, target: number): boolean {
  return p.total > 0 && p.missed / p.total >= target;
}

/** This node votes only for amounts within [min, max] × the configured penalty. */
function withinVoteRange(amount: bigint, penalty: bigint, c: Readonly<NodeAdminConfig>): boolean {
  const scaled = (pct: number) => (penalty * BigInt(Math.round(pct * 1_000_000))) / 1_000_000n;
  return amount >= scaled(c.slashMinPenaltyPercentage) && amount <= scaled(c.slashMaxPenaltyPercentage);
}

/** A payload's address: the last 20 bytes of keccak256 over its round and slashes. */
export function payloadAddress(
  round: number,
  slashes: readonly {
    validator: string;
    amount: string;
    offenses: readonly { offenseType: number; epochOrSlot: string }[];
  }[],
): string {
  const parts = [utf8ToBytes('l2node/slash-payload'), u256(round)];
  for (const s of slashes) {
    parts.push(hexToBytes(s.validator.slice(2)), u256(BigInt(s.amount)));
    for (const o of s.offenses) parts.push(u256(o.offenseType), u256(BigInt(o.epochOrSlot)));
  }
  return `0x${bytesToHex(keccak_256(concatBytes(...parts)).subarray(12))}`;
}
