/**
 * Block application lets the event loop turn (src/impl/world-state/event-loop-budget.ts): JSON-RPC
 * requests arriving while a block's trees are hashed and written are answered in between.
 * @module
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TreeId } from '../../../src/impl/world-state/constants.ts';
import { EventLoopBudget } from '../../../src/impl/world-state/event-loop-budget.ts';
import { headerFromState, memoryWorldState, tx } from './helpers.ts';

test('EventLoopBudget: turn() yields to queued callbacks once its slice is used, not before', async () => {
  const order: string[] = [];
  const spent = new EventLoopBudget(0);
  setImmediate(() => order.push('immediate'));
  await spent.turn();
  order.push('after turn');
  assert.deepEqual(order, ['immediate', 'after turn']);

  const fresh = new EventLoopBudget(60_000);
  order.length = 0;
  setImmediate(() => order.push('immediate'));
  await fresh.turn();
  order.push('after turn');
  assert.deepEqual(order, ['after turn'], 'within the slice: no turn');
  await new Promise((r) => setImmediate(r));
});

test('EventLoopBudget: a budget made after another counts from the last turn, not from its creation', async () => {
  const first = new EventLoopBudget(0);
  await first.turn();
  const turnedAt = performance.now();
  // One stretch of work longer than the next budget's slice, spanning both budgets.
  while (performance.now() - turnedAt < 20) {
    /* work */
  }
  const order: string[] = [];
  const second = new EventLoopBudget(10);
  setImmediate(() => order.push('immediate'));
  await second.turn();
  order.push('after turn');
  assert.deepEqual(order, ['immediate', 'after turn'], 'the stretch began before `second` was made');
});

test('applying a block of 8 txs turns the event loop while it hashes and writes', async () => {
  const { ws, db } = await memoryWorldState();
  let turns = 0;
  let counting = true;
  const count = () => {
    turns++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  let seed = 1n;
  const next = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 250n) + 1n;
  const effects = Array.from({ length: 8 }, () =>
    tx({ noteHashes: Array.from({ length: 64 }, next), nullifiers: Array.from({ length: 64 }, next) }),
  );
  const before = turns;
  await ws.applyBlock({ blockNumber: 1, txEffects: effects, header: headerFromState });
  counting = false;
  // ~1 500 Poseidon2 pair hashes at tens of µs each: far more than one slice (EVENT_LOOP_SLICE_MS) on any machine.
  assert.ok(turns - before >= 2, `the event loop turned ${turns - before} times during the block`);
  // Roots are checked against the reference vectors by vectors.test.ts and scenarios.test.ts, which apply blocks the same way.
  assert.equal((await ws.getTreeSnapshot(TreeId.NULLIFIER_TREE, 1)).nextAvailableLeafIndex, 128 + 8 * 64);
  await db.destroy();
});
