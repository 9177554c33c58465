/**
 * The chain's write side: the block store plus the world state derived from it. A block is
 * built against the in-memory world state and then written in one database transaction; the
 * database is the source of truth. Recovery rule: on open, and whenever a write fails, world
 * state is rebuilt by replaying the stored blocks, and each replayed archive root must equal the
 * stored one — so a crash at any point leaves block store and world state consistent.
 * @module
 */
import { genesisBlockHeader } from './block-header.ts';
import { hex32 } from './codec.ts';
import { nextExcessMana } from './fee-model.ts';
import type { ChainStore } from './chain-store.ts';
import type { ChainWorldState } from './world-state-port.ts';
import type { BlockHeader, Checkpoint, L2Block, Snapshot } from './types.ts';

/** A block together with anything the builder wants to report. */
export interface BuildResult {
  readonly block: L2Block;
  readonly manaUsed: bigint;
}

/** Chain storage and world state kept in step. */
export class ChainState {
  readonly store: ChainStore;
  readonly #newWorldState: () => ChainWorldState;
  readonly #manaTargetPerBlock: bigint;
  /** The genesis header and the archive after it (block 0). */
  readonly genesis: { readonly header: BlockHeader; readonly archive: Snapshot };
  #ws: ChainWorldState;
  #excessMana = 0n;
  #latest = 0;

  constructor(store: ChainStore, newWorldState: () => ChainWorldState, manaTargetPerBlock: bigint) {
    this.store = store;
    this.#newWorldState = newWorldState;
    this.#manaTargetPerBlock = manaTargetPerBlock;
    this.#ws = newWorldState();
    this.genesis = { header: genesisBlockHeader(this.#ws.stateReference()), archive: this.#ws.archive() };
  }

  /** The world state at the latest block. */
  get worldState(): ChainWorldState {
    return this.#ws;
  }

  /** Mana used above target so far (drives the congestion part of min fees). */
  get excessMana(): bigint {
    return this.#excessMana;
  }

  /** Rebuilds world state and fee state from the stored blocks. */
  async replay(): Promise<void> {
    const ws = this.#newWorldState();
    let excess = 0n;
    const latest = await this.store.latestBlockNumber();
    for (let n = 1; n <= latest; n++) {
      const b = (await this.store.findBlock(n))!;
      ws.applyBlock({
        txs: b.body.txEffects.map((e) => ({ noteHashes: e.noteHashes, nullifiers: e.nullifiers, publicDataWrites: e.publicDataWrites })),
        l1ToL2Messages: b.indexWithinCheckpoint === 0 ? await this.l1ToL2MessagesOfBlock(n) : undefined,
      });
      const archive = ws.appendArchive(b.hash);
      if (archive.root !== b.archive.root) throw new Error(`replay of block ${n} gives archive ${hex32(archive.root)}, stored ${hex32(b.archive.root)}`);
      excess = nextExcessMana(excess, b.header.totalManaUsed, this.#manaTargetPerBlock);
    }
    this.#ws = ws;
    this.#excessMana = excess;
    this.#latest = latest;
  }

  /**
   * Builds a block on the current world state and stores it; rebuilds world state on failure.
   * `l1ToL2Messages` are the messages the build inserts (first block of a checkpoint only).
   */
  async addBlock<T extends BuildResult>(l1ToL2Messages: readonly bigint[], build: (ws: ChainWorldState) => T): Promise<T> {
    const msgStart = this.#ws.stateReference().l1ToL2MessageTree.nextAvailableLeafIndex;
    let result: T;
    try {
      result = build(this.#ws);
      const b = result.block;
      const messages = l1ToL2Messages.map((message, i) => ({ message, leafIndex: msgStart + i }));
      await this.store.saveBlock({ block: b, l1ToL2Messages: messages });
    } catch (err) {
      await this.replay();
      throw err;
    }
    this.#excessMana = nextExcessMana(this.#excessMana, result.manaUsed, this.#manaTargetPerBlock);
    this.#latest = result.block.header.globalVariables.blockNumber;
    return result;
  }

  /** The latest block number (0 = genesis only). */
  async latestBlockNumber(): Promise<number> {
    return this.#latest;
  }

  /** The latest sealed checkpoint. */
  async latestCheckpoint(): Promise<Checkpoint | undefined> {
    return this.store.latestCheckpoint();
  }

  /** Blocks built after the latest sealed checkpoint (the open checkpoint of the current slot). */
  async openCheckpointBlocks(): Promise<L2Block[]> {
    const cp = await this.store.latestCheckpoint();
    const from = cp === undefined ? 1 : cp.startBlock + cp.blockCount;
    return from > this.#latest ? [] : this.store.blocksFrom(from, this.#latest - from + 1);
  }

  /** How many inbox messages blocks have consumed so far. */
  async consumedInboxCount(): Promise<number> {
    const row = await this.store.db('chain_l1_to_l2_messages').count('* as n').first();
    return Number(row?.n ?? 0);
  }

  /** The (unpadded) L1→L2 messages inserted by block `n`, in leaf order. */
  async l1ToL2MessagesOfBlock(n: number): Promise<bigint[]> {
    const rows = await this.store.db('chain_l1_to_l2_messages').where({ block_number: n }).orderBy('leaf_index').select('message');
    return rows.map((r: { message: string }) => BigInt(r.message));
  }
}
