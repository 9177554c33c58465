/**
 * The in-process dev L1: blocks every `l1BlockSeconds` on the chain clock, an inbox and the
 * posted checkpoints persisted in the node's database, a simulated prover that proves epoch e
 * `proofDelaySeconds` after it ends, and finality `finalityDepth` L1 blocks behind the head.
 * Proofs and finality are derived from time and the posted checkpoints, so a restart sees the
 * same L1.
 * @module
 */
import type { Knex } from 'knex';
import { fieldToBytes } from '../crypto/field.ts';
import { sha256ToField } from '../crypto/sha256-to-field.ts';
import { secondsOf, type ChainTime, type Clock } from '../chain/time.ts';
import { devL1ContractAddresses } from './dev-addresses.ts';
import type { InboxMessage, L1BlockRef, L1Chain, L1ContractAddresses, PostedCheckpoint } from './l1-chain.ts';
import { hex32 } from '../encoding/hex.ts';

/** Settings of the in-process L1. */
export interface InProcessL1Config {
  readonly chainId: number;
  /** Initial ETH per fee asset, 1e12 precision (SPEC §8). */
  readonly initialEthPerFeeAsset: bigint;
  readonly l1GasPriceWei: bigint;
  readonly l1BlobGasPriceWei: bigint;
  /** Seconds after an epoch ends until its proof lands. */
  readonly proofDelaySeconds: number;
  /** L1 blocks behind the head that count as final. */
  readonly finalityDepth: number;
}

/** An L1 living inside the node process. */
export class InProcessL1 implements L1Chain {
  readonly chainId: number;
  readonly addresses: L1ContractAddresses = devL1ContractAddresses();
  readonly #db: Knex;
  readonly #clock: Clock;
  readonly #time: ChainTime;
  readonly #cfg: InProcessL1Config;

  constructor(db: Knex, clock: Clock, time: ChainTime, cfg: InProcessL1Config) {
    this.#db = db;
    this.#clock = clock;
    this.#time = time;
    this.#cfg = cfg;
    this.chainId = cfg.chainId;
  }

  currentBlock(): L1BlockRef {
    return this.#blockRef(this.#time.l1BlockAt(secondsOf(this.#clock)));
  }

  async sendL1ToL2Message(message: bigint): Promise<InboxMessage> {
    return this.sendL1ToL2MessageWith(() => message);
  }

  async sendL1ToL2MessageWith(leaf: (index: number) => bigint): Promise<InboxMessage> {
    const l1BlockNumber = this.currentBlock().number;
    // The id is assigned here, not by the column default: a Postgres sequence skips a value on
    // every failed insert (e.g. a duplicate message), and inbox indexes must have no gaps.
    return this.#db.transaction(async (trx) => {
      const row = await trx('l1_inbox').max('id as n').first();
      const next = Number(row?.n ?? 0) + 1;
      const message = leaf(next - 1);
      await trx('l1_inbox').insert({ id: next, message: hex32(message), l1_block_number: l1BlockNumber.toString() });
      return { index: next - 1, message, l1BlockNumber };
    });
  }

  async inboxMessageCount(): Promise<number> {
    const row = await this.#db('l1_inbox').count('* as n').first();
    return Number(row?.n ?? 0);
  }

  async inboxMessages(fromIndex: number, limit: number): Promise<InboxMessage[]> {
    const head = this.currentBlock().number;
    const rows = await this.#db('l1_inbox').where('id', '>', fromIndex).orderBy('id').limit(limit);
    return rows
      .filter((r: { l1_block_number: string }) => BigInt(r.l1_block_number) <= head)
      .map((r: { id: number; message: string; l1_block_number: string }) => ({
        index: Number(r.id) - 1,
        message: BigInt(r.message),
        l1BlockNumber: BigInt(r.l1_block_number),
      }));
  }

  async postCheckpoint(c: PostedCheckpoint): Promise<L1BlockRef> {
    // Idempotent: after a crash between posting and recording, the sequencer posts again.
    const existing = await this.#db('l1_checkpoints').where({ number: c.number }).first('l1_block_number');
    if (existing !== undefined) return this.#blockRef(BigInt(existing.l1_block_number));
    const ref = this.currentBlock();
    await this.#db('l1_checkpoints').insert({
      number: c.number,
      hash: hex32(c.hash),
      slot: c.slot,
      epoch: c.epoch,
      l1_block_number: ref.number.toString(),
      out_hash: hex32(c.outHash),
    });
    return ref;
  }

  async discardCheckpointsAfter(trx: Knex.Transaction, checkpointNumber: number): Promise<void> {
    await trx('l1_checkpoints').where('number', '>', checkpointNumber).delete();
  }

  async provenCheckpointNumber(l1Block?: bigint): Promise<number> {
    const at = l1Block === undefined ? secondsOf(this.#clock) : this.#time.l1BlockTimestamp(l1Block);
    const epoch = this.#lastProvenEpoch(at);
    if (epoch < 0) return 0;
    const row = await this.#db('l1_checkpoints').where('epoch', '<=', epoch).max('number as n').first();
    return Number(row?.n ?? 0);
  }

  finalizedBlockNumber(): bigint {
    const head = this.currentBlock().number;
    const f = head - BigInt(this.#cfg.finalityDepth);
    return f > 0n ? f : 0n;
  }

  feeInputs() {
    return {
      l1GasPriceWei: this.#cfg.l1GasPriceWei,
      l1BlobGasPriceWei: this.#cfg.l1BlobGasPriceWei,
      ethPerFeeAsset: this.#cfg.initialEthPerFeeAsset,
    };
  }

  async outHashesOfEpoch(epoch: number): Promise<bigint[]> {
    const rows = await this.#db('l1_checkpoints').where({ epoch }).orderBy('number').select('out_hash');
    return rows.map((r: { out_hash: string }) => BigInt(r.out_hash));
  }

  /** The last epoch whose proof has landed by `unixSeconds` (-1 for none). */
  #lastProvenEpoch(unixSeconds: bigint): number {
    const t = this.#time.config;
    const epochSeconds = BigInt(t.slotsPerEpoch * t.slotDurationSeconds);
    const since = unixSeconds - t.genesisTime - BigInt(this.#cfg.proofDelaySeconds);
    if (since < epochSeconds) return -1;
    return Number(since / epochSeconds) - 1;
  }

  /** L1 block hashes are sha256ToField(chainId ‖ number): deterministic, distinct per block. */
  #blockRef(number: bigint): L1BlockRef {
    const buf = new Uint8Array(64);
    fieldToBytes(BigInt(this.chainId), buf, 0);
    fieldToBytes(number, buf, 32);
    return { number, timestamp: this.#time.l1BlockTimestamp(number), hash: sha256ToField(buf) };
  }
}
