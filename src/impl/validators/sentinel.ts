/**
 * The sentinel: turns what happened in each slot into the validator record. The sequencer (or,
 * on a following node, the archiver) reports each finished slot through `onSlot`; this node's
 * committee members attest to the slot's proposal with real secp256k1 signatures over the
 * proposal digest, every signature (ours and received ones) is verified by recovering its signer,
 * and the proposer's and attesters' statuses are stored (reference §6).
 * @module
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import { proposalDigest, type Committees } from './committee.ts';
import type { ValidatorKeyring } from './keyring.ts';
import { recoverSigner } from './signer.ts';
import type { SlotEntry, SlotRecord, SlotRecordStore, ValidatorStatus } from './slot-record.ts';
import { epochPerformance } from './stats.ts';

/** What the chain saw in a finished slot. */
export interface SlotReport {
  readonly slot: number;
  /** The slot's checkpoint proposal, when the proposer built blocks: archive root after its last block. */
  readonly proposal?: { readonly archive: bigint; readonly mined: boolean };
  /** Block proposals were seen for the slot although no checkpoint was proposed. */
  readonly blocksSeen?: boolean;
  /** Attestations received from other nodes: 65-byte r‖s‖v signatures over the proposal digest. */
  readonly attestations?: readonly Uint8Array[];
}

/** Hooks the sequencer/archiver call as slots and epochs pass. */
export interface SlotObserver {
  /** A slot has finished: record it. */
  onSlot(report: SlotReport): Promise<SlotRecord | undefined>;
  /** An epoch's checkpoints are proven: fix its per-validator performance. */
  onEpochProven(epoch: number): Promise<void>;
}

/** Told about each recorded slot and each proven epoch (the slasher listens). */
export interface RecordListener {
  onSlotRecorded?(record: SlotRecord): Promise<void> | void;
  onEpochPerformance?(
    epoch: number,
    performance: ReadonlyMap<string, { missed: number; total: number }>,
  ): Promise<void> | void;
}

/** Sentinel dependencies. */
export interface SentinelDeps {
  readonly committees: Committees;
  readonly keyring: ValidatorKeyring;
  readonly store: SlotRecordStore;
  readonly slotsPerEpoch: number;
  /** Epochs of proven performance to keep (Aztec default 2000). */
  readonly provenPerformanceEpochs?: number;
}

/** The sentinel. */
export class Sentinel implements SlotObserver {
  readonly #d: SentinelDeps;
  readonly #listeners: RecordListener[] = [];

  constructor(deps: SentinelDeps) {
    this.#d = deps;
  }

  /** Adds a listener (the slasher). */
  listen(listener: RecordListener): void {
    this.#listeners.push(listener);
  }

  async onSlot(report: SlotReport): Promise<SlotRecord | undefined> {
    const { committees, keyring } = this.#d;
    const epoch = committees.epochOfSlot(report.slot);
    const committee = committees.committeeOf(epoch);
    const proposer = committees.proposerOf(report.slot);
    if (proposer === undefined) return undefined;
    const signatures = new Map<string, string>();
    let digestHex: string | undefined;
    if (report.proposal !== undefined) {
      const digest = proposalDigest(report.slot, report.proposal.archive, proposer);
      digestHex = `0x${bytesToHex(digest)}`;
      const members = new Set<string>(committee);
      const accept = (sig: Uint8Array) => {
        // Only a signature that recovers to a committee member counts; anything else is ignored.
        const signer = recoverSigner(digest, sig);
        if (signer !== undefined && members.has(signer) && !signatures.has(signer))
          signatures.set(signer, `0x${bytesToHex(sig)}`);
      };
      for (const member of committee) {
        const signer = keyring.signerOf(member);
        if (signer !== undefined) accept(signer.sign(digest));
      }
      for (const sig of report.attestations ?? []) accept(sig);
    }
    const proposerStatus = statusOfProposer(
      report,
      [...signatures.keys()].some((a) => a !== proposer),
    );
    const entries: SlotEntry[] = [{ slot: report.slot, validator: proposer, status: proposerStatus }];
    // Attestation misses count only when a checkpoint was proposed or mined (reference §6).
    if (proposerStatus === 'checkpoint-mined' || proposerStatus === 'checkpoint-proposed') {
      for (const member of committee) {
        if (member === proposer) continue;
        const signature = signatures.get(member);
        entries.push(
          signature === undefined
            ? { slot: report.slot, validator: member, status: 'attestation-missed' }
            : { slot: report.slot, validator: member, status: 'attestation-sent', signature },
        );
      }
    }
    const record: SlotRecord = {
      slot: report.slot,
      epoch,
      proposer,
      proposerStatus,
      ...(digestHex === undefined ? {} : { digest: digestHex }),
      attestations: signatures.size,
      committeeSize: committee.length,
      entries,
    };
    await this.#d.store.save(record);
    for (const l of this.#listeners) await l.onSlotRecorded?.(record);
    return record;
  }

  async onEpochProven(epoch: number): Promise<void> {
    const first = epoch * this.#d.slotsPerEpoch;
    const perf = epochPerformance(await this.#d.store.entries(first, first + this.#d.slotsPerEpoch - 1));
    const rows = [...perf].map(([validator, p]) => ({ validator, epoch, ...p }));
    await this.#d.store.saveProvenPerformance(rows, this.#d.provenPerformanceEpochs ?? 2000);
    for (const l of this.#listeners) await l.onEpochPerformance?.(epoch, perf);
  }
}

function statusOfProposer(report: SlotReport, othersAttested: boolean): ValidatorStatus {
  if (report.proposal?.mined === true) return 'checkpoint-mined';
  if (report.proposal !== undefined && othersAttested) return 'checkpoint-proposed';
  return report.proposal !== undefined || report.blocksSeen === true ? 'checkpoint-missed' : 'blocks-missed';
}
