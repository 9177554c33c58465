import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BlockImportError, importBlock, importCheckpoint } from '../../../src/impl/chain/block-import.ts';
import { ManualClock } from '../../../src/impl/chain/time.ts';
import type { L2Block } from '../../../src/impl/chain/types.ts';
import { hashBlockHeader } from '../../../src/impl/world-state/block-header.ts';
import { devEngine, GENESIS, syntheticTx } from '../../integration/chain-helpers.ts';

const RULES = { chainId: 31337n, version: 1n };

/** A proposer with 4 blocks (two checkpoints sealed) and an empty follower of the same genesis. */
async function setup() {
  const clock = new ManualClock(Number(GENESIS) * 1000);
  const { engine: proposer, txSource } = await devEngine(clock);
  for (let slot = 1, seed = 1; slot <= 3; slot++) {
    txSource.add(syntheticTx(seed++));
    clock.advance(4000);
    await proposer.tick();
    if (slot < 3) {
      txSource.add(syntheticTx(seed++));
      await proposer.tick();
    }
  }
  const { engine: follower } = await devEngine(new ManualClock(Number(GENESIS) * 1000));
  return {
    proposer,
    follower,
    blocks: await proposer.chain.blocksFrom(1, 10),
    stop: async () => {
      await proposer.stop();
      await follower.stop();
    },
  };
}

const refused = (n: number, reason: RegExp) => (e: unknown) =>
  e instanceof BlockImportError && e.number === n && reason.test(e.message);

describe('importBlock / importCheckpoint', () => {
  it('imports verified blocks and refuses each kind of tampering, leaving nothing behind', async (t) => {
    const { follower, blocks, stop } = await setup();
    t.after(stop);
    assert.equal(blocks.length, 5);
    const b1 = blocks[0]!;
    const edit = (b: L2Block, f: (e: any) => void): L2Block => {
      const c = structuredClone(b) as any;
      f(c);
      return c;
    };
    const st = follower.state;
    await assert.rejects(importBlock(st, follower.txSource, blocks[1]!, RULES), refused(2, /expected block 1/));
    await assert.rejects(
      importBlock(st, follower.txSource, b1, { ...RULES, chainId: 1n }),
      refused(1, /chain id 31337 \/ version 1, this node runs 1 \/ 1/),
    );
    await assert.rejects(
      importBlock(
        st,
        follower.txSource,
        edit(b1, (c) => {
          c.body.txEffects[0].nullifiers[1] = 0x999n;
        }),
        RULES,
      ),
      refused(1, /header does not match the world state: nullifierTree$/),
    );
    await assert.rejects(
      importBlock(
        st,
        follower.txSource,
        edit(b1, (c) => {
          c.body.txEffects[0].publicDataWrites[0].value += 1n;
        }),
        RULES,
      ),
      refused(1, /: publicDataTree$/),
    );
    await assert.rejects(
      importBlock(
        st,
        follower.txSource,
        edit(b1, (c) => {
          c.header.totalFees += 1n;
        }),
        RULES,
      ),
      refused(1, /block hash 0x[0-9a-f]{64} differs/),
    );
    const feesAndHash = edit(b1, (c) => {
      c.header.totalFees += 1n;
      c.hash = hashBlockHeader(c.header);
    });
    await assert.rejects(
      importBlock(st, follower.txSource, feesAndHash, RULES),
      refused(1, /archive root 0x[0-9a-f]{64} \(size 2\) differs/),
    );
    await assert.rejects(
      importBlock(
        st,
        follower.txSource,
        edit(b1, (c) => {
          c.header.state.l1ToL2MessageTree.nextAvailableLeafIndex = 5;
        }),
        RULES,
      ),
      refused(1, /grew by 5 leaves/),
    );
    assert.equal(await st.latestBlockNumber(), 0);
    assert.equal(await follower.worldState.getLatestBlockNumber(), 0);
    assert.equal(await st.store.findTxLocation(b1.body.txEffects[0]!.txHash), undefined);
    for (const b of blocks) assert.equal((await importBlock(st, follower.txSource, b, RULES)).hash, b.hash);
    assert.equal(await st.latestBlockNumber(), 5);
  });

  it('imports checkpoints only over held blocks and with a header that matches them', async (t) => {
    const { proposer, follower, blocks, stop } = await setup();
    t.after(stop);
    const cps = await proposer.checkpoints.checkpointsFrom(1, 10);
    assert.equal(cps.length, 2);
    const [cp1, cp2] = cps as [(typeof cps)[0], (typeof cps)[0]];
    const { state, l1, time } = follower;
    await importBlock(state, follower.txSource, blocks[0]!, RULES);
    await assert.rejects(
      importCheckpoint(state, l1, time, cp1, blocks.slice(0, 2)),
      (e: unknown) => e instanceof BlockImportError && /blocks 1\.\.2 are not all imported/.test(e.message),
    );
    await importBlock(state, follower.txSource, blocks[1]!, RULES);
    await assert.rejects(importCheckpoint(state, l1, time, cp2, blocks.slice(2, 4)), /expected checkpoint 1/);
    await assert.rejects(
      importCheckpoint(
        state,
        l1,
        time,
        { ...cp1, header: { ...cp1.header, blockHeadersHash: 1n, inHash: 2n } },
        blocks.slice(0, 2),
      ),
      /header does not match our blocks: blockHeadersHash, inHash$/,
    );
    await assert.rejects(
      importCheckpoint(state, l1, time, cp1, [blocks[0]!, blocks[0]!]),
      /block 2 is not the one we hold/,
    );
    await importCheckpoint(state, l1, time, cp1, blocks.slice(0, 2));
    for (const b of blocks.slice(2)) await importBlock(state, follower.txSource, b, RULES);
    await importCheckpoint(state, l1, time, cp2, blocks.slice(2, 4));
    assert.deepEqual(await state.store.checkpointsFrom(1, 10), cps);
    assert.deepEqual(
      await l1.outHashesOfEpoch(time.epochOfSlot(cp2.header.slotNumber)),
      await proposer.l1.outHashesOfEpoch(time.epochOfSlot(cp2.header.slotNumber)),
    );
  });
});
