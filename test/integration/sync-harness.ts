/**
 * Harness of the follower tests: a proposer (rpc-public-harness: dev engine on a ManualClock
 * behind a real HTTP server) that builds blocks with txs, a follower engine with the same
 * genesis and no sequencer, a tampering proxy, and comparisons of what both nodes serve.
 * @module
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEngine } from '../../src/impl/engine.ts';
import type { Engine } from '../../src/impl/engine.ts';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { toWireBlock } from '../../src/impl/encoding/wire/blocks.ts';
import { ALL_TREE_IDS } from '../../src/impl/world-state/constants.ts';
import { FEE_RECIPIENT, GENESIS, minableTx, nextSlot, PAYER, SLOT_MS } from './rpc-public-harness.ts';
import type { RpcNode } from './rpc-public-harness.ts';

/** A follower engine with the proposer's genesis and chain settings (never ticked: no sequencer). */
export async function followerEngine(dataDirectory = ''): Promise<Engine> {
  return createEngine({
    dataDirectory,
    clock: new ManualClock(Number(GENESIS) * 1000),
    genesisTime: GENESIS,
    slotDurationSeconds: SLOT_MS / 1000,
    slotsPerEpoch: 2,
    l1BlockSeconds: 4,
    proofDelaySeconds: 4,
    finalityDepth: 1,
    buildEmptyBlocks: true,
    feeRecipient: FEE_RECIPIENT,
    fundedAccounts: [{ address: PAYER, amount: 10n ** 30n }],
  });
}

let seed = 1;

/**
 * Builds blocks on the proposer: per slot, a block with `txsPerBlock` txs and a second one with
 * one tx (two blocks per checkpoint), until `count` more blocks exist. Returns the mined tx hashes.
 */
export async function buildBlocks(node: RpcNode, count: number, txsPerBlock = 2): Promise<bigint[]> {
  const target = (await node.engine.chain.getBlockNumber()) + count;
  const hashes: bigint[] = [];
  const add = (k: number) => {
    for (let i = 0; i < k; i++) {
      const tx = minableTx(seed++);
      node.txSource.add(tx);
      hashes.push(tx.txHash);
    }
  };
  while ((await node.engine.chain.getBlockNumber()) < target) {
    add(txsPerBlock);
    await nextSlot(node);
    if ((await node.engine.chain.getBlockNumber()) < target) {
      add(1);
      await node.engine.tick();
    }
  }
  return hashes;
}

/** Asserts both engines serve the same tips, blocks, checkpoints, tree roots and receipts. */
export async function assertSameChain(a: Engine, b: Engine, txHashes: readonly bigint[] = []): Promise<void> {
  const tip = await a.chain.getBlockNumber();
  assert.equal(await b.chain.getBlockNumber(), tip);
  assert.deepEqual(await b.chain.getL2Tips(), await a.chain.getL2Tips(), 'tips');
  const wire = async (e: Engine) => (await e.chain.blocksFrom(1, tip)).map(toWireBlock);
  assert.deepEqual(await wire(b), await wire(a), 'blocks');
  for (let n = 0; n <= tip; n++)
    assert.equal((await b.chain.findBlock(n))!.hash, (await a.chain.findBlock(n))!.hash, `hash of block ${n}`);
  for (const t of ALL_TREE_IDS)
    assert.deepEqual(
      await b.worldState.getTreeSnapshot(t, tip),
      await a.worldState.getTreeSnapshot(t, tip),
      `tree ${t}`,
    );
  const cps = async (e: Engine) => e.checkpoints.checkpointsFrom(1, 10_000);
  assert.deepEqual(await cps(b), await cps(a), 'checkpoints');
  const lastCp = (await a.checkpoints.latestCheckpoint())?.number ?? 0;
  for (let ep = 0; ep <= lastCp; ep++)
    assert.deepEqual(await b.l1.outHashesOfEpoch(ep), await a.l1.outHashesOfEpoch(ep), `out hashes of epoch ${ep}`);
  for (const h of txHashes)
    assert.deepEqual(await b.chain.getTxReceipt(h), await a.chain.getTxReceipt(h), `receipt ${h}`);
}

/** Waits until `cond` holds (polling), failing after `ms`. */
export async function waitFor(cond: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A JSON-RPC proxy in front of `target` that lets the test rewrite response bodies. */
export async function startProxy(target: string, rewrite: (method: string, params: unknown[], result: any) => any) {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const reqJson = JSON.parse(body);
    const resJson = (await upstream.json()) as { result?: unknown };
    if (!Array.isArray(reqJson) && resJson.result !== undefined)
      resJson.result = rewrite(reqJson.method, reqJson.params ?? [], resJson.result);
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(resJson));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
