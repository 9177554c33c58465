/**
 * Child process for the crash test: opens the world state in the given directory, applies block 1,
 * then starts block 2 and prints READY while block 2's transaction is open, waiting to be killed.
 * @module
 */
import { openDatabase } from '../../../src/impl/store/database.ts';
import { WorldState } from '../../../src/impl/world-state/world-state.ts';
import { emptyBlockHeader } from '../../../src/impl/world-state/block-header.ts';

const db = await openDatabase({ dataDirectory: process.argv[2]! });
const ws = await WorldState.open({ db });
const header = (ctx: { blockNumber: number; lastArchive: any; state: any }) => ({
  ...emptyBlockHeader(ctx.state),
  lastArchive: ctx.lastArchive,
}); // eslint-disable-line @typescript-eslint/no-explicit-any
await ws.applyBlock({
  blockNumber: 1,
  txEffects: [{ noteHashes: [11n], nullifiers: [1001n], publicDataWrites: [] }],
  header,
});
// Hold block 2's transaction open after its writes: the parent kills us here.
const origWrite = (ws as any).repo.writeBlock.bind((ws as any).repo); // eslint-disable-line @typescript-eslint/no-explicit-any
(ws as any).repo.writeBlock = async (trx: unknown, w: unknown) => {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  await origWrite(trx, w);
  process.stdout.write('READY\n');
  await new Promise(() => {});
};
await ws.applyBlock({
  blockNumber: 2,
  txEffects: [{ noteHashes: [22n], nullifiers: [2002n], publicDataWrites: [] }],
  header,
});
