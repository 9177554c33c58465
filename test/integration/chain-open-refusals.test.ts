/**
 * `ChainState.open` refuses a database whose chain tables and trees disagree (docs/WORLD-STATE.md,
 * "One transaction per block, with the chain"): chain tables ending at another block than the
 * world state, or a latest block whose hash differs from the one the trees applied. Each case
 * writes a consistent chain, breaks one side behind the engine's back, and reopens.
 * @module
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { openDatabase } from '../../src/impl/store/database.ts';
import { devEngine, GENESIS, syntheticTx } from './chain-helpers.ts';

/** A SQLite data directory holding blocks 1 and 2, written by a dev engine that was then stopped. */
async function twoBlockChain(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'l2node-open-refusal-'));
  const clock = new ManualClock(Number(GENESIS) * 1000);
  const { engine, txSource } = await devEngine(clock, { dataDirectory: dir });
  for (const seed of [1, 2]) {
    txSource.add(syntheticTx(seed));
    clock.advance(4000);
    await engine.tick();
  }
  assert.equal(await engine.chain.getBlockNumber(), 2);
  await engine.stop();
  return dir;
}

async function tamper(
  dir: string,
  change: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<unknown>,
): Promise<void> {
  const db = await openDatabase({ dataDirectory: dir });
  try {
    await change(db);
  } finally {
    await db.destroy();
  }
}

describe('ChainState.open refuses chain tables out of step with the trees', () => {
  it('a consistent database opens (the baseline the refusals are measured against)', async () => {
    const dir = await twoBlockChain();
    const { engine } = await devEngine(new ManualClock(Number(GENESIS) * 1000), { dataDirectory: dir });
    assert.equal(await engine.chain.getBlockNumber(), 2);
    await engine.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('chain tables ending below the world state: refused, naming both blocks', async () => {
    const dir = await twoBlockChain();
    await tamper(dir, (db) => db('chain_blocks').where({ number: 2 }).delete());
    await assert.rejects(
      devEngine(new ManualClock(Number(GENESIS) * 1000), { dataDirectory: dir }),
      /chain tables end at block 1 but the world state at 2/,
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it('a latest block whose stored hash is not the one the trees applied: refused', async () => {
    const dir = await twoBlockChain();
    await tamper(dir, async (db) => {
      const first = await db('chain_blocks').where({ number: 1 }).first('data');
      await db('chain_blocks').where({ number: 2 }).update({ data: first.data });
    });
    await assert.rejects(
      devEngine(new ManualClock(Number(GENESIS) * 1000), { dataDirectory: dir }),
      /block 2: chain hash 0x[0-9a-f]{64} differs from the world state's 0x[0-9a-f]{64}/,
    );
    rmSync(dir, { recursive: true, force: true });
  });
});
