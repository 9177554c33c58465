/**
 * Child process of the engine crash test: opens a dev engine in the given directory, mines tx 1
 * in block 1 (slot 1), then in slot 2 seals checkpoint 1 and starts block 2 with tx 2, printing
 * READY from inside block 2's transaction — after the tree rows and the chain rows are written,
 * before the commit — and waits there to be killed.
 * @module
 */
import { ManualClock } from '../../src/impl/chain/time.ts';
import type { ChainStore } from '../../src/impl/chain/chain-store.ts';
import { devEngine, GENESIS, syntheticTx } from './chain-helpers.ts';

const clock = new ManualClock(Number(GENESIS) * 1000);
const { engine, txSource } = await devEngine(clock, { dataDirectory: process.argv[2]! });
txSource.add(syntheticTx(1));
clock.advance(4000);
await engine.tick();
const store = engine.state.store as ChainStore & { saveBlock: ChainStore['saveBlock'] };
const save = store.saveBlock.bind(store);
store.saveBlock = async (trx, w) => {
  await save(trx, w);
  process.stdout.write('READY\n');
  await new Promise(() => {});
};
txSource.add(syntheticTx(2));
clock.advance(4000);
await engine.tick();
