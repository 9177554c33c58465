/**
 * Read queries over the chain: blocks (block 0 = the synthetic genesis block), tips in the v4
 * shape, receipts, tx effects, logs (answered from the log indexes) and L2→L1 messages.
 * @module
 */

import { hashBlockHeader } from '../world-state/block-header.ts';
import { emptyCheckpointHeader, hashCheckpointHeader } from '../world-state/checkpoint-header.ts';
import { hex32 } from '../encoding/hex.ts';
import { selectRows } from '../store/sql.ts';
import type { ChainState } from './chain-state.ts';
import { resolveTxStatus } from '../txpool/tx-status.ts';
import type { PoolTxStatus } from '../txpool/tx-status.ts';
import type { ChainTime } from './time.ts';
import type { L1Chain } from '../l1/l1-chain.ts';
import type {
  BlockHeader,
  CheckpointedTip,
  ContractClassLog,
  IndexedTxEffect,
  L2Block,
  L2Tips,
  LogFilter,
  LogsPage,
  PublicLog,
  TxReceipt,
  TxScopedL2Log,
} from './types.ts';

/** A block selector: a number or the latest proposed block. */
export type BlockParameter = number | 'latest';

/** Proven and finalized checkpoint numbers from somewhere other than L1 (see ChainQueries.setProofTips). */
export type ProofTips = () => Promise<{ readonly proven: number; readonly finalized: number }>;

/** Most logs one getPublicLogs / getContractClassLogs page returns. */
export const MAX_LOGS_PER_PAGE = 1000;

/** Tags per getLogsByTags statement (the RPC allows 1000 per call). */
const MAX_TAGS_PER_QUERY = 256;

/**
 * Up to `n` tags' private or public logs (`table`), at most `?` (the last parameter) per tag, in
 * tag then chain order. The IN list length is rounded up to a power of two (padded with a repeated
 * tag) so that only a handful of statement texts exist and SQLite keeps each prepared.
 */
function logsByTagsSql(table: TaggedLogTable, n: number): string {
  const slots = bucket(n);
  return (logsByTagsCache[`${table}/${slots}`] ??=
    'select tag, block_number, tx_index, log_index from (' +
    'select tag, block_number, tx_index, log_index, row_number() over (partition by tag order by block_number, tx_index, log_index) as rn ' +
    `from ${table} where tag in (${new Array(slots).fill('?').join(', ')})` +
    ') as t where rn <= ? order by tag, block_number, tx_index, log_index');
}
type TaggedLogTable = 'chain_private_logs' | 'chain_public_logs';
const logsByTagsCache: Record<string, string> = {};
const bucket = (n: number): number => Math.max(8, 2 ** Math.ceil(Math.log2(n)));
const padded = (xs: readonly string[]): string[] => [
  ...xs,
  ...new Array<string>(bucket(xs.length) - xs.length).fill(xs[xs.length - 1]!),
];

const EXECUTION_RESULTS = ['success', 'app_logic_reverted', 'teardown_reverted', 'both_reverted'] as const;

/** Chain reads. */
export class ChainQueries {
  readonly #chain: ChainState;
  readonly #l1: L1Chain;
  readonly #time: ChainTime;
  readonly #genesis: L2Block;
  readonly #txStatus: (txHash: bigint) => Promise<PoolTxStatus>;
  #proofTips: ProofTips | undefined;

  constructor(
    chain: ChainState,
    l1: L1Chain,
    time: ChainTime,
    genesisHeader: BlockHeader,
    genesisArchive: L2Block['archive'],
    txStatus: (txHash: bigint) => Promise<PoolTxStatus>,
  ) {
    this.#chain = chain;
    this.#l1 = l1;
    this.#time = time;
    this.#txStatus = txStatus;
    this.#genesis = {
      archive: genesisArchive,
      header: genesisHeader,
      body: { txEffects: [] },
      checkpointNumber: 0,
      indexWithinCheckpoint: 0,
      hash: hashBlockHeader(genesisHeader),
    };
  }

  /**
   * Replaces L1 as the source of the proven and finalized checkpoint numbers (a follower reports
   * the followed node's, capped at what it has verified); undefined restores L1.
   */
  setProofTips(source: ProofTips | undefined): void {
    this.#proofTips = source;
  }

  /** Moves on whenever blocks are unwound (ChainStore.historyVersion): answers cached about blocks are stale once it moves. */
  historyVersion(): number {
    return this.#chain.store.historyVersion;
  }

  /** Moves on whenever the tip may change (ChainState.tipVersion): answers cached about the tip are stale once it moves. */
  tipVersion(): number {
    return this.#chain.tipVersion;
  }

  /** The synthetic block 0. */
  get genesisBlock(): L2Block {
    return this.#genesis;
  }

  /** The latest proposed block number. */
  async getBlockNumber(): Promise<number> {
    return this.#chain.latestBlockNumber();
  }

  /** Block by number or 'latest'; undefined when not (yet) there. */
  async findBlock(p: BlockParameter): Promise<L2Block | undefined> {
    const n = p === 'latest' ? await this.getBlockNumber() : p;
    return n === 0 ? this.#genesis : this.#chain.store.findBlock(n);
  }

  /** Blocks from `from` (≥ 1), at most `limit`, only those that exist. */
  async blocksFrom(from: number, limit: number): Promise<L2Block[]> {
    return this.#chain.store.blocksFrom(from, limit);
  }

  /** Block by its hash or its archive root. */
  async findBlockBy(kind: 'hash' | 'archive', value: bigint): Promise<L2Block | undefined> {
    if ((kind === 'hash' ? this.#genesis.hash : this.#genesis.archive.root) === value) return this.#genesis;
    const n = await this.#chain.store.findBlockNumberBy(kind === 'hash' ? 'hash' : 'archive_root', value);
    return n === undefined ? undefined : this.#chain.store.findBlock(n);
  }

  /** Blocks built after the latest sealed checkpoint (the open checkpoint of the current slot). */
  openCheckpointBlocks(): Promise<L2Block[]> {
    return this.#chain.openCheckpointBlocks();
  }

  /** How many L1→L2 inbox messages blocks have consumed so far. */
  consumedInboxCount(): Promise<number> {
    return this.#chain.consumedInboxCount();
  }

  /** The (unpadded) L1→L2 messages inserted by block `n`, in leaf order. */
  l1ToL2MessagesOfBlock(n: number): Promise<bigint[]> {
    return this.#chain.l1ToL2MessagesOfBlock(n);
  }

  /** The v4 tips: proposed, checkpointed, proven (L1 proofs) and finalized (as of L1 finality). */
  async getL2Tips(): Promise<L2Tips> {
    const latest = await this.getBlockNumber();
    const proposed = { number: latest, hash: (await this.findBlock(latest))!.hash };
    const cp = await this.#chain.latestCheckpoint();
    const followed = await this.#proofTips?.();
    const proven = followed?.proven ?? (await this.#l1.provenCheckpointNumber());
    const finalized = followed?.finalized ?? (await this.#l1.provenCheckpointNumber(this.#l1.finalizedBlockNumber()));
    return {
      proposed,
      checkpointed: await this.#checkpointTip(cp?.number ?? 0),
      proven: await this.#checkpointTip(proven),
      finalized: await this.#checkpointTip(finalized),
    };
  }

  /** The latest proven block number. */
  async getProvenBlockNumber(): Promise<number> {
    return (await this.getL2Tips()).proven.block.number;
  }

  async #checkpointTip(n: number): Promise<CheckpointedTip> {
    if (n === 0)
      return {
        block: { number: 0, hash: this.#genesis.hash },
        checkpoint: { number: 0, hash: hashCheckpointHeader(emptyCheckpointHeader()) },
      };
    const cp = (await this.#chain.store.findCheckpoint(n))!;
    const last = cp.startBlock + cp.blockCount - 1;
    return {
      block: { number: last, hash: (await this.#chain.store.findBlock(last))!.hash },
      checkpoint: { number: n, hash: cp.hash },
    };
  }

  /** The receipt of a tx: mined (in a block), pending (in the pool) or dropped — decided by `resolveTxStatus`, the one rule. */
  async getTxReceipt(txHash: bigint): Promise<TxReceipt> {
    const s = await resolveTxStatus(txHash, this.#txStatus, (h) => this.getTxEffect(h));
    if (s.status === 'pending') return { txHash, status: 'pending' };
    if (s.status === 'dropped') return { txHash, status: 'dropped', error: s.reason };
    const found = s.mined;
    const block = (await this.#chain.store.findBlock(found.l2BlockNumber))!;
    return {
      txHash,
      status: 'mined',
      executionResult: EXECUTION_RESULTS[found.data.revertCode],
      transactionFee: found.data.transactionFee,
      blockHash: found.l2BlockHash,
      blockNumber: found.l2BlockNumber,
      epochNumber: this.#time.epochOfSlot(block.header.globalVariables.slotNumber),
    };
  }

  /** A mined tx's effect with its block. */
  async getTxEffect(txHash: bigint): Promise<IndexedTxEffect | undefined> {
    const at = await this.#chain.store.findTxLocation(txHash);
    if (at === undefined) return undefined;
    const block = (await this.#chain.store.findBlock(at.blockNumber))!;
    return {
      l2BlockNumber: at.blockNumber,
      l2BlockHash: block.hash,
      data: block.body.txEffects[at.txIndex]!,
      txIndexInBlock: at.txIndex,
    };
  }

  /** L2→L1 message hashes of a block, one array per tx; undefined for an unknown block. */
  async getL2ToL1Messages(p: BlockParameter): Promise<bigint[][] | undefined> {
    const b = await this.findBlock(p);
    return b?.body.txEffects.map((e) => [...e.l2ToL1Msgs]);
  }

  /** The block in which an L1→L2 message was inserted. */
  async getL1ToL2MessageBlock(message: bigint): Promise<number | undefined> {
    return this.#chain.store.findL1ToL2MessageBlock(message);
  }

  /** Private logs of blocks [from, from + limit). */
  async getPrivateLogs(from: number, limit: number) {
    const blocks = await this.blocksFrom(from, limit);
    return blocks.flatMap((b) => b.body.txEffects.flatMap((e) => e.privateLogs));
  }

  /**
   * For each tag, up to `logsPerTag` private logs whose first field is the tag, oldest first: one
   * indexed query for all tags (`tag IN (…)`, the per-tag limit applied by a window in SQL).
   */
  async getLogsByTags(tags: readonly bigint[], logsPerTag: number): Promise<TxScopedL2Log[][]> {
    return this.#logsByTags('chain_private_logs', tags, logsPerTag, (e, i) => e.privateLogs[i]!.fields);
  }

  /** The same for public logs (first field = tag, any contract): one query for all tags, not one per tag. */
  async getPublicLogsByTags(tags: readonly bigint[], logsPerTag: number): Promise<TxScopedL2Log[][]> {
    return this.#logsByTags('chain_public_logs', tags, logsPerTag, (e, i) => e.publicLogs[i]!.fields);
  }

  async #logsByTags(
    table: TaggedLogTable,
    tags: readonly bigint[],
    logsPerTag: number,
    fields: (e: L2Block['body']['txEffects'][number], logIndex: number) => readonly bigint[],
  ): Promise<TxScopedL2Log[][]> {
    const keys = tags.map(hex32);
    const byTag = new Map<string, TxScopedL2Log[]>(keys.map((k) => [k, []]));
    for (let i = 0; i < keys.length; i += MAX_TAGS_PER_QUERY) {
      const chunk = [...new Set(keys.slice(i, i + MAX_TAGS_PER_QUERY))];
      for (const r of await selectRows(this.#chain.store.db, logsByTagsSql(table, chunk.length), [
        ...padded(chunk),
        logsPerTag,
      ])) {
        byTag
          .get(String(r.tag))!
          .push(await this.#txScopedLog(Number(r.block_number), Number(r.tx_index), Number(r.log_index), fields));
      }
    }
    return keys.map((k) => byTag.get(k)!);
  }

  async #txScopedLog(
    blockNumber: number,
    txIndex: number,
    logIndex: number,
    fields: (e: L2Block['body']['txEffects'][number], logIndex: number) => readonly bigint[],
  ): Promise<TxScopedL2Log> {
    const b = (await this.#chain.store.findBlock(blockNumber))!;
    const e = b.body.txEffects[txIndex]!;
    return {
      txHash: e.txHash,
      blockNumber,
      blockTimestamp: b.header.globalVariables.timestamp,
      logData: fields(e, logIndex),
      noteHashes: e.noteHashes,
      firstNullifier: e.nullifiers[0] ?? 0n,
    };
  }

  /** Public logs matching `filter`. */
  async getPublicLogs(filter: LogFilter): Promise<LogsPage<PublicLog>> {
    return this.#filteredLogs('chain_public_logs', filter, (e, i) => e.publicLogs[i]!);
  }

  /** Contract class logs matching `filter`. */
  async getContractClassLogs(filter: LogFilter): Promise<LogsPage<ContractClassLog>> {
    return this.#filteredLogs('chain_contract_class_logs', filter, (e, i) => e.contractClassLogs[i]!);
  }

  async #filteredLogs<T>(
    table: string,
    f: LogFilter,
    pick: (e: L2Block['body']['txEffects'][number], i: number) => T,
  ): Promise<LogsPage<T>> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (f.txHash !== undefined) {
      const at = await this.#chain.store.findTxLocation(f.txHash);
      if (at === undefined) return { logs: [], maxLogsHit: false };
      where.push('block_number = ?', 'tx_index = ?');
      params.push(at.blockNumber, at.txIndex);
    }
    if (f.fromBlock !== undefined) {
      where.push('block_number >= ?');
      params.push(f.fromBlock);
    }
    if (f.toBlock !== undefined) {
      where.push('block_number < ?');
      params.push(f.toBlock);
    }
    if (f.contractAddress !== undefined) {
      where.push('contract = ?');
      params.push(hex32(f.contractAddress));
    }
    if (f.tag !== undefined) {
      where.push('tag = ?');
      params.push(hex32(f.tag));
    }
    if (f.afterLog !== undefined) {
      const a = f.afterLog;
      where.push('(block_number, tx_index, log_index) > (?, ?, ?)');
      params.push(a.blockNumber, a.txIndex, a.logIndex);
    }
    // One SQL text per filter shape, so SQLite runs it as a cached prepared statement (store/sql.ts).
    const sql = `select block_number, tx_index, log_index from ${table}${where.length ? ` where ${where.join(' and ')}` : ''} order by block_number, tx_index, log_index limit ${MAX_LOGS_PER_PAGE + 1}`;
    const rows = await selectRows(this.#chain.store.db, sql, params);
    const logs = [];
    for (const r of rows.slice(0, MAX_LOGS_PER_PAGE)) {
      const b = (await this.#chain.store.findBlock(Number(r.block_number)))!;
      const e = b.body.txEffects[Number(r.tx_index)]!;
      logs.push({
        id: {
          blockNumber: Number(r.block_number),
          blockHash: b.hash,
          txHash: e.txHash,
          txIndex: Number(r.tx_index),
          logIndex: Number(r.log_index),
        },
        log: pick(e, Number(r.log_index)),
      });
    }
    return { logs, maxLogsHit: rows.length > MAX_LOGS_PER_PAGE };
  }
}
