/**
 * The sentinel's view of this node's slots (validator stats, reference §6): after each production
 * step of a sequencer, what it did in each finished slot and each newly proven epoch.
 * @module
 */
import type { Logger } from '../server/types.ts';
import type { Checkpoint } from './chain/types.ts';
import type { EngineReads } from './engine.ts';
import type { ConsensusDuties } from './validators/consensus-duties.ts';
import type { SlotObserver } from './validators/sentinel.ts';

/** Most finished slots reported in one step (after a long pause, older ones are left out). */
const MAX_SLOTS_PER_REPORT = 256;

/** With validator duties: an incomplete slot is reported this many slots after it ended. */
const REPORT_DEADLINE_SLOTS = 2;

/**
 * What the sequencer did in each finished slot, for the sentinel: the slot's checkpoint (sealed by
 * the first tick of a later slot, posted to L1 at once: `mined`) with its archive root, or blocks
 * without a checkpoint (`blocksSeen`), or nothing. Slots are reported from the one the node started
 * in, in order; an epoch is reported proven when the proven checkpoint moves into it. With
 * validator duties on p2p, the attestations received for the slot go with it, and a finished slot
 * is reported as soon as its checkpoint is sealed here and every committee member's attestation
 * has arrived, else `REPORT_DEADLINE_SLOTS` slots after it ended (docs/P2P.md, "Slot timing"):
 * the proposal goes out at the seal (the proposer's first tick after the slot), a receiver may
 * wait up to a slot for the block, then its attestation travels back.
 */
export function slotReporter(
  engine: Pick<EngineReads, 'config' | 'time' | 'l1' | 'chain' | 'checkpoints'>,
  logger: Logger,
  consensus: () => ConsensusDuties | undefined,
): (observer: SlotObserver) => Promise<void> {
  let nextSlot: number | undefined;
  let nextCheckpoint: number | undefined;
  let provenEpoch: number | undefined;
  const bySlot = new Map<number, Checkpoint>();
  return async (observer) => {
    const duties = consensus();
    const nowMs = engine.config.clock.nowMs();
    const slotAtMs = (ms: number) => engine.time.slotAt(BigInt(Math.floor(ms / 1000)));
    const finished = slotAtMs(nowMs);
    // Slots before `due` are reported whatever arrived; later finished ones only once complete.
    const due =
      duties === undefined
        ? finished
        : slotAtMs(nowMs - REPORT_DEADLINE_SLOTS * engine.config.slotDurationSeconds * 1000);
    nextSlot ??= Math.max(1, finished);
    nextCheckpoint ??= (await engine.checkpoints.latestCheckpointNumber()) + 1;
    for (let more = true; more; ) {
      const found = await engine.checkpoints.checkpointsFrom(nextCheckpoint, 64);
      for (const c of found) bySlot.set(c.header.slotNumber, c);
      nextCheckpoint += found.length;
      more = found.length === 64;
    }
    nextSlot = Math.max(nextSlot, finished - MAX_SLOTS_PER_REPORT);
    const open = nextSlot < finished ? await engine.chain.openCheckpointBlocks() : [];
    for (; nextSlot < finished; nextSlot++) {
      const slot = nextSlot;
      const c = bySlot.get(slot);
      if (slot >= due && !(c !== undefined && duties?.attestationsComplete(slot) === true)) break;
      bySlot.delete(slot);
      const blocksSeen = c === undefined && open.some((b) => b.header.globalVariables.slotNumber === slot);
      const attestations = duties?.attestationsFor(slot) ?? [];
      await observer
        .onSlot({
          slot,
          ...(c === undefined ? {} : { proposal: { archive: c.archive.root, mined: true } }),
          ...(blocksSeen ? { blocksSeen } : {}),
          ...(attestations.length > 0 ? { attestations } : {}),
        })
        .catch((err: unknown) => logger.warn('sentinel: recording a slot failed', { slot, err }));
    }
    for (const s of bySlot.keys()) if (s < nextSlot) bySlot.delete(s);
    const proven = await engine.l1.provenCheckpointNumber();
    const cp = proven === 0 ? undefined : await engine.checkpoints.findCheckpoint(proven);
    if (cp === undefined) return;
    const epoch = engine.time.epochOfSlot(cp.header.slotNumber);
    for (let e = provenEpoch === undefined ? epoch : provenEpoch + 1; e <= epoch; e++) {
      await observer
        .onEpochProven(e)
        .catch((err: unknown) => logger.warn('sentinel: recording a proven epoch failed', { epoch: e, err }));
    }
    provenEpoch = epoch;
  };
}
