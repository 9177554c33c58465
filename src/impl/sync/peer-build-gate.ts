/**
 * Before a sequencer with validators on other nodes builds in one of its slots, it catches up
 * with its peers (docs/P2P.md, "Slot timing"): a node that started behind, or whose previous-slot
 * proposer's block is still on its way, would otherwise build on an old tip and fork.
 *
 * - Peers connected: pull blocks after our tip from them (the follower's verified import) until
 *   one answers short; then, when the previous slot's proposer is not ours and we hold no block
 *   of that slot yet, keep pulling until `previousSlotGraceMs` into our slot (its blocks are
 *   accepted until then). Still behind at the build deadline, or our chain differs from the
 *   peers' (`mismatch`): the slot is skipped. No peer answering counts as being alone.
 * - No peer connected: alone on the network is normal for the first node (no bootstrap peers);
 *   a node with bootstrap peers builds alone only once `aloneAfterMs` have passed since it started
 *   without any peer to sync from.
 * @module
 */
import type { EngineLogger } from '../engine-logger.ts';
import { DEFAULT_REDIAL_INTERVAL_MS } from '../p2p/types.ts';
import type { CatchUpResult } from './follower.ts';

/** What the gate is built from. */
export interface PeerBuildGateOptions {
  /** Connected peers now. */
  readonly peerCount: () => number;
  /** The follower's catch-up (Follower.catchUp), bounded by `untilMs`. */
  readonly catchUp: (untilMs: number) => Promise<CatchUpResult>;
  /** True while the previous slot's proposer is another node's validator and we hold no block of that slot. */
  readonly previousSlotPending: (slot: number) => Promise<boolean>;
  /** Unix milliseconds at which `slot` starts. */
  readonly slotStartMs: (slot: number) => number;
  readonly nowMs: () => number;
  /** Bootstrap peers are configured: this node is not the network's first. */
  readonly expectsPeers: boolean;
  /** When this node started (unix ms). */
  readonly startedAtMs: number;
  /** How long a node expecting peers waits for one before it builds alone. */
  readonly aloneAfterMs: number;
  /** How far into our slot the previous slot's blocks are still waited for. */
  readonly previousSlotGraceMs: number;
  /** No block is started this long before the end of our slot (SlotGate.buildMarginMs). */
  readonly buildMarginMs: number;
  /** Between two pulls while waiting for the previous slot's blocks. */
  readonly retryMs?: number;
  readonly logger?: Pick<EngineLogger, 'info' | 'warn'>;
}

/**
 * The gate's timing for a slot length: no block started in the last quarter of a slot, and the
 * previous slot's blocks waited for during the first quarter of ours — together half a slot for
 * a block started just before its proposer's deadline to be committed, announced and fetched.
 * A node expecting peers builds alone after one epoch without any, and never before two rounds of
 * bootstrap re-dialling (5 s apart, `DEFAULT_REDIAL_INTERVAL_MS`) have had their chance.
 */
export function buildGateTiming(
  slotDurationSeconds: number,
  slotsPerEpoch: number,
): { buildMarginMs: number; previousSlotGraceMs: number; aloneAfterMs: number } {
  const slotMs = slotDurationSeconds * 1000;
  return {
    buildMarginMs: slotMs / 4,
    previousSlotGraceMs: slotMs / 4,
    aloneAfterMs: Math.max(slotMs * slotsPerEpoch, 2 * DEFAULT_REDIAL_INTERVAL_MS),
  };
}

/** The gate: `beforeBuild(slot, deadlineMs)` resolves true when this node may build in `slot` (a sequencer SlotGate). */
export class PeerBuildGate {
  readonly #o: PeerBuildGateOptions;
  readonly buildMarginMs: number;

  constructor(options: PeerBuildGateOptions) {
    this.#o = options;
    this.buildMarginMs = options.buildMarginMs;
  }

  async beforeBuild(slot: number, deadlineMs: number): Promise<boolean> {
    const o = this.#o;
    if (o.peerCount() === 0) {
      const alone = !o.expectsPeers || o.nowMs() - o.startedAtMs >= o.aloneAfterMs;
      if (!alone) o.logger?.info('sequencer: no peer to catch up with yet, slot left out', { slot });
      return alone;
    }
    const waitPreviousUntil = Math.min(deadlineMs, o.slotStartMs(slot) + o.previousSlotGraceMs);
    for (;;) {
      const r = await o.catchUp(deadlineMs);
      if (r === 'unreachable') return true;
      if (r !== 'caught-up') {
        o.logger?.warn('sequencer: not caught up with peers, slot left out', { slot, catchUp: r });
        return false;
      }
      if (o.nowMs() >= waitPreviousUntil || !(await o.previousSlotPending(slot))) return o.nowMs() < deadlineMs;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(1, Math.min(o.retryMs ?? 50, waitPreviousUntil - o.nowMs()))),
      );
    }
  }
}
