/** Each public VM instruction, run in a one-function program. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FIELD_MODULUS } from '../../../src/impl/crypto/field.ts';
import { poseidon2Hash } from '../../../src/impl/crypto/poseidon2.ts';
import {
  computePublicDataLeafSlot,
  deriveStorageSlotInMap,
  siloNoteHash,
  siloNullifier,
} from '../../../src/impl/contracts/siloing.ts';
import { ENV, World, runMain } from './vm-harness.ts';

const P = FIELD_MODULUS;
const ok = (r: { reverted: boolean; revert?: { message: string } | undefined }) =>
  assert.equal(r.reverted, false, r.revert?.message);

describe('arithmetic over BN254', () => {
  it('ADD wraps at the modulus', async () => {
    const r = await runMain(`SET m0, ${P - 2n}\nSET m1, 5\nADD m2, m0, m1\nRETURN m2, 1`);
    ok(r);
    assert.deepEqual(r.returnValues, [3n]);
  });
  it('SUB below zero wraps to p − x', async () => {
    const r = await runMain(`SET m0, 2\nSET m1, 5\nSUB m2, m0, m1\nRETURN m2, 1`);
    assert.deepEqual(r.returnValues, [P - 3n]);
  });
  it('MUL reduces mod p', async () => {
    const r = await runMain(`SET m0, ${P - 1n}\nSET m1, ${P - 1n}\nMUL m2, m0, m1\nRETURN m2, 1`);
    assert.deepEqual(r.returnValues, [1n]);
  });
  it('DIV is field division: (a / b) · b = a', async () => {
    const r = await runMain(`SET m0, 7\nSET m1, 3\nDIV m2, m0, m1\nMUL m3, m2, m1\nRETURN m2, 2`);
    ok(r);
    assert.notEqual(r.returnValues[0], 2n);
    assert.equal(r.returnValues[1], 7n);
  });
  it('INV: x · x⁻¹ = 1', async () => {
    const r = await runMain(`SET m0, 123456789\nINV m1, m0\nMUL m2, m0, m1\nRETURN m2, 1`);
    assert.deepEqual(r.returnValues, [1n]);
  });
  it('DIV and INV by zero revert', async () => {
    for (const body of ['SET m0, 1\nDIV m2, m0, m1\nRETURN m2, 1', 'INV m2, m1\nRETURN m2, 1']) {
      const r = await runMain(body);
      assert.equal(r.reverted, true);
      assert.match(r.revert!.message, /zero/);
    }
  });
  it('EQ, LT, LTE compare as integers; NOT is logical', async () => {
    const r = await runMain(
      `SET m0, 5\nSET m1, 9\nEQ m2, m0, m1\nEQ m3, m0, m0\nLT m4, m0, m1\nLT m5, m1, m0\nLTE m6, m0, m0\nLTE m7, m1, m0\nNOT m8, m0\nNOT m9, m2\nRETURN m2, 8`,
    );
    assert.deepEqual(r.returnValues, [0n, 1n, 1n, 0n, 1n, 0n, 0n, 1n]);
  });
  it('LT treats p − 1 as the largest value', async () => {
    const r = await runMain(`SET m0, ${P - 1n}\nSET m1, 1\nLT m2, m1, m0\nRETURN m2, 1`);
    assert.deepEqual(r.returnValues, [1n]);
  });
});

describe('control flow and memory', () => {
  it('JUMP and JUMPI: a loop sums 1..10', async () => {
    const r = await runMain(
      `SET m0, 0\nSET m1, 10\nSET m2, 1\nloop:\nADD m0, m0, m1\nSUB m1, m1, m2\nJUMPI m1, loop\nRETURN m0, 1`,
    );
    assert.deepEqual(r.returnValues, [55n]);
  });
  it('INTERNALCALL runs a subroutine and INTERNALRETURN comes back', async () => {
    const r = await runMain(
      `SET m0, 4\nINTERNALCALL double\nINTERNALCALL double\nRETURN m0, 1\ndouble:\nADD m0, m0, m0\nINTERNALRETURN`,
    );
    assert.deepEqual(r.returnValues, [16n]);
  });
  it('INTERNALRETURN with an empty stack reverts', async () => {
    const r = await runMain('INTERNALRETURN');
    assert.match(r.revert!.message, /empty internal call stack/);
  });
  it('LOAD and STORE address memory indirectly', async () => {
    const r = await runMain(`SET m0, 500\nSET m1, 77\nSTORE m0, m1\nLOAD m2, m0\nRETURN m500, 1`);
    assert.deepEqual(r.returnValues, [77n]);
  });
  it('an indirect address beyond the memory limit reverts', async () => {
    const r = await runMain(`SET m0, 65536\nLOAD m1, m0\nRETURN m1, 1`);
    assert.match(r.revert!.message, /Memory index 65536 out of range/);
  });
  it('running past the end of the code reverts', async () => {
    const r = await runMain('SET m0, 1');
    assert.match(r.revert!.message, /past the end/);
  });
  it('unset memory reads as zero', async () => {
    const r = await runMain('RETURN m9, 2');
    assert.deepEqual(r.returnValues, [0n, 0n]);
  });
});

describe('calldata, environment, return and revert', () => {
  it('CALLDATASIZE and CALLDATALOAD see [selector, ...args]', async () => {
    const r = await runMain(`CALLDATASIZE m0\nSET m1, 2\nCALLDATALOAD m2, m1\nRETURN m0, 3`, [10n, 20n]);
    assert.deepEqual(r.returnValues, [3n, 2n, 20n]);
  });
  it('CALLDATALOAD past the end reverts', async () => {
    const r = await runMain(`SET m1, 3\nCALLDATALOAD m2, m1\nRETURN m2, 1`, [10n, 20n]);
    assert.match(r.revert!.message, /Calldata index 3 out of range/);
  });
  it('GETENV reads address, sender, block values, fees and static flag', async () => {
    const names = [
      'ADDRESS',
      'SENDER',
      'TRANSACTION_FEE',
      'CHAIN_ID',
      'VERSION',
      'BLOCK_NUMBER',
      'TIMESTAMP',
      'FEE_PER_L2_GAS',
      'FEE_PER_DA_GAS',
      'IS_STATIC_CALL',
    ];
    const r = await runMain(names.map((n, i) => `GETENV m${i}, ${n}`).join('\n') + `\nRETURN m0, ${names.length}`, [], {
      isStaticCall: true,
    });
    ok(r);
    assert.deepEqual(r.returnValues, [
      0x100n,
      0xabcn,
      0n,
      ENV.chainId,
      ENV.version,
      BigInt(ENV.blockNumber),
      ENV.timestamp,
      ENV.gasFees.feePerL2Gas,
      ENV.gasFees.feePerDaGas,
      1n,
    ]);
  });
  it('GETENV L2_GAS_LEFT decreases as instructions run', async () => {
    const r = await runMain(`GETENV m0, L2_GAS_LEFT\nGETENV m1, L2_GAS_LEFT\nSUB m2, m0, m1\nRETURN m2, 1`);
    assert.ok(r.returnValues[0]! > 0n);
  });
  it('REVERT returns its data and a message', async () => {
    const r = await runMain(`SET m0, 11\nSET m1, 12\nREVERT m0, 2`);
    assert.equal(r.reverted, true);
    assert.deepEqual(r.returnValues, [11n, 12n]);
    assert.deepEqual(r.revert!.revertData, [11n, 12n]);
    assert.equal(r.revert!.message, 'Explicit revert');
  });
  it('ASSERT passes on non-zero and reverts with its message on zero', async () => {
    const pass = await runMain(`SET m0, 1\nASSERT m0, "boom"\nRETURN m0, 1`);
    ok(pass);
    const fail = await runMain(`ASSERT m0, "value must be set"\nRETURN m0, 1`);
    assert.equal(fail.revert!.message, 'Assertion failed: value must be set');
    assert.equal(fail.revert!.stack[0]!.functionName, 'main');
  });
});

describe('state and side effects', () => {
  it('SSTORE then SLOAD sees the write; the journal holds it at the siloed leaf slot', async () => {
    const r = await runMain(`SET m0, 9\nSET m1, 44\nSSTORE m0, m1\nSLOAD m2, m0\nRETURN m2, 1`);
    assert.deepEqual(r.returnValues, [44n]);
    assert.deepEqual(r.world.host.effects().publicDataWrites, [
      { leafSlot: computePublicDataLeafSlot(0x100n, 9n), value: 44n },
    ]);
  });
  it('SLOAD reads committed state', async () => {
    const { world } = await runMain('RETURN m0, 0');
    world.source.setStorage(0x100n, 3n, 99n);
    world.deploy(0x200n, '.fn get()\nSET m0, 3\nSLOAD m1, m0\nRETURN m1, 1');
    world.source.setStorage(0x200n, 3n, 99n);
    assert.deepEqual((await world.call(0x200n, 'get()')).returnValues, [99n]);
  });
  it('MAPSLOT is deriveStorageSlotInMap', async () => {
    const r = await runMain(`SET m0, 2\nSET m1, 0x1234\nMAPSLOT m2, m0, m1\nRETURN m2, 1`);
    assert.deepEqual(r.returnValues, [deriveStorageSlotInMap(2n, 0x1234n)]);
  });
  it('POSEIDON2 hashes a memory range', async () => {
    const r = await runMain(`SET m10, 1\nSET m11, 2\nSET m12, 3\nPOSEIDON2 m0, m10, 3\nRETURN m0, 1`);
    assert.deepEqual(r.returnValues, [poseidon2Hash([1n, 2n, 3n])]);
  });
  it('EMITNOTEHASH, EMITNULLIFIER, EMITLOG, SENDL2TOL1 record siloed effects', async () => {
    const r = await runMain(
      `SET m0, 0x42\nSET m1, 0x43\nSET m2, 0x44\nEMITNOTEHASH m0\nEMITNULLIFIER m1\nEMITLOG m0, 3\nSENDL2TOL1 m1, m2\nRETURN m0, 0`,
    );
    ok(r);
    const e = r.world.host.effects();
    assert.deepEqual(e.noteHashes, [siloNoteHash(0x100n, 0x42n)]);
    assert.deepEqual(e.nullifiers, [siloNullifier(0x100n, 0x43n)]);
    assert.deepEqual(e.publicLogs, [{ contractAddress: 0x100n, fields: [0x42n, 0x43n, 0x44n] }]);
    assert.deepEqual(e.l2ToL1Msgs, [{ message: { recipient: 0x43n, content: 0x44n }, contractAddress: 0x100n }]);
  });
  it('NULLIFIEREXISTS sees emitted and committed nullifiers', async () => {
    const world = new World();
    world.source.nullifiers.add(siloNullifier(0x100n, 9n));
    world.deploy(
      0x100n,
      `.fn main()\nSET m0, 7\nSET m1, 0x100\nSET m4, 9\nSET m6, 8\nNULLIFIEREXISTS m10, m0, m1\nEMITNULLIFIER m0\nNULLIFIEREXISTS m11, m0, m1\nNULLIFIEREXISTS m12, m4, m1\nNULLIFIEREXISTS m13, m6, m1\nRETURN m10, 4`,
    );
    const r = await world.call(0x100n, 'main()');
    assert.deepEqual(r.returnValues, [0n, 1n, 1n, 0n]);
  });
  it('emitting an existing nullifier reverts and discards the frame', async () => {
    const r = await runMain(`SET m0, 7\nSET m1, 1\nSSTORE m1, m1\nEMITNULLIFIER m0\nEMITNULLIFIER m0\nRETURN m0, 0`);
    assert.equal(r.revert!.message, 'Nullifier already exists');
    assert.deepEqual(r.world.host.effects(), {
      noteHashes: [],
      nullifiers: [],
      l2ToL1Msgs: [],
      publicLogs: [],
      publicDataWrites: [],
    });
  });
  it('a log longer than 13 fields reverts', async () => {
    const r = await runMain('EMITLOG m0, 14\nRETURN m0, 0');
    assert.match(r.revert!.message, /Public log too long/);
  });
});
