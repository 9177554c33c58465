/**
 * The chain's write side: one block = one database transaction covering the world-state trees
 * (src/impl/world-state) and the chain tables (block, tx index, logs, L1→L2 message placement,
 * fee state). The database is the truth for both; nothing is replayed on open — a
 * crash before commit leaves the previous block everywhere, and a restart continues from it.
 * Unwinding is the same: trees, chain tables and (through `onUnwind`) the dev L1's checkpoints
 * go back together in one transaction. The tx status owner (txpool/tx-status.ts) changes the
 * status of the block's txs inside the same transaction, so a tx is never mined and pending at once.
 * @module
 */
import type { Knex } from 'knex';
import { hex32 } from '../encoding/hex.ts';
import { nextExcessMana } from '../fees/fee-model.ts';
import type { CommitFollowUp, TxStatusOwner } from '../txpool/tx-status.ts';
import { hashBlockHeader } from '../world-state/block-header.ts';
import { TreeId } from '../world-state/constants.ts';
import { EventLoopBudget } from '../world-state/event-loop-budget.ts';
import type { WorldStateBlock } from '../world-state/types.ts';
import type { WorldState } from '../world-state/world-state.ts';
import { BurstMemoryRelief } from './burst-memory.ts';
import type { ChainStore } from './chain-store.ts';
import { LatestStateCache } from './latest-state-cache.ts';
import type { BlockHeader, Checkpoint, GlobalVariables, L2Block, Snapshot, TxEffect } from './types.ts';

/** Open (unsealed) blocks read one by one through the block cache; more than this, as one range. */
const OPEN_BLOCKS_FROM_CACHE = 16;

/** A block as the sequencer proposes it: everything but what the trees compute. */
export interface ProposedBlock {
  readonly globals: GlobalVariables;
  readonly txEffects: readonly TxEffect[];
  /** Messages inserted by this block: set only on the first block of a checkpoint (padded to 1024). */
  readonly l1ToL2Messages: readonly bigint[] | undefined;
  readonly spongeBlobHash: bigint;
  readonly totalFees: bigint;
  readonly manaUsed: bigint;
  readonly checkpointNumber: number;
  readonly indexWithinCheckpoint: number;
  /** Txs refused for good while building, recorded (by the tx status owner) in the same transaction. */
  readonly dropped: readonly { readonly txHash: bigint; readonly reason: string }[];
}

/** One block to apply and store: built by the sequencer, or imported from another node (block-import.ts). */
export interface BlockApplication {
  readonly blockNumber: number;
  readonly txEffects: readonly TxEffect[];
  /** Set only on the first block of a checkpoint (padded to 1024). */
  readonly l1ToL2Messages: readonly bigint[] | undefined;
  /** A function builds the header from the computed state; a given header is checked against it. */
  readonly header: WorldStateBlock['header'];
  readonly manaUsed: bigint;
  readonly checkpointNumber: number;
  readonly indexWithinCheckpoint: number;
  readonly dropped: readonly { readonly txHash: bigint; readonly reason: string }[];
  /** Checks the sealed block inside the transaction; throwing rolls the block back. */
  readonly verify?: (block: L2Block) => void;
}

/** Extra work inside an unwind's transaction, given the latest checkpoint that remains. */
export type UnwindHook = (trx: Knex.Transaction, lastCheckpoint: number) => Promise<void>;

/** Chain tables and world state kept in step. */
export class ChainState {
  readonly store: ChainStore;
  /** The persistent world state (the trees, with history). */
  readonly worldState: WorldState;
  /** Synchronous latest-state reads (nullifiers, public data) for block selection and the pool. */
  readonly latestState: LatestStateCache;
  /** The genesis header and the archive after it (block 0). */
  readonly genesis: { readonly header: BlockHeader; readonly archive: Snapshot };
  readonly #manaTargetPerBlock: bigint;
  #excessMana: bigint;
  #latest: number;
  #tipVersion = 0;
  readonly #genesisHash: bigint;
  /** Gives memory back while blocks are applied back to back (catch-up, import, manual clock). */
  readonly burstMemory = new BurstMemoryRelief();

  private constructor(
    store: ChainStore,
    trees: WorldState,
    cache: LatestStateCache,
    genesis: ChainState['genesis'],
    manaTarget: bigint,
    latest: number,
    excess: bigint,
  ) {
    this.store = store;
    this.worldState = trees;
    this.latestState = cache;
    this.genesis = genesis;
    this.#manaTargetPerBlock = manaTarget;
    this.#latest = latest;
    this.#excessMana = excess;
    this.#genesisHash = hashBlockHeader(genesis.header);
  }

  /** Opens on a database whose world state is open; refuses chain tables out of step with the trees. */
  static async open(store: ChainStore, trees: WorldState, manaTargetPerBlock: bigint): Promise<ChainState> {
    const genesis = {
      header: (await trees.getBlockHeader(0))!,
      archive: await trees.getTreeSnapshot(TreeId.ARCHIVE, 0),
    };
    const latest = await store.latestBlockNumber();
    const wsLatest = await trees.getLatestBlockNumber();
    if (latest !== wsLatest)
      throw new Error(
        `chain tables end at block ${latest} but the world state at ${wsLatest}: the database was not written by one transaction per block`,
      );
    if (latest > 0) {
      const stored = (await store.findBlock(latest))!.hash;
      const applied = (await trees.getBlockHash(latest))!;
      if (stored !== applied)
        throw new Error(
          `block ${latest}: chain hash ${hex32(stored)} differs from the world state's ${hex32(applied)}`,
        );
    }
    const cache = await LatestStateCache.load(trees);
    return new ChainState(
      store,
      trees,
      cache,
      genesis,
      manaTargetPerBlock,
      latest,
      await store.excessManaAfter(latest),
    );
  }

  /**
   * Moves whenever the chain's tip may change: odd from the start of a block application or unwind
   * until its transaction has settled and the in-memory views follow (a read in between may see
   * rows that are not committed yet), even otherwise; a reader's catch-up with its writer moves it
   * by two. An answer read while this stayed one even value is the chain's at that tip
   * (rpc/public/answer-cache.ts stores nothing else).
   */
  get tipVersion(): number {
    return this.#tipVersion;
  }

  /** Mana used above target so far (drives the congestion part of min fees). */
  get excessMana(): bigint {
    return this.#excessMana;
  }

  /**
   * Applies a proposed block to the trees and stores it, in one transaction; returns the sealed block.
   * `txStatus`: the owner of tx status (the mempool), handed the block's txs inside that transaction.
   */
  async addBlock(p: ProposedBlock, txStatus: TxStatusOwner | undefined): Promise<L2Block> {
    return this.applyBlock(txStatus, {
      blockNumber: p.globals.blockNumber,
      txEffects: p.txEffects,
      l1ToL2Messages: p.l1ToL2Messages,
      manaUsed: p.manaUsed,
      checkpointNumber: p.checkpointNumber,
      indexWithinCheckpoint: p.indexWithinCheckpoint,
      dropped: p.dropped,
      header: (ctx) => ({
        lastArchive: ctx.lastArchive,
        state: ctx.state,
        spongeBlobHash: p.spongeBlobHash,
        globalVariables: p.globals,
        totalFees: p.totalFees,
        totalManaUsed: p.manaUsed,
      }),
    });
  }

  /**
   * The one block-application path (the sequencer's addBlock and block-import.ts both come here):
   * trees, then chain tables, in one transaction; `verify` runs inside it before the chain rows
   * are written, and throwing there rolls the whole block back. `owner`: the owner of tx status
   * (the mempool), handed the block's txs inside its transaction.
   */
  async applyBlock(owner: TxStatusOwner | undefined, a: BlockApplication): Promise<L2Block> {
    return owner === undefined
      ? this.#applyBlock(a, undefined)
      : owner.serializeCommit(() => this.#applyBlock(a, owner));
  }

  async #applyBlock(a: BlockApplication, owner: TxStatusOwner | undefined): Promise<L2Block> {
    const excessMana = nextExcessMana(this.#excessMana, a.manaUsed, this.#manaTargetPerBlock);
    let sealed: L2Block | undefined;
    this.#tipVersion++;
    let followUp: CommitFollowUp | undefined;
    await this.worldState
      .applyBlock(
        { blockNumber: a.blockNumber, txEffects: a.txEffects, l1ToL2Messages: a.l1ToL2Messages, header: a.header },
        async (trx, applied) => {
          const block: L2Block = {
            archive: applied.archive,
            header: applied.header,
            body: { txEffects: a.txEffects },
            checkpointNumber: a.checkpointNumber,
            indexWithinCheckpoint: a.indexWithinCheckpoint,
            hash: applied.blockHash,
          };
          a.verify?.(block);
          // The messages took the last 1024 leaves of the message tree.
          const msgStart =
            applied.header.state.l1ToL2MessageTree.nextAvailableLeafIndex - (a.l1ToL2Messages === undefined ? 0 : 1024);
          const l1ToL2Messages = (a.l1ToL2Messages ?? []).map((message, i) => ({ message, leafIndex: msgStart + i }));
          // Inside the block's transaction the queries resolve without the event loop turning: turn
          // between the tables and before the pool's part when they have held it for a slice.
          const budget = new EventLoopBudget();
          await this.store.saveBlock(trx, { block, l1ToL2Messages, excessMana, budget });
          await budget.turn();
          followUp = await owner?.inBlockCommit(trx, block, a.dropped);
          sealed = block;
        },
      )
      .catch((err: unknown) => {
        this.#tipVersion++;
        throw err;
      });
    // Only after the commit: the in-memory views follow the database, never lead it (no await before).
    followUp?.();
    this.latestState.applyCommitted(a.txEffects);
    this.#excessMana = excessMana;
    this.#latest = a.blockNumber;
    this.#tipVersion++;
    this.burstMemory.blockApplied();
    return sealed!;
  }

  /**
   * Unwinds trees and chain tables to `target` in one transaction, with the unwound txs' status
   * (re-admitted to the pool or dropped by `owner`, the owner of tx status; `force` drops every pending tx
   * too); returns the removed blocks.
   */
  async unwindTo(
    target: number,
    owner: TxStatusOwner | undefined,
    onUnwind?: UnwindHook,
    opts: { readonly force?: boolean } = {},
  ): Promise<L2Block[]> {
    const run = async () => {
      let removed: L2Block[] = [];
      let followUp: CommitFollowUp | undefined;
      this.#tipVersion++;
      try {
        await this.worldState.unwindTo(target, async (trx) => {
          removed = await this.store.deleteAfter(trx, target);
          if (onUnwind) await onUnwind(trx, await this.store.latestCheckpointNumber(trx));
          followUp = await owner?.inUnwind(trx, removed, { target, force: opts.force === true });
        });
        followUp?.();
        this.#latest = target;
        await this.latestState.reload(this.worldState);
        this.#excessMana = await this.store.excessManaAfter(target);
      } finally {
        this.#tipVersion++;
      }
      return removed;
    };
    const removed = owner === undefined ? await run() : await owner.serializeCommit(run);
    // Every pending tx against the unwound chain at once (balances need the reloaded cache).
    await owner?.afterUnwind?.();
    return removed;
  }

  /**
   * A read-only process beside another process's writer (`--role rpc`): moves the in-memory views
   * (latest block, excess mana, the latest-state cache) to what the writer has committed since.
   * Blocks on top of the known tip are applied to the cache from their stored effects; a changed
   * tip (the writer unwound) reloads the cache. Returns true when the tip moved.
   */
  async catchUpWithStore(): Promise<boolean> {
    const latest = await this.store.latestBlockNumber();
    // The first call (hash unknown) reloads once; later calls extend the cache block by block.
    // Read uncached: the writer may have unwound and rebuilt this height since the block was cached here.
    const stillThere =
      this.#latest === 0 ||
      (this.#catchUpTipHash !== undefined && (await this.store.storedBlockHash(this.#latest)) === this.#catchUpTipHash);
    if (latest === this.#latest && stillThere) return false;
    if (latest > this.#latest && stillThere) {
      for (let from = this.#latest + 1; from <= latest; from += 100) {
        const blocks = await this.store.blocksFrom(from, Math.min(100, latest - from + 1));
        this.latestState.applyCommitted(blocks.flatMap((b) => b.body.txEffects));
      }
    } else {
      // The writer unwound (or this is the first look): cached blocks and answers may be gone.
      this.store.forgetUnwoundBlocks();
      await this.latestState.reload(this.worldState);
    }
    this.#excessMana = await this.store.excessManaAfter(latest);
    this.#latest = latest;
    this.#catchUpTipHash = latest === 0 ? undefined : (await this.store.findBlock(latest))?.hash;
    this.#tipVersion += 2; // stays even: nothing of this process is in flight
    return true;
  }

  /** The hash of the tip `catchUpWithStore` last moved to (undefined at genesis or before the first call). */
  #catchUpTipHash: bigint | undefined;

  /** True when `blockHash` is the header hash of a block of this chain, genesis included (a tx anchor the next block may build on). */
  async isBlockHashInChain(blockHash: bigint): Promise<boolean> {
    if (blockHash === this.#genesisHash) return true;
    const n = await this.store.findBlockNumberBy('hash', blockHash);
    return n !== undefined && n <= this.#latest;
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
    if (from > this.#latest) return [];
    // The sequencer asks on every tick (500 ms): the current slot's few blocks come from the
    // decoded-block cache rather than being decoded from JSON again each time (issue #21).
    if (this.#latest - from < OPEN_BLOCKS_FROM_CACHE) {
      const blocks: L2Block[] = [];
      for (let n = from; n <= this.#latest; n++) {
        const b = await this.store.findBlock(n);
        if (b !== undefined) blocks.push(b);
      }
      return blocks;
    }
    return this.store.blocksFrom(from, this.#latest - from + 1);
  }

  /** How many inbox messages blocks have consumed so far. */
  async consumedInboxCount(): Promise<number> {
    const row = await this.store.db('chain_l1_to_l2_messages').count('* as n').first();
    return Number(row?.n ?? 0);
  }

  /** The (unpadded) L1→L2 messages inserted by block `n`, in leaf order. */
  async l1ToL2MessagesOfBlock(n: number): Promise<bigint[]> {
    const rows = await this.store
      .db('chain_l1_to_l2_messages')
      .where({ block_number: n })
      .orderBy('leaf_index')
      .select('message');
    return rows.map((r: { message: string }) => BigInt(r.message));
  }
}
