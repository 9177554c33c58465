/**
 * Pushes live configuration changes to the parts that use them (nodeAdmin_setConfig): the sync
 * cadence, the mempool, the sequencer's block limits and the public-setup allow-list. Slashing
 * settings need no push: the slasher reads the live configuration each time.
 * @module
 */
import type { AllowedElement, NodeAdminConfig } from '../../generated/admin/types.ts';
import type { ConfigKey, NodeConfig } from './node-config.ts';

/** The sequencer settings an operator can change at run time. */
export interface SequencerLimits {
  readonly maxTxsPerBlock: number;
  readonly minTxsPerBlock: number;
  readonly minValidTxsPerBlock: number;
  readonly maxTxsPerCheckpoint: number;
  readonly maxL2BlockGas: number;
  readonly maxDABlockGas: number;
  readonly buildCheckpointIfEmpty: boolean;
  readonly sequencerPollingIntervalMS: number;
  readonly enforceTimeTable: boolean;
  readonly blockDurationMs?: number;
  readonly coinbase?: string;
  readonly feeRecipient?: string;
}

/** Who receives which settings; each part is optional until it exists. */
export interface ConfigTargets {
  readonly sync?: { setIntervalMs(ms: number): void };
  readonly pool?: {
    setMaxPendingTxCount(max: number): Promise<void> | void;
    setPriceBumpPercentage?(pct: number): void;
    setDisableTransactions?(off: boolean): void;
  };
  readonly sequencer?: { setLimits(limits: SequencerLimits): void };
  readonly allowList?: { setExtension(extra: readonly AllowedElement[]): void };
}

const SEQUENCER_KEYS: readonly ConfigKey[] = [
  'maxTxsPerBlock',
  'minTxsPerBlock',
  'minValidTxsPerBlock',
  'maxTxsPerCheckpoint',
  'maxL2BlockGas',
  'maxDABlockGas',
  'buildCheckpointIfEmpty',
  'sequencerPollingIntervalMS',
  'enforceTimeTable',
  'blockDurationMs',
  'coinbase',
  'feeRecipient',
];

/** The sequencer's part of a configuration. */
export function sequencerLimitsOf(c: Readonly<NodeAdminConfig>): SequencerLimits {
  return {
    maxTxsPerBlock: c.maxTxsPerBlock,
    minTxsPerBlock: c.minTxsPerBlock,
    minValidTxsPerBlock: c.minValidTxsPerBlock,
    maxTxsPerCheckpoint: c.maxTxsPerCheckpoint,
    maxL2BlockGas: c.maxL2BlockGas,
    maxDABlockGas: c.maxDABlockGas,
    buildCheckpointIfEmpty: c.buildCheckpointIfEmpty,
    sequencerPollingIntervalMS: c.sequencerPollingIntervalMS,
    enforceTimeTable: c.enforceTimeTable,
    ...(c.blockDurationMs === undefined ? {} : { blockDurationMs: c.blockDurationMs }),
    ...(c.coinbase === undefined ? {} : { coinbase: c.coinbase }),
    ...(c.feeRecipient === undefined ? {} : { feeRecipient: c.feeRecipient }),
  };
}

/** Applies the current configuration to the targets once, then on every change. */
export async function wireConfigTargets(config: NodeConfig, t: ConfigTargets): Promise<void> {
  const apply = async (c: Readonly<NodeAdminConfig>, changed: ReadonlySet<ConfigKey> | 'all') => {
    const has = (k: ConfigKey) => changed === 'all' || changed.has(k);
    if (has('archiverPollingIntervalMS')) t.sync?.setIntervalMs(c.archiverPollingIntervalMS);
    if (has('maxPendingTxCount')) await t.pool?.setMaxPendingTxCount(c.maxPendingTxCount);
    if (has('txPoolPriceBumpPercentage')) t.pool?.setPriceBumpPercentage?.(c.txPoolPriceBumpPercentage);
    if (has('disableTransactions')) t.pool?.setDisableTransactions?.(c.disableTransactions);
    if (SEQUENCER_KEYS.some(has)) t.sequencer?.setLimits(sequencerLimitsOf(c));
    if (has('txPublicSetupAllowListExtend')) t.allowList?.setExtension(c.txPublicSetupAllowListExtend);
  };
  await apply(config.get(), 'all');
  config.onChange((c, changed) => apply(c, changed));
}
