/**
 * The tx bot: realistic traffic for a dev chain. At `--bot.txsPerSecond` it builds a real-format
 * private tx (a unique nullifier, the configured note hashes and private logs), anchored on the
 * node's latest block header, offering `node_getCurrentMinFees` × (1 + `--bot.minFeePadding`),
 * paid by the fee payers in turn, and sends it with `node_sendTx`. Every report interval it looks
 * up the receipts of its pending txs and logs a `bot report` line with its counts; `stop()` logs
 * a `bot stopped` summary. A full pool (LOW_PRIORITY_FEE) or a node that does not answer makes
 * it back off (1 s doubling to 30 s) instead of spinning.
 * @module
 */
import type { Logger } from '../../server/types.ts';
import { type Clock, systemClock } from '../chain/time.ts';
import { anchorHeaderFromWire, type WireBlockHeaderLike } from '../tx/anchor-header.ts';
import type { BotNode } from './bot-node.ts';
import { failureCode } from './bot-node.ts';
import { padMinFees } from './fee-padding.ts';
import { Backoff, RateLimiter } from './rate-limiter.ts';
import { type BotCounts, BotStats } from './stats.ts';
import { buildBotTx, randomSeed, sideEffectsFor, type TxShape } from './tx-shape.ts';

/** What the bot does, resolved from the `--bot.*` options. */
export interface BotSettings {
  readonly txsPerSecond: number;
  /** Fraction: max fees per gas = min fees × (1 + minFeePadding). */
  readonly minFeePadding: number;
  readonly shape: TxShape;
  /** Used round robin; at least one. */
  readonly feePayers: readonly bigint[];
  readonly reportIntervalMs: number;
  /** Where the txs go, for the log lines: `in-process` or the URL. */
  readonly target: string;
}

/** What a bot is built from. */
export interface BotOptions {
  readonly node: BotNode;
  readonly settings: BotSettings;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** Makes this run's nullifiers unique (default: random). */
  readonly seed?: bigint;
}

/** Failures that mean "wait" rather than "this tx was wrong". */
const BACK_OFF_ON = new Set(['LOW_PRIORITY_FEE', 'UNREACHABLE', 'NODE_NOT_READY', 'INTERNAL_ERROR']);
/** Longest wait for one node call; a remote node that hangs counts as unreachable. */
const CALL_TIMEOUT_MS = 10_000;
/** Sends started and not yet answered, at most. */
const MAX_IN_FLIGHT = 4;
/** Receipts looked up per report (oldest pending first). */
const RECEIPTS_PER_REPORT = 500;

/** A running bot; see the module comment. */
export class Bot {
  readonly #o: BotOptions;
  readonly #stats = new BotStats();
  readonly #limiter: RateLimiter;
  readonly #backoff = new Backoff(1_000, 30_000);
  readonly #seed: bigint;
  readonly #clock: Clock;
  #seq = 0n;
  #chain: { chainId: bigint; rollupVersion: bigint } | undefined;
  #stopped = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #reportTimer: NodeJS.Timeout | undefined;
  #reporting: Promise<void> | undefined;
  #sentAtLastReport = 0;
  #startedMs = 0;

  constructor(o: BotOptions) {
    if (o.settings.feePayers.length === 0) throw new RangeError('the bot needs at least one fee payer');
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
    this.#limiter = new RateLimiter(o.settings.txsPerSecond, this.#clock);
    this.#seed = o.seed ?? randomSeed();
  }

  /** Totals so far. */
  counts(): BotCounts {
    return this.#stats.counts();
  }

  /** Milliseconds until the next send is due (0: now); a back-off shows here. */
  nextSendInMs(): number {
    return this.#limiter.delayMs();
  }

  /** Starts sending and reporting. */
  start(): void {
    if (this.#loop !== undefined || this.#stopped) return;
    const s = this.#o.settings;
    this.#startedMs = this.#clock.nowMs();
    this.#o.logger.info('bot started', {
      target: s.target,
      txsPerSecond: s.txsPerSecond,
      minFeePadding: s.minFeePadding,
      ...s.shape,
      feePayers: s.feePayers.map((p) => '0x' + p.toString(16)),
      reportIntervalSeconds: s.reportIntervalMs / 1000,
    });
    this.#loop = this.#run();
    this.#reportTimer = setInterval(() => void this.report(), s.reportIntervalMs);
  }

  /** Stops sending, waits for the txs in flight, looks at receipts once more and logs the summary. */
  async stop(): Promise<BotCounts> {
    if (this.#stopped) return this.counts();
    this.#stopped = true;
    clearInterval(this.#reportTimer);
    this.#wake?.();
    await this.#loop;
    await this.#reporting;
    await this.#refreshReceipts().catch(() => undefined);
    const counts = this.counts();
    this.#o.logger.info('bot stopped', {
      ...counts,
      seconds: Math.round((this.#clock.nowMs() - this.#startedMs) / 1000),
      target: this.#o.settings.target,
    });
    return counts;
  }

  /** Builds and sends one tx now (the loop calls it on schedule); failures are counted, never thrown. */
  async sendOne(): Promise<void> {
    const s = this.#o.settings;
    const node = this.#o.node;
    let built;
    try {
      if (this.#chain === undefined) {
        const [chainId, version] = await timed(Promise.all([node.getChainId(), node.getVersion()]));
        this.#chain = { chainId: BigInt(chainId), rollupVersion: BigInt(version) };
      }
      const chain = this.#chain;
      const [header, minFees] = await timed(Promise.all([node.getBlockHeader('latest'), node.getCurrentMinFees()]));
      if (header === null) throw new Error('the node has no latest block header');
      const seq = this.#seq++;
      built = await buildBotTx({
        chainId: chain.chainId,
        rollupVersion: chain.rollupVersion,
        feePayer: s.feePayers[Number(seq % BigInt(s.feePayers.length))]!,
        anchorBlockHeader: anchorHeaderFromWire(header as WireBlockHeaderLike),
        maxFeesPerGas: padMinFees(minFees, s.minFeePadding),
        effects: sideEffectsFor(s.shape, this.#seed, seq),
      });
    } catch (err) {
      this.#stats.readFailures++;
      this.#failed(failureCode(err), err);
      return;
    }
    this.#stats.sent++;
    try {
      await timed(node.sendTx(built.wire as Parameters<BotNode['sendTx']>[0]));
      this.#stats.accept(built.hash);
      if (this.#backoff.active) this.#o.logger.info('bot resumed', { after: 'accepted tx', txHash: built.hash });
      this.#backoff.reset();
    } catch (err) {
      const code = failureCode(err);
      this.#stats.reject(code);
      this.#failed(code, err);
    }
  }

  /** Looks up receipts and logs one `bot report` line (skipped while the previous one runs). */
  async report(): Promise<void> {
    if (this.#reporting !== undefined) return;
    this.#reporting = (async () => {
      await this.#refreshReceipts().catch((err: unknown) =>
        this.#o.logger.debug('bot: receipts not read', { err: String(err) }),
      );
      const counts = this.counts();
      const sentSinceLast = counts.sent - this.#sentAtLastReport;
      this.#sentAtLastReport = counts.sent;
      this.#o.logger.info('bot report', {
        ...counts,
        sentSinceLast,
        backingOff: this.#backoff.active,
        target: this.#o.settings.target,
      });
    })().finally(() => (this.#reporting = undefined));
    await this.#reporting;
  }

  async #run(): Promise<void> {
    // Sends overlap (up to MAX_IN_FLIGHT): each waits for its hash on the tx-hash worker and for
    // node_sendTx, so one at a time would cap the rate at one per round trip, below 20 txs/s on a
    // busy machine. The schedule still spaces their starts one interval apart.
    const inFlight = new Set<Promise<void>>();
    while (!this.#stopped) {
      if (inFlight.size >= MAX_IN_FLIGHT) {
        await Promise.race(inFlight);
        continue;
      }
      const wait = this.#limiter.delayMs();
      if (wait > 0) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, wait);
          this.#wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        continue;
      }
      this.#limiter.take();
      const send: Promise<void> = this.sendOne().finally(() => inFlight.delete(send));
      inFlight.add(send);
      // Building a tx is CPU work on the node's own thread: let I/O and timers run between sends,
      // even when the rate is more than this machine can build.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(inFlight);
  }

  #failed(code: string, err: unknown): void {
    if (!BACK_OFF_ON.has(code)) {
      this.#o.logger.debug('bot: tx refused', { code, err: String(err) });
      return;
    }
    const first = !this.#backoff.active;
    const ms = this.#backoff.next();
    this.#limiter.pause(ms);
    // One warning per episode: while the pool stays full, the report lines carry the counts.
    if (first) this.#o.logger.warn('bot backing off', { code, ms, reason: (err as Error)?.message ?? String(err) });
    else this.#o.logger.debug('bot backing off', { code, ms });
  }

  async #refreshReceipts(): Promise<void> {
    const hashes = [...this.#stats.pending].slice(0, RECEIPTS_PER_REPORT);
    const receipts = await timed(Promise.all(hashes.map((h) => this.#o.node.getTxReceipt(h))));
    for (const r of receipts) this.#stats.settle(r.txHash, r.status);
  }
}

/** The promise, or a rejection after CALL_TIMEOUT_MS. */
async function timed<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
