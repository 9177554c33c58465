/**
 * Log reads of the public API (tag `logs`, SPEC §4.6, plus the 4.1 tag queries): private logs by
 * block range, logs by tag (private and public), filtered public / contract class log pages.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import type * as C from '../../chain/types.ts';
import {
  fromWireLogFilter,
  toWireContractClassLogsPage,
  toWirePrivateLog,
  toWirePublicLogsPage,
  toWireTxScopedLog,
} from '../../encoding/wire/logs.ts';
import { InvalidParamsError } from '../errors.ts';
import { unknownBlockHash } from './block-param.ts';
import type { ChainReader } from './block-param.ts';
import type { LogFilter } from '../../../generated/public/types.ts';

/** Logs per tag per page of the 4.1 tag queries (MAX_LOGS_PER_TAG, reference §6). */
export const LOGS_PER_TAG_PAGE = 10;
/** `node_getLogsByTags` default `logsPerTag` (openrpc.public.json). */
export const DEFAULT_LOGS_PER_TAG = 10;

/** The handler members this module serves. */
export type LogHandlers = Pick<
  PublicHandlers,
  | 'getPrivateLogs'
  | 'getPublicLogs'
  | 'getContractClassLogs'
  | 'getLogsByTags'
  | 'getPrivateLogsByTags'
  | 'getPublicLogsByTagsFromContract'
>;

/** What the log handlers read: `engine.chain`. */
export interface LogDeps {
  readonly chain: Pick<
    ChainReader,
    | 'getBlockNumber'
    | 'findBlock'
    | 'findBlockBy'
    | 'getPrivateLogs'
    | 'getLogsByTags'
    | 'getPublicLogsByTags'
    | 'getPublicLogs'
    | 'getContractClassLogs'
  >;
}

type Chain = LogDeps['chain'];

/** Creates the log handlers. */
export function createLogHandlers({ chain }: LogDeps): LogHandlers {
  return {
    /** Handler for `node_getPrivateLogs`: `limit` counts blocks, not logs (SPEC §8); 0 blocks hold no logs. */
    async getPrivateLogs(from, limit) {
      if (limit === 0) return [];
      return (await chain.getPrivateLogs(from, limit)).map(toWirePrivateLog);
    },

    /** Handler for `node_getPublicLogs`: one page of at most 1000; `toBlock` must exceed `fromBlock`. */
    async getPublicLogs(filter) {
      return toWirePublicLogsPage(await chain.getPublicLogs(checkedFilter(filter)));
    },

    /** Handler for `node_getContractClassLogs`: the same filter rules and paging as `node_getPublicLogs`. */
    async getContractClassLogs(filter) {
      return toWireContractClassLogsPage(await chain.getContractClassLogs(checkedFilter(filter)));
    },

    /** Handler for `node_getLogsByTags`: private and public logs per tag, oldest block first (private first within a block). */
    async getLogsByTags(tags, logsPerTag) {
      const n = logsPerTag ?? DEFAULT_LOGS_PER_TAG;
      const keys = tags.map(BigInt);
      const privateLogs = await chain.getLogsByTags(keys, n);
      const publicLogs = await chain.getPublicLogsByTags(keys, n);
      return tags.map((_, i) => mergeByBlock(privateLogs[i]!, publicLogs[i]!).slice(0, n).map(toWireTxScopedLog));
    },

    /** Handler for `node_getPrivateLogsByTags`: page `page` of 10 per tag, up to `referenceBlock` when given. */
    async getPrivateLogsByTags(tags, page, referenceBlock) {
      const upTo = await referenceBlockNumber(chain, referenceBlock);
      const skip = (page ?? 0) * LOGS_PER_TAG_PAGE;
      // Logs come oldest first, so those up to the reference block are a prefix: slice, then cut.
      const all = await chain.getLogsByTags(tags.map(BigInt), skip + LOGS_PER_TAG_PAGE);
      return all.map((logs) =>
        logs
          .slice(skip)
          .filter((l) => upTo === undefined || l.blockNumber <= upTo)
          .map(toWireTxScopedLog),
      );
    },

    /** Handler for `node_getPublicLogsByTagsFromContract`: page `page` of 10 per tag of the contract's public logs. */
    async getPublicLogsByTagsFromContract(contractAddress, tags, page, referenceBlock) {
      const upTo = await referenceBlockNumber(chain, referenceBlock);
      const filter = { contractAddress: BigInt(contractAddress), ...(upTo !== undefined && { toBlock: upTo + 1 }) };
      const skip = (page ?? 0) * LOGS_PER_TAG_PAGE;
      return Promise.all(
        tags.map(async (tag) =>
          (await publicLogsByTag(chain, { ...filter, tag: BigInt(tag) }, skip, LOGS_PER_TAG_PAGE)).map(
            toWireTxScopedLog,
          ),
        ),
      );
    },
  };
}

/** The chain filter of a LogFilter, refusing an empty block range (-32602, as the document words it). */
function checkedFilter(filter: LogFilter): C.LogFilter {
  if (filter.fromBlock !== undefined && filter.toBlock !== undefined && filter.toBlock <= filter.fromBlock) {
    throw new InvalidParamsError(0, 'filter', 'toBlock must be greater than fromBlock');
  }
  return fromWireLogFilter(filter);
}

/** The block number of `referenceBlock` (undefined when absent: no cut); an unknown hash is -32010. */
async function referenceBlockNumber(chain: Chain, referenceBlock: string | undefined): Promise<number | undefined> {
  if (referenceBlock === undefined) return undefined;
  const block = await chain.findBlockBy('hash', BigInt(referenceBlock));
  if (block === undefined) throw unknownBlockHash(referenceBlock, await chain.getBlockNumber());
  return block.header.globalVariables.blockNumber;
}

/** Public logs matching `filter`, skipping `skip` and taking `take`, with the tx context of each. */
async function publicLogsByTag(
  chain: Chain,
  filter: C.LogFilter,
  skip: number,
  take: number,
): Promise<C.TxScopedL2Log[]> {
  const found: C.LogsPage<C.PublicLog>['logs'][number][] = [];
  let page = await chain.getPublicLogs(filter);
  found.push(...page.logs);
  while (page.maxLogsHit && found.length < skip + take) {
    page = await chain.getPublicLogs({ ...filter, afterLog: found[found.length - 1]!.id });
    found.push(...page.logs);
  }
  return Promise.all(
    found.slice(skip, skip + take).map(async ({ id, log }) => {
      const block = (await chain.findBlock(id.blockNumber))!;
      const effect = block.body.txEffects[id.txIndex]!;
      return {
        txHash: effect.txHash,
        blockNumber: id.blockNumber,
        blockTimestamp: block.header.globalVariables.timestamp,
        logData: log.fields,
        noteHashes: effect.noteHashes,
        firstNullifier: effect.nullifiers[0] ?? 0n,
      };
    }),
  );
}

/** Merges two oldest-first lists by block number; within a block, `a` comes first. */
function mergeByBlock(a: readonly C.TxScopedL2Log[], b: readonly C.TxScopedL2Log[]): C.TxScopedL2Log[] {
  return [...a, ...b]
    .map((l, i) => ({ l, i }))
    .sort((x, y) => x.l.blockNumber - y.l.blockNumber || x.i - y.i)
    .map((x) => x.l);
}
