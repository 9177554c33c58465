/**
 * `node_getValidatorsStats` and `node_getValidatorStats` over the slot record (reference §6).
 * Window: slotWindow = history length in epochs × slots per epoch; by default the range is
 * [max(lastProcessedSlot − slotWindow, 0), lastProcessedSlot]; a range with toSlot − fromSlot >
 * slotWindow is SLOT_RANGE_TOO_WIDE; a validator with no entry in the record is null.
 * @module
 */
import type { PublicHandlers } from '../../generated/public/handlers.ts';
import type { SingleValidatorStats, ValidatorStats, ValidatorsStats } from '../../generated/public/types.ts';
import { ParamRuleBroken, SlotRangeTooWide } from './errors.ts';
import type { SlotRecordStore } from './slot-record.ts';
import { computeValidatorStats, type SlotStart } from './stats.ts';

/** What the stats handlers read. */
export interface ValidatorHandlerDeps {
  readonly store: SlotRecordStore;
  readonly slotStart: SlotStart;
  readonly slotsPerEpoch: number;
  /** Epochs of history the stats cover (Aztec SENTINEL_HISTORY_LENGTH_IN_EPOCHS, default 24). */
  readonly historyLengthInEpochs?: number;
}

/** The two validator handlers. */
export type ValidatorHandlers = Pick<PublicHandlers, 'getValidatorsStats' | 'getValidatorStats'>;

/** Creates the validator stats handlers. */
export function createValidatorHandlers(deps: ValidatorHandlerDeps): ValidatorHandlers {
  const slotWindow = (deps.historyLengthInEpochs ?? 24) * deps.slotsPerEpoch;
  return {
    /** Handler for `node_getValidatorsStats`. */
    getValidatorsStats: () => allStats(deps, slotWindow),
    /** Handler for `node_getValidatorStats`; null for a validator the record has never seen. */
    getValidatorStats: (address, fromSlot, toSlot) => oneValidator(deps, slotWindow, address, fromSlot, toSlot),
  };
}

async function allStats(deps: ValidatorHandlerDeps, slotWindow: number): Promise<ValidatorsStats> {
  const bounds = await deps.store.bounds();
  if (bounds === undefined) return { stats: {}, slotWindow };
  const to = bounds.lastProcessedSlot;
  const from = Math.max(to - slotWindow, 0);
  const totalSlots = await deps.store.processedSlots(from, to);
  const byValidator = Map.groupBy(await deps.store.entries(from, to), (e) => e.validator);
  const stats: Record<string, ValidatorStats> = {};
  for (const [address, history] of [...byValidator].sort(([a], [b]) => (a < b ? -1 : 1))) {
    stats[address] = computeValidatorStats(address, history, totalSlots, deps.slotStart);
  }
  return { stats, lastProcessedSlot: to, initialSlot: bounds.initialSlot, slotWindow };
}

async function oneValidator(
  deps: ValidatorHandlerDeps,
  slotWindow: number,
  address: string,
  fromSlot?: string,
  toSlot?: string,
): Promise<SingleValidatorStats | null> {
  const from = fromSlot === undefined ? undefined : BigInt(fromSlot);
  const to = toSlot === undefined ? undefined : BigInt(toSlot);
  if (from !== undefined && to !== undefined && to < from)
    throw new ParamRuleBroken('toSlot', 2, 'toSlot must be >= fromSlot');
  const bounds = await deps.store.bounds();
  const effTo =
    to ??
    (from !== undefined && from > BigInt(bounds?.lastProcessedSlot ?? 0)
      ? from
      : BigInt(bounds?.lastProcessedSlot ?? 0));
  const effFrom = from ?? (effTo > BigInt(slotWindow) ? effTo - BigInt(slotWindow) : 0n);
  if (effTo - effFrom > BigInt(slotWindow)) throw new SlotRangeTooWide(effFrom, effTo, slotWindow);
  if (bounds === undefined || !(await deps.store.knows(address))) return null;
  // Within the window both ends fit a Number: slots come from a 2^53 clock at the earliest.
  const lo = Number(effFrom),
    hi = Number(effTo);
  const history = await deps.store.entries(lo, hi, address);
  const validator = computeValidatorStats(address, history, await deps.store.processedSlots(lo, hi), deps.slotStart);
  const proven = await deps.store.provenPerformance(address);
  return {
    validator,
    allTimeProvenPerformance: proven.map((p) => ({ missed: p.missed, total: p.total, epoch: p.epoch })),
    lastProcessedSlot: bounds.lastProcessedSlot,
    initialSlot: bounds.initialSlot,
    slotWindow,
  };
}
