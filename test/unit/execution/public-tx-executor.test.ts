/** The public phases of a tx: revert codes, effects kept and discarded, gas per phase, fee. @module */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FEE_JUICE_BALANCES_SLOT, PROTOCOL_CONTRACT_ADDRESSES } from '../../../src/impl/chain/protocol.ts';
import { RevertCode } from '../../../src/impl/chain/types.ts';
import { COUNTER_SLOT, COUNTER_SOURCE } from '../../../src/impl/contracts/examples/counter.ts';
import { functionSelectorFromSignature } from '../../../src/impl/contracts/function-selector.ts';
import {
  computeNoteHashNonce,
  computeUniqueNoteHash,
  deriveStorageSlotInMap,
  siloNoteHash,
} from '../../../src/impl/contracts/siloing.ts';
import type { AllowedElement } from '../../../src/impl/execution/allow-list.ts';
import type { EnqueuedCall, PublicTxInput } from '../../../src/impl/execution/public-tx-executor.ts';
import { executePublicTx, PublicTxInvalidError } from '../../../src/impl/execution/public-tx-executor.ts';
import { feeFor } from '../../../src/impl/fees/fees.ts';
import { calldataFor, ENV, World } from './vm-harness.ts';

const COUNTER = 0x200n;
const HOOKS = 0x700n;
const USER = 0xabcn;
const TX_NULLIFIER = 0x1111n;

/** Teardown/app helpers: record the fee, fail, emit a note hash. */
const HOOKS_SOURCE = `
.fn record_fee()
  GETENV m0, TRANSACTION_FEE
  SET m1, 9
  SSTORE m1, m0
  RETURN m0, 1
.fn fail()
  SET m1, 8
  SSTORE m1, m1
  ASSERT m2, "hook failed"
.fn note()
  SET m0, 0x42
  EMITNOTEHASH m0
  RETURN m0, 0
`;

const call = (contractAddress: bigint, signature: string, msgSender = USER): EnqueuedCall => ({
  contractAddress,
  msgSender,
  isStaticCall: false,
  calldata: calldataFor(signature),
});

const ALLOW: AllowedElement[] = [{ address: COUNTER, selector: functionSelectorFromSignature('increment()') }];

function setup() {
  const w = new World();
  w.deploy(COUNTER, COUNTER_SOURCE);
  w.deploy(HOOKS, HOOKS_SOURCE);
  return w;
}

function tx(over: Partial<PublicTxInput> = {}): PublicTxInput {
  return {
    setupCalls: [call(COUNTER, 'increment()')],
    appLogicCalls: [call(COUNTER, 'increment()'), call(COUNTER, 'increment()')],
    teardownCall: call(HOOKS, 'record_fee()'),
    gasLimits: { l2Gas: 1_000_000, daGas: 100_000 },
    teardownGasLimits: { l2Gas: 10_000, daGas: 1_000 },
    privateGasUsed: { l2Gas: 100, daGas: 50 },
    nonRevertible: { noteHashes: [], nullifiers: [TX_NULLIFIER], l2ToL1Msgs: [] },
    revertible: { noteHashes: [0x77n], nullifiers: [0x2222n], l2ToL1Msgs: [] },
    feePayer: 0n,
    ...over,
  };
}

const run = (w: World, input: PublicTxInput, allowList = ALLOW, skipFeeEnforcement = false) =>
  executePublicTx(input, { source: w.source, env: ENV, allowList, signatures: w.signatures, skipFeeEnforcement });

const storage = (w: World) => w.source.getStorage.bind(w.source);

describe('executePublicTx: revert codes', () => {
  it('0 OK: every phase runs and every effect is kept', async () => {
    const w = setup();
    const r = await run(w, tx());
    assert.equal(r.revertCode, RevertCode.OK);
    assert.equal(r.revertReason, undefined);
    w.source.apply(r.effects);
    assert.equal(storage(w)(COUNTER, COUNTER_SLOT), 3n);
    assert.deepEqual(r.effects.nullifiers, [TX_NULLIFIER, 0x2222n]);
    assert.deepEqual(
      r.callResults.map((c) => c.returnValues),
      [[1n], [2n], [3n], [r.transactionFee]],
    );
  });
  it('1 app_logic_reverted: all app logic and revertible private effects are discarded, setup and teardown kept', async () => {
    const w = setup();
    const r = await run(
      w,
      tx({ appLogicCalls: [call(COUNTER, 'increment()'), call(HOOKS, 'fail()'), call(COUNTER, 'increment()')] }),
    );
    assert.equal(r.revertCode, RevertCode.APP_LOGIC_REVERTED);
    assert.equal(r.revertReason!.message, 'Assertion failed: hook failed');
    assert.deepEqual(r.revertReason!.stack, [
      { contractAddress: HOOKS, functionSelector: functionSelectorFromSignature('fail()'), functionName: 'fail' },
    ]);
    assert.equal(r.callResults.length, 4, 'the app call after the revert is skipped');
    w.source.apply(r.effects);
    assert.equal(storage(w)(COUNTER, COUNTER_SLOT), 1n);
    assert.equal(storage(w)(HOOKS, 8n), 0n);
    assert.equal(storage(w)(HOOKS, 9n), r.transactionFee);
    assert.deepEqual(r.effects.nullifiers, [TX_NULLIFIER]);
    assert.deepEqual(r.effects.noteHashes, []);
  });
  it('2 teardown_reverted: app logic kept, teardown discarded', async () => {
    const w = setup();
    const r = await run(w, tx({ teardownCall: call(HOOKS, 'fail()') }));
    assert.equal(r.revertCode, RevertCode.TEARDOWN_REVERTED);
    w.source.apply(r.effects);
    assert.equal(storage(w)(COUNTER, COUNTER_SLOT), 3n);
    assert.equal(storage(w)(HOOKS, 8n), 0n);
  });
  it("3 both_reverted: the reason is app logic's", async () => {
    const w = setup();
    const r = await run(w, tx({ appLogicCalls: [call(HOOKS, 'fail()')], teardownCall: call(HOOKS, 'fail()') }));
    assert.equal(r.revertCode, RevertCode.BOTH_REVERTED);
    assert.equal(r.revertReason!.stack[0]!.contractAddress, HOOKS);
    w.source.apply(r.effects);
    assert.equal(storage(w)(COUNTER, COUNTER_SLOT), 1n);
  });
});

describe('executePublicTx: setup phase', () => {
  it('a setup call not on the allow-list makes the tx invalid', async () => {
    await assert.rejects(run(setup(), tx({ setupCalls: [call(HOOKS, 'note()')] })), PublicTxInvalidError);
  });
  it('a reverting setup call makes the tx invalid', async () => {
    const allow: AllowedElement[] = [...ALLOW, { address: HOOKS, selector: functionSelectorFromSignature('fail()') }];
    await assert.rejects(
      run(setup(), tx({ setupCalls: [call(HOOKS, 'fail()')] }), allow),
      /Setup phase reverted: Assertion failed: hook failed/,
    );
  });
  it('allow-list by class id, onlySelf and calldataLength', async () => {
    const w = setup();
    const classId = w.source.getContract(COUNTER)!.classId;
    const selector = functionSelectorFromSignature('increment()');
    assert.equal((await run(w, tx(), [{ classId, selector }])).revertCode, 0);
    await assert.rejects(run(w, tx(), [{ classId, selector, onlySelf: true }]), PublicTxInvalidError);
    assert.equal(
      (
        await run(w, tx({ setupCalls: [call(COUNTER, 'increment()', COUNTER)] }), [
          { classId, selector, onlySelf: true },
        ])
      ).revertCode,
      0,
    );
    await assert.rejects(run(w, tx(), [{ classId, selector, calldataLength: 2 }]), PublicTxInvalidError);
  });
  it('a duplicate private nullifier makes the tx invalid', async () => {
    const w = setup();
    w.source.nullifiers.add(TX_NULLIFIER);
    await assert.rejects(run(w, tx()), /Duplicate nullifier/);
  });
});

describe('executePublicTx: gas and fee', () => {
  it('gas per phase: public = calls, total = private + public, billed uses teardown limits', async () => {
    const w = setup();
    const input = tx();
    const r = await run(w, input);
    const sum = (xs: readonly { gasUsed: { l2Gas: number; daGas: number } }[]) =>
      xs.reduce((a, c) => ({ l2Gas: a.l2Gas + c.gasUsed.l2Gas, daGas: a.daGas + c.gasUsed.daGas }), {
        l2Gas: 0,
        daGas: 0,
      });
    const teardown = r.callResults[3]!.gasUsed;
    const beforeTeardown = sum(r.callResults.slice(0, 3));
    assert.deepEqual(r.gasUsed.publicGas, sum(r.callResults));
    assert.deepEqual(r.gasUsed.teardownGas, teardown);
    assert.deepEqual(r.gasUsed.totalGas, {
      l2Gas: 100 + r.gasUsed.publicGas.l2Gas,
      daGas: 50 + r.gasUsed.publicGas.daGas,
    });
    assert.deepEqual(r.gasUsed.billedGas, {
      l2Gas: 100 + beforeTeardown.l2Gas + input.teardownGasLimits.l2Gas,
      daGas: 50 + beforeTeardown.daGas + input.teardownGasLimits.daGas,
    });
    assert.equal(r.transactionFee, feeFor(r.gasUsed.billedGas, ENV.gasFees));
  });
  it("teardown reads the transaction fee; the fee payer's FeeJuice balance pays it", async () => {
    const w = setup();
    const balanceSlot = deriveStorageSlotInMap(FEE_JUICE_BALANCES_SLOT, USER);
    w.source.setStorage(PROTOCOL_CONTRACT_ADDRESSES.feeJuice, balanceSlot, 10n ** 12n);
    const r = await run(w, tx({ feePayer: USER }));
    assert.ok(r.transactionFee > 0n);
    assert.deepEqual(r.callResults[3]!.returnValues, [r.transactionFee]);
    w.source.apply(r.effects);
    assert.equal(w.source.getStorage(PROTOCOL_CONTRACT_ADDRESSES.feeJuice, balanceSlot), 10n ** 12n - r.transactionFee);
  });
  it('an unpaid fee makes the tx invalid unless fee enforcement is skipped', async () => {
    const w = setup();
    await assert.rejects(run(w, tx({ feePayer: USER })), /Insufficient fee payer balance/);
    assert.equal((await run(w, tx({ feePayer: USER }), ALLOW, true)).revertCode, 0);
  });
  it('app logic is limited to the gas left after private and setup', async () => {
    const w = setup();
    const r = await run(w, tx({ gasLimits: { l2Gas: 1000, daGas: 100_000 }, setupCalls: [] }));
    assert.equal(r.revertCode, RevertCode.APP_LOGIC_REVERTED);
    assert.equal(r.revertReason!.message, 'Out of L2 gas');
  });
});

describe('executePublicTx: note hashes', () => {
  it('private and public note hashes are siloed then made unique by index in the tx', async () => {
    const w = setup();
    const r = await run(w, tx({ appLogicCalls: [call(HOOKS, 'note()')] }));
    const siloed = [0x77n, siloNoteHash(HOOKS, 0x42n)];
    assert.deepEqual(
      r.effects.noteHashes,
      siloed.map((h, i) => computeUniqueNoteHash(computeNoteHashNonce(TX_NULLIFIER, i), h)),
    );
  });
});
