/** The journaled overlay: nested checkpoints, rollback, squashing, and async sources. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JournaledState } from '../../../src/impl/execution/journaled-state.ts';
import { MemoryStateSource } from '../../../src/impl/execution/memory-state-source.ts';
import { executePublicCall } from '../../../src/impl/execution/interpreter.ts';
import { assembleCounter } from '../../../src/impl/contracts/examples/counter.ts';
import { computePublicDataLeafSlot, siloNullifier } from '../../../src/impl/contracts/siloing.ts';
import { calldataFor, ENV, BIG_GAS } from './vm-harness.ts';
import type { PublicStateSource } from '../../../src/impl/execution/types.ts';

describe('JournaledState', () => {
  it('a rolled-back inner level restores overwritten values; the outer level keeps its own', async () => {
    const j = new JournaledState(new MemoryStateSource());
    j.checkpoint();
    j.writeStorage(1n, 1n, 10n);
    j.checkpoint();
    j.writeStorage(1n, 1n, 20n);
    j.writeStorage(1n, 2n, 30n);
    await j.emitNullifier(1n, 5n);
    assert.equal(await j.readStorage(1n, 1n), 20n);
    j.rollback();
    assert.equal(await j.readStorage(1n, 1n), 10n);
    assert.equal(await j.readStorage(1n, 2n), 0n);
    assert.equal(await j.nullifierExists(1n, 5n), false);
    j.commit();
    assert.deepEqual(j.effects().publicDataWrites, [{ leafSlot: computePublicDataLeafSlot(1n, 1n), value: 10n }]);
    assert.equal(j.depth, 0);
  });
  it('public data writes are squashed to the last value, in order of first write', () => {
    const j = new JournaledState(new MemoryStateSource());
    j.writeStorage(1n, 1n, 1n);
    j.writeStorage(1n, 2n, 2n);
    j.writeStorage(1n, 1n, 3n);
    assert.deepEqual(
      j.effects().publicDataWrites.map((w) => w.value),
      [3n, 2n],
    );
  });
  it('commit or rollback without a checkpoint throws', () => {
    const j = new JournaledState(new MemoryStateSource());
    assert.throws(() => j.commit(), /without checkpoint/);
    assert.throws(() => j.rollback(), /without checkpoint/);
  });
  it('the VM runs over a source that answers with promises', async () => {
    const mem = new MemoryStateSource();
    mem.deploy(0x200n, assembleCounter().bytecode);
    mem.setStorage(0x200n, 1n, 41n);
    mem.nullifiers.add(siloNullifier(0x200n, 1n));
    const asyncSource: PublicStateSource = {
      readPublicData: async (s) => mem.readPublicData(s),
      hasNullifier: async (n) => mem.hasNullifier(n),
      getContract: async (a) => mem.getContract(a),
    };
    const host = new JournaledState(asyncSource);
    const r = await executePublicCall({
      contractAddress: 0x200n,
      sender: 1n,
      calldata: calldataFor('increment()'),
      isStaticCall: false,
      gasLimit: BIG_GAS,
      host,
      env: ENV,
    });
    assert.deepEqual(r.returnValues, [42n]);
    assert.equal(await host.emitNullifier(0x200n, 1n), false);
  });
});
