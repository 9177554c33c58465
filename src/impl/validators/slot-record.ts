/**
 * The per-slot validator record in the database: for each processed slot the proposer and what
 * happened, and for each validator concerned its status (reference §6), with the attestation
 * signature when one was seen. Stats, proven performance and inactivity are computed from it.
 * @module
 */
import type { Knex } from 'knex';
import { AdminTableStore } from '../node-config/admin-schema.ts';

/** What a validator did in a slot (ValidatorStatusInSlot). */
export type ValidatorStatus =
  | 'checkpoint-mined'
  | 'checkpoint-proposed'
  | 'checkpoint-missed'
  | 'blocks-missed'
  | 'attestation-sent'
  | 'attestation-missed';

/** One validator's status in one slot. */
export interface SlotEntry {
  readonly slot: number;
  readonly validator: string;
  readonly status: ValidatorStatus;
  /** 0x + 130 hex digits (r‖s‖v) when an attestation was seen. */
  readonly signature?: string;
}

/** Everything recorded for one slot. */
export interface SlotRecord {
  readonly slot: number;
  readonly epoch: number;
  readonly proposer: string;
  readonly proposerStatus: ValidatorStatus;
  /** Proposal digest (0x + 64 hex) when a proposal was made. */
  readonly digest?: string;
  /** Valid committee attestations, the proposer's own included. */
  readonly attestations: number;
  readonly committeeSize: number;
  readonly entries: readonly SlotEntry[];
}

/** Per-epoch proven performance of a validator. */
export interface ProvenPerformance {
  readonly validator: string;
  readonly epoch: number;
  readonly missed: number;
  readonly total: number;
}

/** Reads and writes the record tables. */
export class SlotRecordStore extends AdminTableStore {
  /** Records a slot (replacing an earlier record of the same slot). */
  async save(r: SlotRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx('validator_slot_entries').where({ slot: r.slot }).delete();
      await tx('validator_slots').where({ slot: r.slot }).delete();
      await tx('validator_slots').insert({
        slot: r.slot,
        epoch: r.epoch,
        proposer: r.proposer,
        proposer_status: r.proposerStatus,
        digest: r.digest ?? null,
        attestations: r.attestations,
        committee_size: r.committeeSize,
      });
      if (r.entries.length > 0) {
        await tx('validator_slot_entries').insert(
          r.entries.map((e) => ({
            slot: e.slot,
            validator: e.validator,
            status: e.status,
            signature: e.signature ?? null,
          })),
        );
      }
    });
  }

  /** The recorded slot, if any. */
  async slot(slot: number): Promise<SlotRecord | undefined> {
    const row = await this.db('validator_slots').where({ slot }).first();
    if (row === undefined) return undefined;
    const entries = (await this.db('validator_slot_entries').where({ slot }).orderBy('validator')).map(toEntry);
    return {
      slot: Number(row.slot),
      epoch: Number(row.epoch),
      proposer: row.proposer,
      proposerStatus: row.proposer_status,
      ...(row.digest === null ? {} : { digest: row.digest }),
      attestations: Number(row.attestations),
      committeeSize: Number(row.committee_size),
      entries,
    };
  }

  /** First and last processed slot, or undefined before any. */
  async bounds(): Promise<{ initialSlot: number; lastProcessedSlot: number } | undefined> {
    const row = await this.db('validator_slots').min('slot as lo').max('slot as hi').first();
    if (row?.lo === null || row?.lo === undefined) return undefined;
    return { initialSlot: Number(row.lo), lastProcessedSlot: Number(row.hi) };
  }

  /** Number of processed slots in [from, to]. */
  async processedSlots(from: number, to: number): Promise<number> {
    const row = await this.db('validator_slots').whereBetween('slot', [from, to]).count('* as n').first();
    return Number(row?.n ?? 0);
  }

  /** Entries in [from, to], in slot order; of one validator when given. */
  async entries(from: number, to: number, validator?: string): Promise<SlotEntry[]> {
    const q = this.db('validator_slot_entries').whereBetween('slot', [from, to]);
    if (validator !== undefined) q.where({ validator: validator.toLowerCase() });
    return (await q.orderBy('slot')).map(toEntry);
  }

  /** Slot records of [from, to] without their entries. */
  async slots(from: number, to: number): Promise<Omit<SlotRecord, 'entries'>[]> {
    const rows = await this.db('validator_slots').whereBetween('slot', [from, to]).orderBy('slot');
    return rows.map((row: Record<string, unknown>) => ({
      slot: Number(row.slot),
      epoch: Number(row.epoch),
      proposer: String(row.proposer),
      proposerStatus: row.proposer_status as ValidatorStatus,
      attestations: Number(row.attestations),
      committeeSize: Number(row.committee_size),
    }));
  }

  /** True when the validator has any entry at all. */
  async knows(validator: string): Promise<boolean> {
    return (
      (await this.db('validator_slot_entries').where({ validator: validator.toLowerCase() }).first()) !== undefined
    );
  }

  /** Stores proven performance rows (replacing those of the same validator and epoch). */
  async saveProvenPerformance(rows: readonly ProvenPerformance[], keepEpochs: number): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (const r of rows) {
        await tx('validator_proven_performance').insert(r).onConflict(['validator', 'epoch']).merge();
      }
      const newest = Math.max(...rows.map((r) => r.epoch));
      await tx('validator_proven_performance')
        .where('epoch', '<=', newest - keepEpochs)
        .delete();
    });
  }

  /** A validator's proven performance, oldest epoch first. */
  async provenPerformance(validator: string): Promise<ProvenPerformance[]> {
    const rows = await this.db('validator_proven_performance')
      .where({ validator: validator.toLowerCase() })
      .orderBy('epoch');
    return rows.map((r: Record<string, unknown>) => ({
      validator: String(r.validator),
      epoch: Number(r.epoch),
      missed: Number(r.missed),
      total: Number(r.total),
    }));
  }

  /** Forgets slots after `slot` (a rollback re-lives them). */
  async deleteAfter(slot: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx('validator_slot_entries').where('slot', '>', slot).delete();
      await tx('validator_slots').where('slot', '>', slot).delete();
    });
  }
}

function toEntry(r: Record<string, unknown>): SlotEntry {
  return {
    slot: Number(r.slot),
    validator: String(r.validator),
    status: r.status as ValidatorStatus,
    ...(r.signature === null || r.signature === undefined ? {} : { signature: String(r.signature) }),
  };
}
