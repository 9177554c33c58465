/**
 * l2node's startup defaults of every NodeAdminConfig setting (openrpc.admin.json `default`s; a
 * unit test checks the two agree). Optional settings without a default are absent.
 * @module
 */
import type { NodeAdminConfig } from '../../generated/admin/types.ts';

const TEN_TOKENS = '10000000000000000000';

/** The defaults of the live admin configuration. */
export const DEFAULT_NODE_ADMIN_CONFIG: Readonly<NodeAdminConfig> = Object.freeze({
  archiverPollingIntervalMS: 500, archiverBatchSize: 100, skipValidateCheckpointAttestations: false,
  maxPendingTxCount: 1000, txPoolPriceBumpPercentage: 10, disableTransactions: false, txPublicSetupAllowListExtend: [],
  sequencerPollingIntervalMS: 500, maxTxsPerBlock: 32, minTxsPerBlock: 1, minValidTxsPerBlock: 1, maxTxsPerCheckpoint: 256,
  maxL2BlockGas: 10_000_000_000, maxDABlockGas: 786_432, buildCheckpointIfEmpty: false, enforceTimeTable: true,
  slashMinPenaltyPercentage: 0.5, slashMaxPenaltyPercentage: 2, slashValidatorsAlways: [], slashValidatorsNever: [], slashSelfAllowed: false,
  slashPrunePenalty: TEN_TOKENS, slashDataWithholdingPenalty: TEN_TOKENS, slashInactivityPenalty: TEN_TOKENS,
  slashBroadcastedInvalidBlockPenalty: TEN_TOKENS, slashProposeInvalidAttestationsPenalty: TEN_TOKENS,
  slashAttestDescendantOfInvalidPenalty: TEN_TOKENS, slashDuplicateProposalPenalty: TEN_TOKENS, slashDuplicateAttestationPenalty: TEN_TOKENS,
  slashUnknownPenalty: TEN_TOKENS, slashInactivityTargetPercentage: 0.9, slashInactivityConsecutiveEpochThreshold: 1,
  slashOffenseExpirationRounds: 4, slashMaxPayloadSize: 50, slashGracePeriodL2Slots: 0, slashExecuteRoundsLookBack: 4,
  disableValidator: false, disabledValidators: [], attestationPollingIntervalMs: 200, validatorReexecute: true,
  secondsBeforeInvalidatingBlockAsCommitteeMember: 144, secondsBeforeInvalidatingBlockAsNonCommitteeMember: 432,
  realProofs: false, proverTestDelayType: 'fixed', proverTestDelayMs: 0, proverTestDelayFactor: 1, proverAgentCount: 1,
  cancelJobsOnStop: false, enqueueConcurrency: 50, haSigningEnabled: false, nodeId: '0x0000000000000000000000000000000000000000',
  pollingIntervalMs: 100, signingTimeoutMs: 3000,
});
