/**
 * The follower: a node without a sequencer that takes the chain from a `BlockSource`, re-applies
 * every block's tx effects to its own world state (block-import.ts) and stores it only when all
 * state roots, the block hash and the archive agree; checkpoints are imported over verified
 * blocks, and proven/finalized tips follow the source's, capped at what was verified here.
 *
 * Each batch is one `SyncSwitch.step`, so admin pause/resume and rollback (which pauses first)
 * never interleave with an import, and a pause takes effect after at most one batch. The
 * database is the truth: every step starts from our own latest block, so a restart or a
 * rollback to n simply continues from n + 1. A block or checkpoint that does not verify stops
 * syncing at the last good block (`stopped-on-mismatch`) until the next resume or restart;
 * a source that is down is only logged and retried. With `unwindTo`, a reorg of the source (its
 * chain no longer holds our tip) is followed: we unwind to the last shared block, above our
 * finalized one, through the engine's rollback (so the pool re-admits or drops the unwound txs).
 * @module
 */
import type { EngineLogger } from '../engine-logger.ts';
import { hex32 } from '../encoding/hex.ts';
import type { L2Block, L2Tips } from '../chain/types.ts';
import { SyncSwitch } from '../node-config/sync-control.ts';
import { WireDecodeError } from '../encoding/wire/blocks-decode.ts';
import type { BlockSource } from './block-source.ts';
import { FollowedTips } from './followed-tips.ts';
import { Progress } from '../progress.ts';
import { BlockImportError } from '../chain/block-import.ts';
import type { Engine } from '../engine.ts';

/** A follower this many blocks or more behind its source logs progress lines while it catches up. */
export const PROGRESS_MIN_BEHIND = 8;
/** Default of `progressIntervalMs`. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 10_000;

/** How `catchUp` ended: at the source's tip, still behind at the deadline, source unreachable, or stopped on a mismatch. */
export type CatchUpResult = 'caught-up' | 'behind' | 'unreachable' | 'mismatch';

/** Sync state for node_getWorldStateSyncStatus and GET /status. */
export type FollowerState = 'syncing' | 'paused' | 'stopped-on-mismatch' | 'caught-up';

/** What `status()` reports. */
export interface FollowerStatus {
  readonly state: FollowerState;
  /** Our latest verified block (as of the last step). */
  readonly lastGoodBlock: number;
  /** The source's proposed tip as last seen. */
  readonly sourceTip?: number;
  /** Why syncing stopped (set with `stopped-on-mismatch`). */
  readonly error?: string;
  /** Blocks between our tip and the source's (as last seen). */
  readonly behindBlocks?: number;
  /** Seconds since this node was last at the source's tip (0 while there; counted from start before it first got there). */
  readonly lagSeconds: number;
  /** While catching up from PROGRESS_MIN_BEHIND or more blocks behind: the numbers of the progress lines. */
  readonly progress?: {
    readonly done: number;
    readonly target: number;
    readonly blocksPerSecond: number;
    readonly etaSeconds: number | null;
  };
}

/** Told of each verified import (the node's metrics). */
export interface FollowerObserver {
  blockImported(block: L2Block, seconds: number): void;
}

/** The engine parts the follower reads, and its verified import (an `Engine` fits). */
export type FollowerEngine = Pick<
  Engine,
  'chain' | 'checkpoints' | 'chainMeta' | 'l1' | 'time' | 'worldState' | 'importBlock' | 'importCheckpoint'
>;

/** Follower settings. */
export interface FollowerOptions {
  readonly engine: FollowerEngine;
  readonly source: BlockSource;
  /** The node's sync switch (admin pause/resume); its interval is the poll interval (archiverPollingIntervalMS). */
  readonly sync?: SyncSwitch;
  /** Blocks per request (default: the source's maximum). */
  readonly batchSize?: number;
  /**
   * The L1→L2 messages inserted by the first block of a checkpoint. Default: our own L1 view's
   * inbox (the proposer's too when both read one L1); the message tree root decides.
   */
  readonly l1ToL2Messages?: (blockNumber: number) => Promise<readonly bigint[]>;
  readonly logger?: Pick<EngineLogger, 'info' | 'warn' | 'error'>;
  /** Called after each batch with the blocks it imported (the node marks their txs mined in its pool). */
  readonly onImported?: (blocks: readonly L2Block[]) => Promise<void>;
  /**
   * Keep the node's own proven/finalized tips (a sequencer importing other proposers' blocks from
   * peers proves its own checkpoints); by default they become the source's, capped.
   */
  readonly ownProofTips?: boolean;
  /** Milliseconds between progress lines while catching up (default DEFAULT_PROGRESS_INTERVAL_MS). */
  readonly progressIntervalMs?: number;
  readonly observer?: FollowerObserver;
  /**
   * Unwinds this node to block `target` (the engine's rollback, with the tx status owner: txs of
   * unwound blocks back to the pool or dropped). Given, a reorg of the source above our finalized
   * block is followed: we unwind to the last block we share with the source and import its
   * chain from there. Without it, a reorg stops syncing like any block that does not verify.
   */
  readonly unwindTo?: (target: number) => Promise<unknown>;
}

/** Follows and verifies a chain. */
export class Follower {
  readonly sync: SyncSwitch;
  readonly #o: FollowerOptions;
  readonly #tips: FollowedTips;
  #latest = 0;
  #sourceTip: number | undefined;
  #caughtUp = false;
  #error: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #wake = false;
  #loop: Promise<void> = Promise.resolve();
  #progress: Progress | undefined;
  /** When this node was last seen at the source's tip (start time until then). */
  #atTipMs = Date.now();

  constructor(options: FollowerOptions) {
    this.#o = options;
    this.sync = options.sync ?? new SyncSwitch(1000);
    this.#tips = new FollowedTips(options.engine.chainMeta);
    // A resume (also the one after a rollback) is the operator's "try again" after a mismatch.
    this.sync.onChange((state) => {
      if (state === 'syncing') this.#error = undefined;
    });
    // From now on this node's proven/finalized tips are the followed node's, as far as verified here.
    if (options.ownProofTips !== true)
      options.engine.chain.setProofTips(() => this.#tips.capped(options.engine.checkpoints));
  }

  /** Sync status; see FollowerState. */
  status(): FollowerStatus {
    const state: FollowerState =
      this.#error !== undefined
        ? 'stopped-on-mismatch'
        : this.sync.isPaused()
          ? 'paused'
          : this.#caughtUp
            ? 'caught-up'
            : 'syncing';
    const p = this.#progress?.snapshot();
    return {
      state,
      lastGoodBlock: this.#latest,
      ...(this.#sourceTip !== undefined && {
        sourceTip: this.#sourceTip,
        behindBlocks: Math.max(0, this.#sourceTip - this.#latest),
      }),
      lagSeconds: this.#caughtUp ? 0 : (Date.now() - this.#atTipMs) / 1000,
      ...(p !== undefined && {
        progress: { done: p.done, target: p.target, blocksPerSecond: p.perSecond, etaSeconds: p.etaSeconds ?? null },
      }),
      ...(this.#error !== undefined && { error: this.#error }),
    };
  }

  /** True between `start()` and `stop()`. */
  get running(): boolean {
    return this.#running;
  }

  /** Starts polling (every `sync.intervalMs`). */
  async start(): Promise<void> {
    this.#latest = await this.#o.engine.chain.getBlockNumber();
    this.#running = true;
    this.#schedule(0);
  }

  /** Stops polling and waits for a running step. */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#loop;
  }

  /** Syncs now instead of at the next poll (a block announcement arrived). */
  wake(): void {
    if (!this.#running) return;
    this.#wake = true;
    this.#schedule(0);
  }

  /** Runs steps until caught up, paused, stopped or failed; resolves to the blocks imported. */
  async syncNow(): Promise<number> {
    let total = 0;
    for (;;) {
      let more = false;
      const ran = await this.sync.step(async () => {
        if (this.#error !== undefined) return;
        const r = await this.#step();
        total += r.imported;
        more = r.more;
      });
      if (!ran || !more) return total;
    }
  }

  /**
   * Imports from the source until its tip or `untilMs`, without the sync switch: for a caller
   * already inside a step of the same switch (the sequencer catching up before it builds).
   */
  async catchUp(untilMs: number, nowMs: () => number = Date.now): Promise<CatchUpResult> {
    for (;;) {
      if (this.#error !== undefined) return 'mismatch';
      let r: { imported: number; more: boolean };
      try {
        r = await this.#step();
      } catch (err) {
        this.#o.logger?.warn('follower: source unavailable while catching up', {
          source: this.#o.source.name,
          err: (err as Error).message,
        });
        return 'unreachable';
      }
      if (this.#error !== undefined) return 'mismatch';
      if (!r.more) return this.#caughtUp ? 'caught-up' : 'behind';
      if (nowMs() >= untilMs) return 'behind';
    }
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#loop = this.#loop.then(async () => {
        this.#wake = false;
        try {
          await this.syncNow();
        } catch (err) {
          this.#o.logger?.warn('follower: source unavailable, retrying', {
            source: this.#o.source.name,
            err: (err as Error).message,
          });
        }
        if (this.#running) this.#schedule(this.#wake ? 0 : this.sync.intervalMs);
      });
    }, ms);
    // The node's servers keep the process alive; a follower alone must not.
    this.#timer.unref();
  }

  /** One batch: tips, blocks after ours, then checkpoints over them. */
  async #step(): Promise<{ imported: number; more: boolean }> {
    const { engine, source } = this.#o;
    this.#latest = await engine.chain.getBlockNumber();
    const tips = await source.getTips();
    const batch = Math.min(this.#o.batchSize ?? source.maxBlocksPerRequest, source.maxBlocksPerRequest);
    // Without tips (peers that serve none): ask for a full batch; a short answer means the source's tip was reached.
    const want = tips === undefined ? batch : Math.min(batch, tips.proposed.number - this.#latest);
    if (tips !== undefined) this.#trackProgress(tips.proposed.number);
    let imported = 0;
    let blocks: L2Block[] = [];
    try {
      // The source reorganised: its tip is a block we hold another version of. Unwind to where we agree.
      // (A source merely behind us — a lagging peer — has our hash at its tip: nothing is unwound.)
      if (
        tips !== undefined &&
        this.#o.unwindTo !== undefined &&
        tips.proposed.number > 0 &&
        this.#latest >= tips.proposed.number
      ) {
        if ((await engine.chain.findBlock(tips.proposed.number))!.hash !== tips.proposed.hash) {
          await this.#followReorg(tips.proposed.number - 1);
          return { imported: 0, more: true };
        }
      }
      blocks = want > 0 ? await source.getBlocks(this.#latest + 1, want) : [];
      const first = blocks[0];
      if (
        first !== undefined &&
        this.#o.unwindTo !== undefined &&
        this.#latest > 0 &&
        first.header.lastArchive.root !== (await engine.chain.findBlock(this.#latest))!.archive.root
      ) {
        await this.#followReorg(this.#latest - 1);
        return { imported: 0, more: true };
      }
      try {
        for (const b of blocks) {
          await this.#import(b);
          imported++;
        }
      } finally {
        if (imported > 0) await this.#o.onImported?.(blocks.slice(0, imported));
      }
      if (tips !== undefined) {
        if (
          this.#latest === tips.proposed.number &&
          (await engine.chain.findBlock(this.#latest))!.hash !== tips.proposed.hash
        ) {
          throw new BlockImportError(
            'block',
            this.#latest,
            `our hash differs from the source's proposed tip ${hex32(tips.proposed.hash)}`,
          );
        }
        await this.#importCheckpoints(tips);
      }
    } catch (err) {
      if (!(err instanceof BlockImportError || err instanceof WireDecodeError)) throw err;
      if (err instanceof BlockImportError) source.refused?.(err);
      this.#error = err.message;
      this.#caughtUp = false;
      this.#o.logger?.error('follower: stopped on a block that does not verify', {
        source: source.name,
        lastGoodBlock: this.#latest,
        err: err.message,
      });
      return { imported, more: false };
    }
    if (tips !== undefined) {
      await this.#tips.record(tips);
      engine.worldState.finalizedBlockNumber = (await engine.chain.getL2Tips()).finalized.block.number;
    }
    this.#sourceTip = tips?.proposed.number ?? (blocks.length < want ? this.#latest : undefined);
    this.#caughtUp = tips === undefined ? blocks.length < want : this.#latest >= tips.proposed.number;
    if (this.#caughtUp) {
      this.#atTipMs = Date.now();
      this.#progress?.finish('follower: caught up');
      this.#progress = undefined;
    }
    if (imported > 0) this.#o.logger?.info('follower: imported blocks', { to: this.#latest, source: source.name });
    return { imported, more: imported > 0 && !this.#caughtUp };
  }

  /**
   * Walks down from block `from` to the newest block the source and we both hold (same hash),
   * not below our finalized block, and unwinds to it. A fork below finalized is refused
   * (BlockImportError: syncing stops as on any mismatch).
   */
  async #followReorg(from: number): Promise<void> {
    const { engine, source } = this.#o;
    const finalized = (await engine.chain.getL2Tips()).finalized.block.number;
    let k = Math.max(0, Math.min(from, this.#latest));
    for (; k > finalized; k--) {
      const [theirs] = await source.getBlocks(k, 1);
      if (theirs !== undefined && theirs.hash === (await engine.chain.findBlock(k))!.hash) break;
    }
    if (k < finalized)
      throw new BlockImportError(
        'block',
        this.#latest,
        `the source reorganised below our finalized block ${finalized}`,
      );
    this.#o.logger?.warn('follower: the source reorganised; unwinding to the last shared block', {
      source: source.name,
      from: this.#latest,
      to: k,
    });
    await this.#o.unwindTo!(k);
    this.#latest = k;
    this.#caughtUp = false;
  }

  /** Starts progress lines when PROGRESS_MIN_BEHIND or more blocks behind `target`; moves the target of running ones. */
  #trackProgress(target: number): void {
    if (this.#progress === undefined && target - this.#latest >= PROGRESS_MIN_BEHIND) {
      this.#progress = new Progress({
        message: 'follower: catching up',
        unit: 'blocks',
        target,
        start: this.#latest,
        logger: this.#o.logger,
        intervalMs: this.#o.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS,
        fields: { source: this.#o.source.name },
      });
    }
    this.#progress?.update(this.#latest, Math.max(target, this.#latest));
  }

  async #import(b: L2Block): Promise<void> {
    const started = performance.now();
    await this.#verifyAndStore(b);
    this.#o.observer?.blockImported(b, (performance.now() - started) / 1000);
    this.#progress?.update(this.#latest);
  }

  async #verifyAndStore(b: L2Block): Promise<void> {
    const { engine } = this.#o;
    const n = b.header.globalVariables.blockNumber;
    const messages =
      this.#o.l1ToL2Messages ??
      (async () =>
        (await engine.l1.inboxMessages(await engine.chain.consumedInboxCount(), 1024)).map((m) => m.message));
    // Clearer than the root mismatch they would cause: another genesis, or other time settings.
    if (n === 1 && b.header.lastArchive.root !== engine.chain.genesisBlock.archive.root) {
      throw new BlockImportError(
        'block',
        n,
        `its genesis (archive root ${hex32(b.header.lastArchive.root)}) is not ours (${hex32(engine.chain.genesisBlock.archive.root)}): start this node with the source's chain flags`,
      );
    }
    const { slotNumber, timestamp } = b.header.globalVariables;
    if (engine.time.slotStart(slotNumber) !== timestamp) {
      throw new BlockImportError(
        'block',
        n,
        `timestamp ${timestamp} is not the start of slot ${slotNumber} here (${engine.time.slotStart(slotNumber)}): start this node with the source's --genesis-time and --slot-duration`,
      );
    }
    // One checkpoint per slot: the block's checkpoint number and position follow from our chain.
    const prev = n === 1 ? undefined : await engine.chain.findBlock(n - 1);
    if (prev !== undefined) {
      const prevSlot = prev.header.globalVariables.slotNumber;
      const same = prevSlot === slotNumber;
      const want = same
        ? { cp: prev.checkpointNumber, index: prev.indexWithinCheckpoint + 1 }
        : { cp: prev.checkpointNumber + 1, index: 0 };
      if (slotNumber < prevSlot)
        throw new BlockImportError('block', n, `slot ${slotNumber} is before its parent's slot ${prevSlot}`);
      if (b.checkpointNumber !== want.cp || b.indexWithinCheckpoint !== want.index) {
        throw new BlockImportError(
          'block',
          n,
          `checkpoint ${b.checkpointNumber} index ${b.indexWithinCheckpoint}, ${want.cp} index ${want.index} expected after block ${n - 1} (slot ${prevSlot})`,
        );
      }
    } else if (n === 1 && (b.checkpointNumber !== 1 || b.indexWithinCheckpoint !== 0)) {
      throw new BlockImportError(
        'block',
        n,
        `checkpoint ${b.checkpointNumber} index ${b.indexWithinCheckpoint}, 1 index 0 expected for block 1`,
      );
    }
    const grows = b.indexWithinCheckpoint === 0 ? await messages(n) : [];
    await engine.importBlock(b, grows);
    this.#latest = n;
  }

  async #importCheckpoints(tips: L2Tips): Promise<void> {
    const { engine, source } = this.#o;
    if (source.getCheckpoints === undefined) return;
    const store = engine.checkpoints;
    for (;;) {
      const ours = await store.latestCheckpointNumber();
      if (ours >= tips.checkpointed.checkpoint.number) break;
      const page = await source.getCheckpoints(ours + 1, 10);
      let progressed = false;
      for (const { checkpoint, blocks } of page) {
        if (checkpoint.startBlock + checkpoint.blockCount - 1 > this.#latest) return;
        await engine.importCheckpoint(checkpoint, blocks);
        progressed = true;
      }
      if (!progressed) return;
    }
    const cp = tips.checkpointed.checkpoint;
    const mine = cp.number === 0 ? undefined : await store.findCheckpoint(cp.number);
    if (mine !== undefined && mine.hash !== cp.hash)
      throw new BlockImportError(
        'checkpoint',
        cp.number,
        `our hash ${hex32(mine.hash)} differs from the source's ${hex32(cp.hash)}`,
      );
  }
}
