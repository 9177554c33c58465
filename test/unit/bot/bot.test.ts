/**
 * The bot against a fake node on a manual clock: what one send builds and offers, round robin fee
 * payers, counting by code, backing off on LOW_PRIORITY_FEE, receipts in the report and the stop
 * summary; the in-process node adapter through the RPC dispatcher; the settings checks.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonRpcError } from '../../../src/generated/public/client.ts';
import { Bot, type BotSettings } from '../../../src/impl/bot/bot.ts';
import { failureCode, inProcessBotNode, type BotNode } from '../../../src/impl/bot/bot-node.ts';
import { botSettings } from '../../../src/impl/bot/index.ts';
import { ManualClock } from '../../../src/impl/chain/time.ts';
import { TxInvalidError, TxPoolRejectedError } from '../../../src/impl/rpc/errors.ts';
import { decodeTx } from '../../../src/impl/tx/index.ts';
import type { Tx as WireTx } from '../../../src/generated/public/types.ts';
import { createLogger } from '../../../src/server/logger.ts';

const h = (n: number | bigint) => '0x' + n.toString(16).padStart(64, '0');
const snap = (n: number) => ({ root: h(n), nextAvailableLeafIndex: n });
const latestHeader = {
  lastArchive: snap(7),
  state: {
    l1ToL2MessageTree: snap(1),
    partial: { noteHashTree: snap(2), nullifierTree: snap(3), publicDataTree: snap(4) },
  },
  spongeBlobHash: h(0),
  globalVariables: {
    chainId: h(31337),
    version: h(1),
    blockNumber: 7,
    slotNumber: h(9),
    timestamp: h(1000),
    coinbase: '0x' + '00'.repeat(20),
    feeRecipient: h(0x1001),
    gasFees: { feePerDaGas: '0', feePerL2Gas: '10' },
  },
  totalFees: '0',
  totalManaUsed: '0',
};

/** A node that records what it is sent and answers sendTx with `refuse(n)` (n = send count). */
function fakeNode(refuse: (n: number) => unknown = () => undefined) {
  const sent: WireTx[] = [];
  const statuses = new Map<string, string>();
  const anchors: unknown[] = [];
  const node: BotNode = {
    getChainId: async () => 31337,
    getVersion: async () => 1,
    getBlockHeader: async (p) => (anchors.push(p), latestHeader as never),
    getCurrentMinFees: async () => ({ feePerDaGas: '3', feePerL2Gas: '100' }),
    sendTx: async (tx) => {
      const err = refuse(sent.length);
      sent.push(tx);
      if (err !== undefined) throw err;
    },
    getTxReceipt: async (hash) => ({ txHash: hash, status: (statuses.get(hash) ?? 'pending') as 'pending' }),
  };
  return { node, sent, statuses, anchors };
}

function capture() {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger('debug', (l) => void lines.push(JSON.parse(l))) };
}

const settings: BotSettings = {
  txsPerSecond: 5,
  minFeePadding: 0.5,
  shape: { noteHashesPerTx: 2, privateLogsPerTx: 1 },
  feePayers: [0x1001n, 0x1002n, 0x1003n],
  reportIntervalMs: 1000,
  target: 'in-process',
};
const lowFee = () =>
  new JsonRpcError(-32020, 'Tx does not meet minimum priority fee. Required: 1, got: 0', {
    code: 'LOW_PRIORITY_FEE',
    message: '…',
  });

describe('sendOne', () => {
  it('anchors on the latest header, offers padded min fees, pays in turn, never repeats a nullifier', async () => {
    const { node, sent, anchors } = fakeNode();
    const bot = new Bot({ node, settings, logger: capture().logger, clock: new ManualClock(0), seed: 0x77n });
    for (let i = 0; i < 4; i++) await bot.sendOne();
    assert.deepEqual(anchors, ['latest', 'latest', 'latest', 'latest']);
    const txs = sent.map((w) => decodeTx(w, 'tx'));
    assert.deepEqual(
      txs.map((t) => t.data.feePayer),
      [0x1001n, 0x1002n, 0x1003n, 0x1001n],
    );
    for (const t of txs) {
      assert.deepEqual(t.data.constants.txContext.gasSettings.maxFeesPerGas, { feePerDaGas: 5n, feePerL2Gas: 150n });
      assert.equal(t.data.constants.anchorBlockHeader.globalVariables.blockNumber, 7);
      assert.equal(t.data.constants.txContext.chainId, 31337n);
    }
    const nullifiers = txs.map((t) => (t.data.isForPublic ? 0n : t.data.forRollup.end.nullifiers[0]!));
    assert.equal(new Set(nullifiers).size, 4);
    assert.deepEqual(bot.counts(), {
      sent: 4,
      accepted: 4,
      rejected: {},
      mined: 0,
      dropped: 0,
      pending: 4,
      untracked: 0,
      readFailures: 0,
    });
  });

  it('counts refusals by code and backs off on LOW_PRIORITY_FEE only (1 s, 2 s, …), warning once', async () => {
    const clock = new ManualClock(0);
    const refusals = [
      new JsonRpcError(-32021, 'Invalid tx: x', { reasons: ['x'] }),
      lowFee(),
      lowFee(),
      undefined,
      lowFee(),
    ];
    const { node } = fakeNode((n) => refusals[n]);
    const { lines, logger } = capture();
    const bot = new Bot({ node, settings, logger, clock });
    await bot.sendOne();
    assert.equal(bot.nextSendInMs(), 0, 'TX_INVALID: carry on at the rate');
    await bot.sendOne();
    assert.equal(bot.nextSendInMs(), 1000);
    await bot.sendOne();
    assert.equal(bot.nextSendInMs(), 2000, 'doubled');
    clock.advance(2000);
    await bot.sendOne();
    await bot.sendOne();
    assert.equal(bot.nextSendInMs(), 1000, 'an accepted tx resets the backoff');
    assert.deepEqual(bot.counts().rejected, { LOW_PRIORITY_FEE: 3, TX_INVALID: 1 });
    assert.equal(bot.counts().accepted, 1);
    const warnings = lines.filter((l) => l.msg === 'bot backing off' && l.level === 'warn');
    assert.equal(warnings.length, 2, 'one per episode');
    assert.equal(warnings[0]!.code, 'LOW_PRIORITY_FEE');
    assert.ok(lines.some((l) => l.msg === 'bot resumed'));
  });

  it('a node that cannot be read: nothing sent, counted as a read failure, backing off', async () => {
    const { node } = fakeNode();
    const bot = new Bot({
      node: {
        ...node,
        getCurrentMinFees: async () => {
          throw new TypeError('fetch failed');
        },
      },
      settings,
      logger: capture().logger,
      clock: new ManualClock(0),
    });
    await bot.sendOne();
    assert.equal(bot.counts().sent, 0);
    assert.equal(bot.counts().readFailures, 1);
    assert.equal(bot.nextSendInMs(), 1000);
  });
});

describe('report and stop', () => {
  it('receipts settle mined and dropped; the report and the summary carry the counts', async () => {
    const { node, sent, statuses } = fakeNode();
    const { lines, logger } = capture();
    const bot = new Bot({ node, settings, logger, clock: new ManualClock(0) });
    for (let i = 0; i < 3; i++) await bot.sendOne();
    statuses.set(sent[0]!.txHash, 'mined');
    statuses.set(sent[1]!.txHash, 'dropped');
    await bot.report();
    const report = lines.find((l) => l.msg === 'bot report')!;
    assert.deepEqual(
      {
        sent: report.sent,
        accepted: report.accepted,
        mined: report.mined,
        dropped: report.dropped,
        pending: report.pending,
        sentSinceLast: report.sentSinceLast,
      },
      { sent: 3, accepted: 3, mined: 1, dropped: 1, pending: 1, sentSinceLast: 3 },
    );
    statuses.set(sent[2]!.txHash, 'mined');
    const summary = await bot.stop();
    assert.equal(summary.mined, 2);
    const stopped = lines.find((l) => l.msg === 'bot stopped')!;
    assert.equal(stopped.mined, 2);
    assert.equal(stopped.sent, 3);
  });

  it('start sends at the rate on the real clock and stop ends the loop', async () => {
    const { node, sent } = fakeNode();
    const bot = new Bot({ node, settings: { ...settings, txsPerSecond: 4 }, logger: capture().logger });
    const started = Date.now();
    bot.start();
    await new Promise((r) => setTimeout(r, 600));
    await bot.stop();
    const n = sent.length;
    // 3 sends (at 0, 250 and 500 ms) in 600 ms at 4/s; the bound follows the time that really passed,
    // as a loaded machine can fire the 600 ms timer late (the bot never catches up, so never more).
    const elapsed = Date.now() - started;
    assert.ok(n >= 2 && n <= Math.max(4, Math.floor(elapsed / 250) + 1), `at most 4/s: ${n} sends in ${elapsed} ms`);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(sent.length, n, 'nothing after stop');
  });
});

describe('failureCode', () => {
  it('pool code, catalogue name, UNREACHABLE', () => {
    assert.equal(failureCode(lowFee()), 'LOW_PRIORITY_FEE');
    assert.equal(failureCode(new JsonRpcError(-32021, 'Invalid tx: a')), 'TX_INVALID');
    assert.equal(failureCode(new JsonRpcError(-32002, 'Node not ready: x')), 'NODE_NOT_READY');
    assert.equal(failureCode(new JsonRpcError(-31999, '?')), 'CODE_-31999');
    assert.equal(failureCode(new TypeError('fetch failed')), 'UNREACHABLE');
  });
});

describe('inProcessBotNode', () => {
  it('goes through the RPC dispatch: params validated, handler errors as JsonRpcError', async () => {
    const calls: unknown[] = [];
    const handlers = {
      getBlockHeader: async (p: unknown) => (calls.push(p), latestHeader),
      sendTx: async () => {
        throw new TxPoolRejectedError(
          'LOW_PRIORITY_FEE',
          'Tx does not meet minimum priority fee. Required: 1, got: 0',
          { minimumPriorityFee: '1', txPriorityFee: '0' },
        );
      },
      getTxReceipt: async () => {
        throw new TxInvalidError(['bad']);
      },
    };
    const node = inProcessBotNode(handlers, capture().logger);
    assert.deepEqual(await node.getBlockHeader('latest'), latestHeader);
    assert.deepEqual(calls, ['latest']);
    await assert.rejects(
      node.getBlockHeader(-1 as never),
      (e: unknown) => e instanceof JsonRpcError && e.code === -32602,
    );
    await assert.rejects(
      node.sendTx({ txHash: 'nope' } as never),
      (e: unknown) => e instanceof JsonRpcError && e.code === -32602,
      'the generated validator runs first',
    );
    const { node: fake } = fakeNode();
    const bot = new Bot({
      node: { ...fake, sendTx: node.sendTx },
      settings,
      logger: capture().logger,
      clock: new ManualClock(0),
    });
    await bot.sendOne();
    assert.deepEqual(
      bot.counts().rejected,
      { LOW_PRIORITY_FEE: 1 },
      'a valid tx reached the handler and its refusal was mapped',
    );
    await assert.rejects(
      node.getChainId(),
      (e: unknown) => e instanceof JsonRpcError && e.code === -32001,
      'no handler: not implemented',
    );
  });
});

describe('botSettings', () => {
  const config = {
    botTxsPerSecond: 5,
    botMinFeePadding: 3,
    botNoteHashesPerTx: 1,
    botPrivateLogsPerTx: 0,
    botFeePayer: [] as string[],
    botUrl: undefined as string | undefined,
    botReportIntervalSeconds: 2,
  };
  const funded = [{ address: 0x1001n }, { address: 0x1002n }];
  it('defaults: the funded accounts, in process', () => {
    const s = botSettings(config, funded);
    assert.deepEqual(s.feePayers, [0x1001n, 0x1002n]);
    assert.equal(s.target, 'in-process');
    assert.equal(s.reportIntervalMs, 2000);
    assert.deepEqual(s.shape, { noteHashesPerTx: 1, privateLogsPerTx: 0 });
  });
  it('--bot.feePayer and --bot.url, checked by name', () => {
    const s = botSettings({ ...config, botFeePayer: ['0x2002', '0xABC'], botUrl: 'http://127.0.0.1:8080' }, funded);
    assert.deepEqual(s.feePayers, [0x2002n, 0xabcn]);
    assert.equal(s.target, 'http://127.0.0.1:8080');
    assert.throws(
      () => botSettings({ ...config, botFeePayer: ['1002'] }, funded),
      /invalid value "1002" for --bot.feePayer/,
    );
    assert.throws(() => botSettings({ ...config, botUrl: 'ws://x' }, funded), /for --bot.url: must be an http/);
    assert.throws(() => botSettings(config, []), /no fee payer/);
  });
});
