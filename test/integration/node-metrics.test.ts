/**
 * Metrics and progress as an operator sees them: a node with `--metrics-port` and the tx bot is
 * scraped over HTTP and the text parsed with a Prometheus parser; counters move as blocks are
 * built and calls are made (an error code among them), histograms have buckets, and method names
 * outside the document all land under `unknown`. A follower started behind that node logs
 * progress lines whose remaining blocks fall, reports them in GET /status and its metrics, and
 * ends caught up. Without the flag nothing listens for metrics. `--import-chain` logs progress too.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainFlags, NodeGroup, ok, rpc, waitFor } from './node-harness.ts';
import { family, metricsUrl, sample, scrape, value } from './metrics-scrape.ts';
import { freePort } from './free-port.ts';

async function post(url: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/** The JSON log lines with message `msg`. */
function logLines(stderr: string, msg: string): any[] {
  return stderr
    .split('\n')
    .filter((l) => l.includes(`"msg":"${msg}"`))
    .map((l) => JSON.parse(l));
}

describe('metrics and sync progress', { timeout: 150_000 }, () => {
  it('counts calls, blocks and pool admissions on its own listener; a follower behind logs progress and its lag falls', async () => {
    const nodes = new NodeGroup();
    const genesis = Math.floor(Date.now() / 1000);
    // Four blocks per 1-second slot at most: the bot's 10 txs/s fill them, 2 txs each.
    const flags = [...chainFlags(genesis), '--proof-delay', '600'];
    try {
      const proposer = await nodes.start([
        '--data-directory',
        '',
        ...flags,
        '--metrics-port',
        '0',
        '--bot.enabled',
        '--bot.txsPerSecond',
        '10',
        '--max-txs-per-block',
        '2',
      ]);
      const metrics = await metricsUrl(proposer);
      assert.notEqual(new URL(metrics).port, new URL(proposer.publicUrl).port);
      // The JSON-RPC ports serve no metrics.
      assert.equal((await fetch(`${proposer.publicUrl}/metrics`)).status, 404);

      const before = await scrape(metrics);
      await ok(proposer.publicUrl, 'node_getBlockNumber');
      await ok(proposer.publicUrl, 'node_getBlockNumber');
      assert.equal((await rpc(proposer.publicUrl, 'node_getBlock', 'not-a-block')).error?.code, -32602);
      for (const name of ['bogus_one', 'node_notAMethod', 'x'.repeat(200)])
        assert.equal((await rpc(proposer.publicUrl, name)).error?.code, -32601);
      const batch = await post(
        proposer.publicUrl,
        [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'node_getChainId' })),
      );
      assert.equal(batch.status, 200);
      assert.equal(
        (await post(proposer.publicUrl, { jsonrpc: '2.0', id: 1, method: 'node_getBlockNumber', params: 'no' })).json
          .error.code,
        -32602,
      );
      const ct = await fetch(proposer.publicUrl, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{}',
      });
      assert.equal(ct.status, 415);
      await ct.text();

      // Blocks built from the bot's txs.
      await waitFor(
        '24 blocks',
        async () => ((await ok<number>(proposer.publicUrl, 'node_getBlockNumber')) >= 24 ? true : undefined),
        60_000,
      );
      const after = await scrape(metrics);

      const calls = (m: typeof after, method: string, outcome: string) =>
        value(m, 'l2node_rpc_requests_total', { surface: 'public', method, outcome });
      assert.ok(calls(after, 'node_getBlockNumber', 'ok') >= calls(before, 'node_getBlockNumber', 'ok') + 2);
      assert.ok(calls(after, 'node_getBlock', '-32602') >= 1, 'an error code is an outcome');
      assert.equal(
        calls(after, 'unknown', '-32601') - calls(before, 'unknown', '-32601'),
        3,
        'every unknown name is counted under one label',
      );
      assert.equal(calls(after, 'node_getChainId', 'ok') - calls(before, 'node_getChainId', 'ok'), 3);
      const methodLabels = new Set(family(after, 'l2node_rpc_requests_total').samples.map((m) => m.labels.method));
      for (const name of ['bogus_one', 'node_notAMethod'])
        assert.ok(!methodLabels.has(name), `${name} made no label value`);
      assert.ok(
        [...methodLabels].every((m) => m === 'unknown' || /^(node|nodeAdmin|dev)_[A-Za-z0-9]+$/.test(m!)),
        [...methodLabels].join(','),
      );
      assert.ok(value(after, 'l2node_rpc_http_responses_total', { surface: 'public', status: '415' }) >= 1);
      assert.ok(value(after, 'l2node_rpc_batch_size', { surface: 'public' }) >= 1);
      assert.equal(value(after, 'l2node_rpc_in_flight', { surface: 'public' }), 0);

      // Latency: a histogram with buckets, its +Inf bucket holding every call.
      assert.equal(family(after, 'l2node_rpc_request_duration_seconds').type, 'histogram');
      const blockNumberLatency = sample(after, 'l2node_rpc_request_duration_seconds', {
        surface: 'public',
        method: 'node_getBlockNumber',
      })!;
      assert.ok(Object.keys(blockNumberLatency.buckets!).length >= 10);
      assert.equal(blockNumberLatency.buckets!['+Inf'], blockNumberLatency.count);
      assert.ok(blockNumberLatency.count! >= 2);

      // Chain, pool, storage, process.
      assert.ok(value(after, 'l2node_blocks_built_total') >= 24);
      assert.ok(value(after, 'l2node_blocks_built_total') > value(before, 'l2node_blocks_built_total'));
      const build = sample(after, 'l2node_block_build_duration_seconds')!;
      assert.ok(build.count! >= 24 && build.buckets!['+Inf'] === build.count);
      // The longest event-loop stall of each built block: one observation per block, each above zero.
      const stall = sample(after, 'l2node_block_build_event_loop_stall_seconds')!;
      assert.equal(stall.count, build.count);
      assert.ok(stall.sum! > 0 && stall.buckets!['0.02'] !== undefined);
      assert.ok(sample(after, 'l2node_block_txs', { origin: 'built' })!.sum! >= 24, "the bot's txs are in the blocks");
      assert.ok(value(after, 'l2node_chain_tip_block_number', { tip: 'proposed' }) >= 24);
      assert.ok(value(after, 'l2node_chain_tip_checkpoint_number', { tip: 'checkpointed' }) >= 1);
      assert.ok(
        value(after, 'l2node_txpool_admitted_total') >= sample(after, 'l2node_block_txs', { origin: 'built' })!.sum!,
        'every mined tx was admitted first',
      );
      assert.ok(value(after, 'l2node_txpool_pending_bytes') >= 0);
      // The caches' fill: the world state cached the nodes its blocks wrote, at ~128 bytes each.
      const nodeHashes = value(after, 'l2node_cache_entries', { cache: 'world_state_nodes' });
      assert.ok(nodeHashes > 0);
      assert.equal(value(after, 'l2node_cache_bytes', { cache: 'world_state_nodes' }), nodeHashes * 128);
      for (const cache of ['answers_pinned', 'answers_tip', 'decoded_blocks'])
        assert.ok(sample(after, 'l2node_cache_bytes', { cache }) !== undefined, `${cache} has a gauge`);
      assert.ok(value(after, 'l2node_min_fee_per_gas', { gas: 'l2' }) > 0);
      assert.equal(value(after, 'l2node_db_info', { engine: 'sqlite' }), 1);
      assert.equal(value(after, 'l2node_db_connected'), 1);
      assert.ok(value(after, 'l2node_db_query_duration_seconds') > 0);
      assert.ok(value(after, 'process_resident_memory_bytes') > 0);
      assert.ok(family(after, 'nodejs_eventloop_lag_seconds'));

      // A follower started behind: progress lines while it catches up, then caught up.
      const follower = await nodes.start([
        '--data-directory',
        '',
        ...flags,
        '--follow',
        proposer.publicUrl,
        '--metrics-port',
        '0',
        '--progress-interval-seconds',
        '0.01',
      ]);
      const followerMetrics = await metricsUrl(follower);
      await waitFor(
        'follower caught up',
        async () => (logLines(follower.stderr(), 'follower: caught up').length > 0 ? true : undefined),
        60_000,
      );
      const progress = logLines(follower.stderr(), 'follower: catching up');
      assert.ok(progress.length >= 2, `progress lines while catching up:\n${follower.stderr()}`);
      for (const line of progress) {
        assert.equal(typeof line.blocksPerSecond, 'number');
        assert.ok(line.target >= 24 && line.done <= line.target, JSON.stringify(line));
        assert.ok('etaSeconds' in line && 'percent' in line);
      }
      const first = progress[0]!,
        last = progress[progress.length - 1]!;
      assert.ok(last.done > first.done, 'done grows');
      assert.ok(
        last.target - last.done < first.target - first.done,
        `the lag falls: ${first.target - first.done} then ${last.target - last.done}`,
      );
      const status = (await (await fetch(`${follower.publicUrl}/status`)).json()) as any;
      assert.equal(typeof status.follow.lagSeconds, 'number');
      assert.equal(typeof status.follow.behindBlocks, 'number');
      const f = await scrape(followerMetrics);
      assert.ok(value(f, 'l2node_blocks_imported_total') >= 24);
      assert.ok(value(f, 'l2node_block_apply_duration_seconds') >= 24);
      assert.equal(value(f, 'l2node_blocks_built_total'), 0);
      assert.ok(value(f, 'l2node_sync_behind_blocks') < first.target - first.done);

      // Without --metrics-port nothing listens for metrics.
      const port = await freePort();
      const plain = await nodes.start(['--data-directory', '', ...flags]);
      assert.ok(!plain.stderr().includes('metrics listening'));
      await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`), (err: Error) =>
        /ECONNREFUSED/.test(String((err.cause as Error)?.message ?? err.cause)),
      );
      assert.equal((await fetch(`${plain.publicUrl}/metrics`)).status, 404);
      assert.equal((await fetch(`${plain.adminUrl}/metrics`)).status, 404);
    } finally {
      await nodes.stopAll();
    }
  });

  it('--import-chain logs progress lines while it imports the file', async () => {
    const nodes = new NodeGroup();
    try {
      const chainFile = new URL('../conformance/chain/chain.json', import.meta.url).pathname;
      const node = await nodes.start([
        '--import-chain',
        chainFile,
        '--data-directory',
        '',
        '--no-admin-api-key',
        '--progress-interval-seconds',
        '0.01',
      ]);
      const lines = logLines(node.stderr(), 'chain file: importing blocks');
      const imported = logLines(node.stderr(), 'chain file imported')[0];
      assert.ok(imported !== undefined);
      assert.ok(lines.length >= 2, `progress lines:\n${node.stderr()}`);
      for (const l of lines)
        assert.ok(
          l.target === imported.blocks &&
            l.done <= l.target &&
            typeof l.blocksPerSecond === 'number' &&
            'etaSeconds' in l,
          JSON.stringify(l),
        );
      assert.ok(lines[lines.length - 1].done > lines[0].done);
    } finally {
      await nodes.stopAll();
    }
  });
});
