/**
 * Offense kinds (Aztec stdlib `OffenseType`) and the penalty each takes from the live config.
 * @module
 */
import type { NodeAdminConfig, OffenseType } from '../../generated/admin/types.ts';

/** Offense kinds by name. */
export const OFFENSE = {
  UNKNOWN: 0,
  DATA_WITHHOLDING: 1,
  VALID_EPOCH_PRUNED: 2,
  INACTIVITY: 3,
  BROADCASTED_INVALID_BLOCK_PROPOSAL: 4,
  PROPOSED_INSUFFICIENT_ATTESTATIONS: 5,
  PROPOSED_INCORRECT_ATTESTATIONS: 6,
  ATTESTED_DESCENDANT_OF_INVALID: 7,
  DUPLICATE_PROPOSAL: 8,
  DUPLICATE_ATTESTATION: 9,
} as const satisfies Record<string, OffenseType>;

/** The configured penalty of an offense kind, in staking-asset base units ("0" disables it). */
export function penaltyOf(type: OffenseType, c: Readonly<NodeAdminConfig>): bigint {
  const byType: Record<OffenseType, string> = {
    0: c.slashUnknownPenalty,
    1: c.slashDataWithholdingPenalty,
    2: c.slashPrunePenalty,
    3: c.slashInactivityPenalty,
    4: c.slashBroadcastedInvalidBlockPenalty,
    5: c.slashProposeInvalidAttestationsPenalty,
    6: c.slashProposeInvalidAttestationsPenalty,
    7: c.slashAttestDescendantOfInvalidPenalty,
    8: c.slashDuplicateProposalPenalty,
    9: c.slashDuplicateAttestationPenalty,
  };
  return BigInt(byType[type]);
}

/** Attestations a checkpoint needs: more than two thirds of the committee. */
export function attestationQuorum(committeeSize: number): number {
  return Math.floor((2 * committeeSize) / 3) + 1;
}

/** An offense as stored (amount and epochOrSlot as decimal strings, like the wire). */
export interface RecordedOffense {
  readonly validator: string;
  readonly amount: string;
  readonly offenseType: OffenseType;
  readonly epochOrSlot: string;
  /** Slashing round in which it was recorded. */
  readonly round: number;
}
