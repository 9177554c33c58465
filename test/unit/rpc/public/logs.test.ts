import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { publicMethods } from '../../../../src/generated/public/methods.ts';
import type * as C from '../../../../src/impl/chain/types.ts';
import { createLogHandlers } from '../../../../src/impl/rpc/public/logs.ts';
import type { LogDeps } from '../../../../src/impl/rpc/public/logs.ts';

const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
const TAG = 0x7a9n;
const CONTRACT = 0x77n;

/** Block n holds one tx (hash 0x1000 + n) emitting `perBlock` public logs with TAG from CONTRACT. */
function block(n: number, perBlock: number): C.L2Block {
  const effect = {
    revertCode: 0,
    txHash: 0x1000n + BigInt(n),
    transactionFee: 0n,
    noteHashes: [0x500n + BigInt(n)],
    nullifiers: [0x600n + BigInt(n)],
    l2ToL1Msgs: [],
    publicDataWrites: [],
    privateLogs: [],
    contractClassLogs: [],
    publicLogs: Array.from({ length: perBlock }, (_, i) => ({ contractAddress: CONTRACT, fields: [TAG, BigInt(i)] })),
  } as C.TxEffect;
  const gv = { timestamp: 1000n + BigInt(n), blockNumber: n } as C.GlobalVariables;
  return {
    hash: 0x9000n + BigInt(n),
    header: { globalVariables: gv } as C.BlockHeader,
    body: { txEffects: [effect] },
  } as unknown as C.L2Block;
}

/**
 * A chain over `blocks` whose getPublicLogs honours contract, tag, toBlock and afterLog like
 * ChainQueries, with a page cap of `cap` so paging is exercised.
 */
function chainOf(blocks: C.L2Block[], cap: number, privateByTag: C.TxScopedL2Log[] = []): LogDeps['chain'] {
  const all = blocks.flatMap((b) =>
    b.body.txEffects[0]!.publicLogs.map((log, i) => ({
      id: {
        blockNumber: b.header.globalVariables.blockNumber,
        blockHash: b.hash,
        txHash: b.body.txEffects[0]!.txHash,
        txIndex: 0,
        logIndex: i,
      },
      log,
    })),
  );
  const after = (a: C.LogId, b: C.LogId) =>
    a.blockNumber > b.blockNumber || (a.blockNumber === b.blockNumber && a.logIndex > b.logIndex);
  return {
    getBlockNumber: async () => blocks.length,
    findBlock: async (n) => blocks[(n as number) - 1],
    findBlockBy: async (_kind, h) => blocks.find((b) => b.hash === h),
    getPrivateLogs: async () => [],
    getLogsByTags: async (tags, n) => tags.map((t) => (t === TAG ? privateByTag.slice(0, n) : [])),
    getPublicLogsByTags: async (tags, n) =>
      tags.map((t) =>
        all
          .filter(({ log }) => log.fields[0] === t)
          .slice(0, n)
          .map(({ id, log }) => {
            const b = blocks[id.blockNumber - 1]!;
            const e = b.body.txEffects[id.txIndex]!;
            return {
              txHash: e.txHash,
              blockNumber: id.blockNumber,
              blockTimestamp: b.header.globalVariables.timestamp,
              logData: log.fields,
              noteHashes: e.noteHashes,
              firstNullifier: e.nullifiers[0] ?? 0n,
            };
          }),
      ),
    getContractClassLogs: async () => ({ logs: [], maxLogsHit: false }),
    async getPublicLogs(f) {
      const match = all.filter(
        ({ id, log }) =>
          (f.contractAddress === undefined || log.contractAddress === f.contractAddress) &&
          (f.tag === undefined || log.fields[0] === f.tag) &&
          (f.toBlock === undefined || id.blockNumber < f.toBlock) &&
          (f.afterLog === undefined || after(id, f.afterLog)),
      );
      return { logs: match.slice(0, cap), maxLogsHit: match.length > cap };
    },
  };
}

describe('log handlers', () => {
  it('node_getPublicLogsByTagsFromContract: pages of 10 across capped chain pages, with the tx context', async () => {
    const blocks = [block(1, 7), block(2, 7), block(3, 7)];
    const h = createLogHandlers({ chain: chainOf(blocks, 4) });
    const [page0] = await h.getPublicLogsByTagsFromContract(hex(CONTRACT), [hex(TAG)]);
    const [page1] = await h.getPublicLogsByTagsFromContract(hex(CONTRACT), [hex(TAG)], 1);
    const [page2] = await h.getPublicLogsByTagsFromContract(hex(CONTRACT), [hex(TAG)], 2);
    assert.deepEqual([page0!.length, page1!.length, page2!.length], [10, 10, 1]);
    assert.deepEqual(
      page1!.map((l) => l.blockNumber),
      [2, 2, 2, 2, 3, 3, 3, 3, 3, 3],
    );
    assert.deepEqual(page1![0], {
      txHash: hex(0x1002n),
      blockNumber: 2,
      blockTimestamp: '1002',
      logData: [hex(TAG), hex(3n)],
      noteHashes: [hex(0x502n)],
      firstNullifier: hex(0x602n),
    });
    assert.equal(publicMethods.node_getPublicLogsByTagsFromContract!.validateResult([page0]), null);
    assert.deepEqual(await h.getPublicLogsByTagsFromContract(hex(0x78n), [hex(TAG)]), [[]]);
  });

  it('referenceBlock cuts the logs after it; an unknown one is -32010 naming the hash', async () => {
    const h = createLogHandlers({ chain: chainOf([block(1, 2), block(2, 2)], 1000) });
    const [upTo1] = await h.getPublicLogsByTagsFromContract(hex(CONTRACT), [hex(TAG)], 0, hex(0x9001n));
    assert.deepEqual(
      upTo1!.map((l) => l.blockNumber),
      [1, 1],
    );
    await assert.rejects(
      h.getPublicLogsByTagsFromContract(hex(CONTRACT), [hex(TAG)], 0, hex(0xbadn)),
      (e: { code: number; data: unknown }) =>
        e.code === -32010 && JSON.stringify(e.data) === JSON.stringify({ requested: hex(0xbadn), latest: 2 }),
    );
  });

  it('node_getLogsByTags: private and public logs merged oldest block first, private first within a block, cut at logsPerTag', async () => {
    const priv = (n: number): C.TxScopedL2Log => ({
      txHash: 0x2000n + BigInt(n),
      blockNumber: n,
      blockTimestamp: 0n,
      logData: [TAG],
      noteHashes: [],
      firstNullifier: 1n,
    });
    const h = createLogHandlers({ chain: chainOf([block(1, 1), block(2, 1), block(3, 1)], 1000, [priv(2), priv(3)]) });
    const [logs] = await h.getLogsByTags([hex(TAG)], 4);
    assert.deepEqual(
      logs!.map((l) => [l.blockNumber, l.txHash]),
      [
        [1, hex(0x1001n)],
        [2, hex(0x2002n)],
        [2, hex(0x1002n)],
        [3, hex(0x2003n)],
      ],
    );
    assert.equal((await h.getLogsByTags([hex(TAG)]))[0]!.length, 5, 'default logsPerTag is 10');
  });
});
