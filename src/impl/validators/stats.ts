/**
 * Validator statistics from the slot record, by the rules of reference §6 (Aztec's sentinel):
 * missed proposals over the proposer entries (missed = checkpoint-missed or blocks-missed),
 * missed attestations over the attestation entries; count, total, rate = count/total (omitted
 * when total is 0) and currentStreak = misses counted back from the most recent entry.
 * @module
 */
import type { ValidatorMissedStats, ValidatorStats } from '../../generated/public/types.ts';
import type { SlotEntry, ValidatorStatus } from './slot-record.ts';

/** Statuses of a validator as the slot's proposer. */
export const PROPOSER_STATUSES: ReadonlySet<ValidatorStatus> = new Set([
  'checkpoint-mined',
  'checkpoint-proposed',
  'checkpoint-missed',
  'blocks-missed',
]);
/** Statuses of a validator as an attester. */
export const ATTESTER_STATUSES: ReadonlySet<ValidatorStatus> = new Set(['attestation-sent', 'attestation-missed']);
const MISSED_PROPOSALS: ReadonlySet<ValidatorStatus> = new Set(['checkpoint-missed', 'blocks-missed']);
const MISSED_ATTESTATIONS: ReadonlySet<ValidatorStatus> = new Set(['attestation-missed']);

/** Misses among the entries whose status is in `relevant`. */
export function missedStats(
  history: readonly { status: ValidatorStatus }[],
  relevant: ReadonlySet<ValidatorStatus>,
  missed: ReadonlySet<ValidatorStatus>,
): ValidatorMissedStats {
  const entries = history.filter((h) => relevant.has(h.status));
  const count = entries.filter((h) => missed.has(h.status)).length;
  let currentStreak = 0;
  for (let i = entries.length - 1; i >= 0 && missed.has(entries[i]!.status); i--) currentStreak++;
  return entries.length === 0
    ? { currentStreak, count, total: 0 }
    : { currentStreak, rate: count / entries.length, count, total: entries.length };
}

/** Start of a slot in Unix seconds. */
export type SlotStart = (slot: number) => bigint;

/**
 * One validator's stats over a range. `history` is its entries in slot order; `totalSlots` the
 * number of processed slots in the range (the range the figures cover).
 */
export function computeValidatorStats(
  address: string,
  history: readonly SlotEntry[],
  totalSlots: number,
  slotStart: SlotStart,
): ValidatorStats {
  const lastProposal = history.findLast((h) => h.status === 'checkpoint-mined' || h.status === 'checkpoint-proposed');
  const lastAttestation = history.findLast((h) => h.status === 'attestation-sent');
  return {
    address: address.toLowerCase(),
    ...(lastProposal === undefined ? {} : { lastProposal: activity(lastProposal.slot, slotStart) }),
    ...(lastAttestation === undefined ? {} : { lastAttestation: activity(lastAttestation.slot, slotStart) }),
    totalSlots,
    missedProposals: missedStats(history, PROPOSER_STATUSES, MISSED_PROPOSALS),
    missedAttestations: missedStats(history, ATTESTER_STATUSES, MISSED_ATTESTATIONS),
    history: history.map((h) => ({ slot: h.slot, status: h.status })),
  };
}

function activity(slot: number, slotStart: SlotStart) {
  const t = slotStart(slot);
  return { timestamp: t.toString(), slot, date: new Date(Number(t) * 1000).toISOString() };
}

/** Missed and total entries of one validator in one epoch (proven performance, inactivity). */
export function epochPerformance(entries: readonly SlotEntry[]): Map<string, { missed: number; total: number }> {
  const out = new Map<string, { missed: number; total: number }>();
  for (const e of entries) {
    const p = out.get(e.validator) ?? { missed: 0, total: 0 };
    p.total++;
    if (MISSED_PROPOSALS.has(e.status) || MISSED_ATTESTATIONS.has(e.status)) p.missed++;
    out.set(e.validator, p);
  }
  return out;
}
