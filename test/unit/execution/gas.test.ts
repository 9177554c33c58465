/** Gas metering: per-instruction L2 gas, DA gas for state, out-of-gas. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DA_GAS_PER_FIELD, L2_GAS_PER_FIELD, OPCODES_BY_NAME } from '../../../src/impl/execution/opcodes.ts';
import { runMain } from './vm-harness.ts';

const gasOf = (...names: string[]) => names.reduce((sum, n) => sum + OPCODES_BY_NAME.get(n)!.l2Gas, 0);
const ARITH = 'SET m0, 1\nSET m1, 2\nADD m2, m0, m1\nMUL m3, m2, m2\nRETURN m3, 1';
const ARITH_GAS = gasOf('SET', 'SET', 'ADD', 'MUL', 'RETURN');

describe('gas accounting', () => {
  it('L2 gas used is the sum of the table costs of the executed instructions', async () => {
    const r = await runMain(ARITH);
    assert.equal(r.reverted, false);
    assert.deepEqual(r.gasUsed, { l2Gas: ARITH_GAS, daGas: 0 });
    assert.equal(r.instructions, 5);
  });
  it('a loop is charged per iteration', async () => {
    const once = await runMain('SET m0, 1\nSET m1, 1\nloop:\nSUB m0, m0, m1\nJUMPI m0, loop\nRETURN m0, 0');
    const thrice = await runMain('SET m0, 3\nSET m1, 1\nloop:\nSUB m0, m0, m1\nJUMPI m0, loop\nRETURN m0, 0');
    assert.equal(thrice.gasUsed.l2Gas - once.gasUsed.l2Gas, 2 * gasOf('SUB', 'JUMPI'));
  });
  it('SSTORE costs DA gas for two fields; a log for its fields plus two', async () => {
    const r = await runMain('SET m0, 1\nSSTORE m0, m0\nEMITLOG m0, 3\nRETURN m0, 0');
    assert.equal(r.gasUsed.daGas, (2 + 5) * DA_GAS_PER_FIELD);
    assert.equal(r.gasUsed.l2Gas, gasOf('SET', 'SSTORE', 'EMITLOG', 'RETURN') + 3 * L2_GAS_PER_FIELD);
  });
  it('exactly enough L2 gas succeeds', async () => {
    const r = await runMain(ARITH, [], { gasLimit: { l2Gas: ARITH_GAS, daGas: 0 } });
    assert.equal(r.reverted, false);
  });
  it('one L2 gas short reverts "Out of L2 gas" and consumes the whole limit', async () => {
    const r = await runMain(ARITH, [], { gasLimit: { l2Gas: ARITH_GAS - 1, daGas: 0 } });
    assert.equal(r.reverted, true);
    assert.equal(r.revert!.message, 'Out of L2 gas');
    assert.deepEqual(r.gasUsed, { l2Gas: ARITH_GAS - 1, daGas: 0 });
  });
  it('too little DA gas for a write reverts "Out of DA gas" and discards the write', async () => {
    const r = await runMain('SET m0, 1\nSSTORE m0, m0\nRETURN m0, 0', [], {
      gasLimit: { l2Gas: 10_000, daGas: 2 * DA_GAS_PER_FIELD - 1 },
    });
    assert.equal(r.revert!.message, 'Out of DA gas');
    assert.deepEqual(r.world.host.effects().publicDataWrites, []);
  });
  it('an infinite loop ends by running out of gas', async () => {
    const r = await runMain('loop:\nJUMP loop', [], { gasLimit: { l2Gas: 1000, daGas: 0 } });
    assert.equal(r.revert!.message, 'Out of L2 gas');
    assert.equal(r.instructions, Math.floor(1000 / gasOf('JUMP')));
  });
  it('an explicit revert keeps the unused gas', async () => {
    const r = await runMain('REVERT m0, 0', [], { gasLimit: { l2Gas: 1000, daGas: 100 } });
    assert.deepEqual(r.gasUsed, { l2Gas: gasOf('REVERT'), daGas: 0 });
  });
});

describe('a long run shares the event loop', () => {
  it('an out-of-gas loop of millions of instructions lets other work run between its turns', async () => {
    const turns: number[] = [];
    let running = true;
    // Counts event-loop turns that happen while the call runs; a run that never yields sees none.
    const tick = () => {
      if (running) {
        turns.push(turns.length);
        setImmediate(tick);
      }
    };
    setImmediate(tick);
    const r = await runMain('loop:\nJUMP loop', [], { gasLimit: { l2Gas: 2 * 1_000_000, daGas: 0 } });
    running = false;
    assert.equal(r.reverted, true);
    assert.equal(r.instructions, 1_000_000);
    // 1M instructions at 65 536 a turn: at least 15 turns for others.
    assert.ok(turns.length >= 15, `turns seen: ${turns.length}`);
  });
});
