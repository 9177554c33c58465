/**
 * The tx bot in a real node process (bin/l2node.js, 1-second slots): in process it fills blocks
 * at the configured rate with txs of the configured shape and logs its counts; with --bot.url it
 * drives another node; a full pool makes it back off instead of spinning; the v3 flag and a bad
 * --bot.feePayer stop the start by name.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { feeJuiceBalanceLeafSlot } from '../../src/impl/chain/protocol.ts';
import { ok, startChainNode, waitFor } from './node-harness.ts';
import { cleanEnv, runNode, tempDir } from './server-process-harness.ts';

type LogLine = Record<string, any> & { msg: string };
const logLines = (stderr: string): LogLine[] =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);
const linesOf = (stderr: string, msg: string) => logLines(stderr).filter((l) => l.msg === msg);
const genesisNow = () => Math.floor(Date.now() / 1000) - 5;

/** Txs in blocks 1..tip, with the effects of the last ones. */
async function minedTxs(url: string): Promise<{ count: number; blocksWithTxs: number; effects: any[] }> {
  const tip = await ok<number>(url, 'node_getBlockNumber');
  if (tip === 0) return { count: 0, blocksWithTxs: 0, effects: [] };
  const blocks = await ok<any[]>(url, 'node_getBlocks', 1, Math.min(tip, 50));
  const effects = blocks.flatMap((b) => b.body.txEffects);
  return { count: effects.length, blocksWithTxs: blocks.filter((b) => b.body.txEffects.length > 0).length, effects };
}

describe('node process: the tx bot', { timeout: 120_000 }, () => {
  it('--bot.enabled --bot.txsPerSecond 5: blocks fill with its txs, report lines count them, a summary on SIGTERM', async () => {
    const node = await startChainNode(await tempDir(), genesisNow(), [
      '--bot.enabled',
      '--bot.txsPerSecond',
      '5',
      '--bot.reportIntervalSeconds',
      '1',
      '--bot.noteHashesPerTx',
      '3',
      '--bot.privateLogsPerTx',
      '2',
      '--bot.minFeePadding',
      '0.5',
    ]);
    try {
      const url = node.publicUrl;
      const started = linesOf(node.stderr(), 'bot started')[0];
      assert.ok(started, 'a "bot started" line');
      assert.equal(started.target, 'in-process');
      assert.deepEqual(started.feePayers, ['0x1001', '0x1002', '0x1003']);

      const first = await waitFor('a block with bot txs', async () =>
        (await minedTxs(url)).count > 0 ? minedTxs(url) : undefined,
      );
      const later = await waitFor('more mined bot txs', async () => {
        const m = await minedTxs(url);
        return m.count >= first.count + 8 && m.blocksWithTxs >= 3 ? m : undefined;
      });
      assert.ok(later.blocksWithTxs > first.blocksWithTxs, 'blocks with txs keep coming');
      // Every tx has the configured shape: 1 nullifier, 3 note hashes, 2 private logs; a fee was paid.
      for (const e of later.effects) {
        assert.equal(e.nullifiers.length, 1);
        assert.equal(e.noteHashes.length, 3);
        assert.equal(e.privateLogs.length, 2);
        assert.ok(BigInt(e.transactionFee) > 0n);
      }
      assert.equal(new Set(later.effects.map((e) => e.nullifiers[0])).size, later.effects.length, 'unique nullifiers');
      assert.ok(
        (await ok<number>(url, 'node_getPendingTxCount')) <= 10,
        'the pool does not pile up: the sequencer keeps up at 5/s',
      );

      const reports = await waitFor('two report lines', async () => {
        const r = linesOf(node.stderr(), 'bot report');
        return r.length >= 2 ? r : undefined;
      });
      const last = reports.at(-1)!;
      assert.deepEqual(last.rejected, {});
      // The bot sends one tx at a time and counts it sent before the answer: a report can fall while it is in flight.
      assert.ok(
        last.sent - last.accepted <= 1 && last.accepted <= last.sent,
        `accepted ${last.accepted} of ${last.sent} sent`,
      );
      assert.ok(last.mined > 0 && last.mined <= last.accepted);
      // Never more than 5 a second, between two report lines and over the whole run (plus the first, at
      // once). Only the upper bound is checked here: a busy machine may slow the bot, never speed it up.
      // That the schedule holds its rate (no lateness drift, no burst after a stall) is checked on a manual
      // clock in test/unit/bot/rate-limiter.test.ts.
      const sinceLast = (Date.parse(last.time) - Date.parse(reports.at(-2)!.time)) / 1000;
      assert.ok(
        last.sentSinceLast <= Math.max(8, Math.ceil(sinceLast * 5) + 1),
        `at most 5 a second, got ${last.sentSinceLast} in ${sinceLast} s`,
      );
      const seconds = (Date.parse(last.time) - Date.parse(started.time)) / 1000;
      assert.ok(last.sent <= Math.ceil(seconds * 5) + 1, `${last.sent} sent in ${seconds} s`);

      assert.equal(await node.stop('SIGTERM'), 0);
      const summary = linesOf(node.stderr(), 'bot stopped')[0];
      assert.ok(summary, 'a "bot stopped" summary');
      assert.ok(summary.sent >= last.sent && summary.mined >= last.mined);
      assert.equal(summary.sent, summary.accepted);
      assert.ok(
        logLines(node.stderr()).findIndex((l) => l.msg === 'bot stopped') <
          logLines(node.stderr()).findIndex((l) => l.msg === 'stopped'),
        'the bot stops before the node',
      );
    } finally {
      await node.stop('SIGKILL');
    }
  });

  it('--bot.url: a second node drives the first one over its public RPC, paying with --bot.feePayer', async () => {
    const genesis = genesisNow();
    const target = await startChainNode(await tempDir(), genesis);
    const driver = await startChainNode(await tempDir(), genesis, [
      '--bot.enabled',
      '--bot.url',
      target.publicUrl,
      '--bot.txsPerSecond',
      '5',
      '--bot.reportIntervalSeconds',
      '1',
      '--bot.feePayer',
      '0x1003',
    ]);
    try {
      const mined = await waitFor('bot txs mined on the target', async () => {
        const m = await minedTxs(target.publicUrl);
        return m.count >= 5 ? m : undefined;
      });
      assert.equal(mined.effects[0].privateLogs.length, 1, 'default shape: one private log');
      const report = await waitFor('a report with mined txs', async () =>
        linesOf(driver.stderr(), 'bot report').find((l) => l.mined > 0),
      );
      assert.equal(report.target, target.publicUrl);
      assert.deepEqual(linesOf(driver.stderr(), 'bot started')[0]!.feePayers, ['0x1003']);
      // The driver's own chain gets none of them.
      assert.equal(await ok<number>(driver.publicUrl, 'node_getBlockNumber'), 0);
      assert.equal(await ok<number>(driver.publicUrl, 'node_getPendingTxCount'), 0);
      // The fees came out of 0x1003's FeeJuice balance on the target (its balance leaf is written).
      const payerSlot = feeJuiceBalanceLeafSlot(0x1003n);
      for (const e of mined.effects) {
        assert.ok(BigInt(e.transactionFee) > 0n);
        assert.ok(
          e.publicDataWrites.some((w: { leafSlot: string }) => BigInt(w.leafSlot) === payerSlot),
          'the fee payer is 0x1003',
        );
      }
      assert.equal(await driver.stop('SIGTERM'), 0);
      assert.ok(linesOf(driver.stderr(), 'bot stopped')[0]!.mined >= 1);
    } finally {
      await driver.stop('SIGKILL');
      await target.stop('SIGKILL');
    }
  });

  it('a full pool (LOW_PRIORITY_FEE) makes the bot back off, not spin', async () => {
    const node = await startChainNode(await tempDir(), genesisNow(), [
      '--sequencer=false',
      '--max-pending-tx-count',
      '3',
      '--bot.enabled',
      '--bot.txsPerSecond',
      '50',
      '--bot.reportIntervalSeconds',
      '1',
    ]);
    try {
      const warning = await waitFor('the back-off warning', async () => linesOf(node.stderr(), 'bot backing off')[0]);
      assert.equal(warning.level, 'warn');
      assert.equal(warning.code, 'LOW_PRIORITY_FEE');
      assert.equal(await ok<number>(node.publicUrl, 'node_getPendingTxCount'), 3);
      await new Promise((r) => setTimeout(r, 2500));
      const report = linesOf(node.stderr(), 'bot report').at(-1)!;
      assert.equal(report.backingOff, true);
      assert.equal(report.accepted, 3);
      // At 50/s without backing off this would be over a hundred; with 1 s + 2 s waits it is a handful.
      assert.ok(report.sent <= 8, `sent ${report.sent}`);
      assert.equal(report.rejected.LOW_PRIORITY_FEE, report.sent - 3);
      assert.equal(
        linesOf(node.stderr(), 'bot backing off').filter((l) => l.level === 'warn').length,
        1,
        'one warning per episode',
      );
    } finally {
      await node.stop('SIGTERM');
    }
  });

  it('the v3 --bot.baseFeePadding / BOT_BASE_FEE_PADDING and a bad --bot.feePayer stop the start by name', async () => {
    const cwd = await tempDir();
    const flag = await runNode(['--bot.baseFeePadding', '0.5'], { cwd });
    assert.equal(flag.code, 1);
    assert.match(flag.stderr, /--bot\.baseFeePadding was removed in v4\.0\.0; use --bot\.minFeePadding instead/);
    const env = await runNode([], { cwd, env: cleanEnv({ BOT_BASE_FEE_PADDING: '0.5' }) });
    assert.equal(env.code, 1);
    assert.match(env.stderr, /BOT_BASE_FEE_PADDING was removed in v4\.0\.0; use BOT_MIN_FEE_PADDING instead/);
    const rate = await runNode(['--bot.txsPerSecond', '0'], { cwd });
    assert.equal(rate.code, 1);
    assert.match(rate.stderr, /invalid value \\"0\\" for --bot\.txsPerSecond: must be >= 0\.01/);
    const payer = await runNode(
      [
        '--data-directory',
        '',
        '--port',
        '0',
        '--admin-port',
        '0',
        '--no-admin-api-key',
        '--bot.enabled',
        '--bot.feePayer',
        '1003',
      ],
      { cwd },
    );
    assert.equal(payer.code, 1);
    assert.match(payer.stderr, /invalid value \\"1003\\" for --bot\.feePayer: must be 0x/);
  });
});
