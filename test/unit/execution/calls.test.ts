/** External calls: return data, gas forwarding, static calls, revert unwinding, depth. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_CALL_DEPTH } from '../../../src/impl/execution/opcodes.ts';
import { COUNTER_SLOT, COUNTER_SOURCE } from '../../../src/impl/contracts/examples/counter.ts';
import { functionSelectorFromSignature } from '../../../src/impl/contracts/function-selector.ts';
import { World } from './vm-harness.ts';

const COUNTER = 0x200n;
const PROXY = 0x300n;
const sel = (s: string) => functionSelectorFromSignature(s);

/** A proxy: calls counter.increment() (CALL or STATICCALL) with the gas in calldata[1], then writes slot 5. */
const PROXY_SOURCE = `
.fn forward(Field,Field)
  SET m0, 1
  CALLDATALOAD m1, m0              ; l2 gas to forward
  SET m2, 100                      ; da gas (a write needs 64)
  SET m3, ${COUNTER}
  SET m10, selector(increment())
  CALL m1, m2, m3, m10, 1, m4
  RETURNDATASIZE m5
  SET m6, 5
  SSTORE m6, m6
  RETURN m4, 2
.fn forward_static()
  SET m1, 1000000
  SET m3, ${COUNTER}
  SET m10, selector(increment())
  STATICCALL m1, m1, m3, m10, 1, m4
  RETURN m4, 1
.fn read_static()
  SET m1, 1000000
  SET m3, ${COUNTER}
  SET m10, selector(get_counter())
  STATICCALL m1, m1, m3, m10, 1, m4
  SET m0, 0
  RETURNDATALOAD m5, m0
  RETURN m4, 2
.fn write_then_rethrow()
  SET m6, 6
  SSTORE m6, m6
  SET m1, 1000000
  SET m3, ${PROXY}
  SET m10, selector(fail())
  CALL m1, m1, m3, m10, 1, m4
  RETHROW
.fn fail()
  SET m6, 7
  SSTORE m6, m6
  ASSERT m0, "inner failure"
.fn recurse()
  SET m1, 100000000
  SET m3, ${PROXY}
  SET m10, selector(recurse())
  CALL m1, m1, m3, m10, 1, m4
  RETHROW
`;

function world(): World {
  const w = new World();
  w.deploy(COUNTER, COUNTER_SOURCE);
  w.deploy(PROXY, PROXY_SOURCE);
  return w;
}

describe('external calls', () => {
  it('CALL runs the callee as msg sender = caller and commits its writes', async () => {
    const w = world();
    const r = await w.call(PROXY, 'forward(Field,Field)', [100_000n, 0n]);
    assert.equal(r.reverted, false, r.revert?.message);
    assert.deepEqual(r.returnValues, [1n, 1n]);
    assert.equal(r.nested.length, 1);
    assert.deepEqual(r.nested[0]!.returnValues, [1n]);
    assert.equal(await w.host.readStorage(COUNTER, COUNTER_SLOT), 1n);
  });
  it('the caller pays for the callee: gas used includes the nested call', async () => {
    const w = world();
    const r = await w.call(PROXY, 'forward(Field,Field)', [100_000n, 0n]);
    assert.ok(r.gasUsed.l2Gas > r.nested[0]!.gasUsed.l2Gas);
    assert.equal(r.instructions, r.nested[0]!.instructions + 10);
  });
  it('forwarded gas bounds the callee: it runs out, the caller continues and keeps its own write', async () => {
    const w = world();
    const r = await w.call(PROXY, 'forward(Field,Field)', [50n, 0n]);
    assert.equal(r.reverted, false, r.revert?.message);
    assert.deepEqual(r.returnValues, [0n, 0n]);
    assert.equal(r.nested[0]!.revert!.message, 'Out of L2 gas');
    assert.equal(r.nested[0]!.gasUsed.l2Gas, 50);
    assert.equal(await w.host.readStorage(COUNTER, COUNTER_SLOT), 0n);
    assert.equal(await w.host.readStorage(PROXY, 5n), 5n);
  });
  it('STATICCALL to a writing function fails: the write is refused', async () => {
    const w = world();
    const r = await w.call(PROXY, 'forward_static()');
    assert.deepEqual(r.returnValues, [0n]);
    assert.match(r.nested[0]!.revert!.message, /Static call cannot change state \(SSTORE\)/);
    assert.equal(await w.host.readStorage(COUNTER, COUNTER_SLOT), 0n);
  });
  it('STATICCALL to a reading function succeeds and returns data', async () => {
    const w = world();
    w.source.setStorage(COUNTER, COUNTER_SLOT, 41n);
    const r = await w.call(PROXY, 'read_static()');
    assert.deepEqual(r.returnValues, [1n, 41n]);
  });
  it('a static enqueued call cannot make a non-static call that writes', async () => {
    const w = world();
    const r = await w.call(PROXY, 'forward(Field,Field)', [100_000n, 0n], { isStaticCall: true });
    assert.equal(r.nested[0]!.reverted, true);
    assert.match(r.revert!.message, /Static call/);
  });
  it('RETHROW unwinds everything and reports the error stack outermost first', async () => {
    const w = world();
    const r = await w.call(PROXY, 'write_then_rethrow()');
    assert.equal(r.reverted, true);
    assert.equal(r.revert!.message, 'Assertion failed: inner failure');
    assert.deepEqual(
      r.revert!.stack.map((f) => f.functionSelector),
      [sel('write_then_rethrow()'), sel('fail()')],
    );
    assert.deepEqual(
      r.revert!.stack.map((f) => f.functionName),
      ['write_then_rethrow', 'fail'],
    );
    assert.deepEqual(w.host.effects().publicDataWrites, []);
    assert.equal(w.host.depth, 0);
  });
  it(`calls nest at most ${MAX_CALL_DEPTH} deep`, async () => {
    const w = world();
    const r = await w.call(PROXY, 'recurse()', [], { gasLimit: { l2Gas: 100_000_000, daGas: 0 } });
    assert.equal(r.revert!.message, `Call depth limit (${MAX_CALL_DEPTH}) exceeded`);
    assert.equal(r.revert!.stack.length, MAX_CALL_DEPTH + 2);
  });
  it('calling an address without a contract fails the call, not the node', async () => {
    const w = world();
    const r = await w.callRaw(0x999n, [1n]);
    assert.match(r.revert!.message, /No contract deployed at 0x0+999/);
  });
});
