/**
 * Engine-level crash safety: a node SIGKILLed inside a block's transaction (trees and chain rows
 * written, not committed) restarts at the previous block everywhere — tips, latest block, tree
 * roots, receipts, message placement — and builds the next block on it.
 * @module
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { TreeId } from '../../src/impl/world-state/constants.ts';
import { devEngine, GENESIS, syntheticTx } from './chain-helpers.ts';

test('SIGKILL in the middle of block 2 leaves block 1 everywhere; a restart builds block 2 on it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-engine-crash-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const child = spawn(process.execPath, [fileURLToPath(new URL('./chain-crash-child.ts', import.meta.url)), dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('READY')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
  });
  child.kill('SIGKILL');
  await new Promise((r) => child.on('exit', r));

  const clock = new ManualClock(Number(GENESIS + 8n) * 1000); // slot 2, as the child was
  const { engine, txSource } = await devEngine(clock, { dataDirectory: dir });
  t.after(() => engine.stop());
  const ws = engine.worldState;
  assert.equal(await engine.chain.getBlockNumber(), 1);
  assert.equal(await ws.getLatestBlockNumber(), 1);
  const tips = await engine.chain.getL2Tips();
  assert.equal(tips.proposed.number, 1);
  assert.equal(tips.checkpointed.checkpoint.number, 1, 'checkpoint 1 was committed before block 2 started');
  assert.equal(tips.checkpointed.block.number, 1);
  const block1 = (await engine.chain.findBlock(1))!;
  assert.equal(tips.proposed.hash, block1.hash);
  assert.equal(await ws.getBlockHash(1), block1.hash);
  assert.deepEqual(await ws.getTreeSnapshot(TreeId.ARCHIVE, 'latest'), block1.archive);
  assert.deepEqual(await ws.getTreeSnapshot(TreeId.NOTE_HASH_TREE, 'latest'), block1.header.state.noteHashTree);
  assert.deepEqual(await ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, 'latest'), block1.header.state.nullifierTree);
  assert.deepEqual(await ws.getTreeSnapshot(TreeId.PUBLIC_DATA_TREE, 'latest'), block1.header.state.publicDataTree);
  assert.equal((await engine.chain.getTxReceipt(syntheticTx(1).txHash)).status, 'mined');
  assert.notEqual((await engine.chain.getTxReceipt(syntheticTx(2).txHash)).status, 'mined');
  assert.equal(await ws.getNullifierMembershipWitness('latest', 0x302n), null);
  assert.equal(engine.latestState.hasNullifier(0x302n), false);
  assert.equal(engine.latestState.hasNullifier(0x301n), true);
  assert.deepEqual(
    (await engine.chain.getLogsByTags([0x7a9n], 10))[0]!.map((l) => l.blockNumber),
    [1],
  );
  assert.equal((await engine.isReady()).worldStateAtTip, true);

  txSource.add(syntheticTx(2));
  await engine.tick();
  const block2 = (await engine.chain.findBlock(2))!;
  assert.equal(block2.header.lastArchive.root, block1.archive.root);
  assert.equal(block2.checkpointNumber, 2);
  assert.equal((await engine.chain.getTxReceipt(syntheticTx(2).txHash)).blockNumber, 2);
  assert.deepEqual(await ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, 'latest'), block2.header.state.nullifierTree);
});
