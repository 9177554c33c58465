/**
 * The slasher's tables: offenses, the payloads built per round, and this node's votes.
 * @module
 */
import type { Knex } from 'knex';
import type { OffenseType, SlashPayloadRound } from '../../generated/admin/types.ts';
import { AdminTableStore } from '../node-config/admin-schema.ts';
import type { RecordedOffense } from './offenses.ts';

/** A stored payload without its vote count. */
export type StoredPayload = Omit<SlashPayloadRound, 'votes'>;

/** Reads and writes the slashing tables. */
export class SlashingStore extends AdminTableStore {
  /** Records an offense once (the same validator, kind and epoch/slot is one offense). */
  async addOffense(o: RecordedOffense): Promise<void> {
    await this.db('slash_offenses')
      .insert({
        validator: o.validator,
        offense_type: o.offenseType,
        epoch_or_slot: o.epochOrSlot,
        amount: o.amount,
        round: o.round,
      })
      .onConflict(['validator', 'offense_type', 'epoch_or_slot'])
      .ignore();
  }

  /** Offenses recorded in rounds [fromRound, toRound], in recording order. */
  async offenses(fromRound: number, toRound: number): Promise<RecordedOffense[]> {
    const rows = await this.db('slash_offenses')
      .whereBetween('round', [fromRound, toRound])
      .orderBy(['round', 'offense_type', 'validator', 'epoch_or_slot']);
    return rows.map((r: Record<string, unknown>) => ({
      validator: String(r.validator),
      amount: String(r.amount),
      offenseType: Number(r.offense_type) as OffenseType,
      epochOrSlot: String(r.epoch_or_slot),
      round: Number(r.round),
    }));
  }

  /** Stores the payloads of a round (once; later calls keep the first). */
  async savePayloads(round: number, payloads: readonly StoredPayload[]): Promise<void> {
    if (payloads.length === 0) return;
    await this.db('slash_payloads')
      .insert(
        payloads.map((p) => ({
          address: p.address,
          round,
          timestamp: p.timestamp,
          slashes_json: JSON.stringify(p.slashes),
        })),
      )
      .onConflict('address')
      .ignore();
  }

  /** The payloads of a round with their votes. */
  async payloads(round: number): Promise<SlashPayloadRound[]> {
    const rows = await this.db('slash_payloads').where({ round }).orderBy('address');
    const votes = await this.db('slash_votes').where({ round }).groupBy('payload').select('payload').count('* as n');
    const byPayload = new Map(votes.map((v: Record<string, unknown>) => [String(v.payload), Number(v.n)]));
    return rows.map((r: Record<string, unknown>) => ({
      address: String(r.address),
      timestamp: String(r.timestamp),
      votes: String(byPayload.get(String(r.address)) ?? 0),
      round: String(round),
      slashes: JSON.parse(String(r.slashes_json)),
    }));
  }

  /** True when payloads for the round were built. */
  async hasPayloads(round: number): Promise<boolean> {
    return (await this.db('slash_payloads').where({ round }).first()) !== undefined;
  }

  /** Records this node's vote in a slot (one per slot). */
  async vote(slot: number, round: number, payload: string): Promise<void> {
    await this.db('slash_votes').insert({ slot, round, payload }).onConflict('slot').ignore();
  }
}
