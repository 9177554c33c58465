/**
 * Time of the chain: the clock seam (so tests drive time by hand) and all slot, epoch and L1-block
 * arithmetic in one place. Slot 0 starts at genesis; epoch e holds slots [e·S, (e+1)·S).
 * @module
 */

/** A source of the current time in milliseconds. */
export interface Clock {
  nowMs(): number;
}

/** The wall clock. */
export const systemClock: Clock = { nowMs: () => Date.now() };

/** A clock that moves only when told to; for tests and replays. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(startMs: number) {
    this.#ms = startMs;
  }
  nowMs(): number {
    return this.#ms;
  }
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    this.#ms += ms;
  }
  /** Sets the clock to `ms` (never backwards). */
  set(ms: number): void {
    if (ms < this.#ms) throw new RangeError('a ManualClock never goes backwards');
    this.#ms = ms;
  }
}

/** The timing parameters of the chain (all fixed at genesis). */
export interface TimeConfig {
  /** Unix seconds at which slot 0 starts. */
  readonly genesisTime: bigint;
  readonly slotDurationSeconds: number;
  readonly slotsPerEpoch: number;
  readonly l1BlockSeconds: number;
}

/** Slot/epoch/L1-block arithmetic over a TimeConfig. */
export interface ChainTime {
  readonly config: TimeConfig;
  slotAt(unixSeconds: bigint): number;
  slotStart(slot: number): bigint;
  epochOfSlot(slot: number): number;
  firstSlotOfEpoch(epoch: number): number;
  /** Unix seconds at which the last slot of `epoch` ends. */
  epochEnd(epoch: number): bigint;
  l1BlockAt(unixSeconds: bigint): bigint;
  l1BlockTimestamp(l1Block: bigint): bigint;
}

/** Creates the arithmetic for `config`. */
export function createChainTime(config: TimeConfig): ChainTime {
  if (config.slotDurationSeconds <= 0 || config.slotsPerEpoch <= 0 || config.l1BlockSeconds <= 0) {
    throw new RangeError('slot duration, slots per epoch and L1 block time must be positive');
  }
  const slotLen = BigInt(config.slotDurationSeconds);
  const l1Len = BigInt(config.l1BlockSeconds);
  const g = config.genesisTime;
  return {
    config,
    slotAt: (t) => (t < g ? 0 : Number((t - g) / slotLen)),
    slotStart: (slot) => g + BigInt(slot) * slotLen,
    epochOfSlot: (slot) => Math.floor(slot / config.slotsPerEpoch),
    firstSlotOfEpoch: (epoch) => epoch * config.slotsPerEpoch,
    epochEnd: (epoch) => g + BigInt((epoch + 1) * config.slotsPerEpoch) * slotLen,
    l1BlockAt: (t) => (t < g ? 0n : (t - g) / l1Len),
    l1BlockTimestamp: (b) => g + b * l1Len,
  };
}

/** Whole seconds of a millisecond clock reading. */
export function secondsOf(clock: Clock): bigint {
  return BigInt(Math.floor(clock.nowMs() / 1000));
}
