/** The pool's stored wire text is exactly JSON.stringify({ ...wire, txHash }) for the wires decodeTx accepts. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeTx } from '../../../src/impl/tx/index.ts';
import { buildPublicTx, calldata } from '../../../src/impl/tx/public-tx-builder.ts';
import { buildPrivateTx } from '../../../src/impl/tx/tx-builder.ts';
import { poolWireJson } from '../../../src/impl/txpool/wire-json.ts';
import { exampleTokenDeployment, IN_MEMORY_CONTEXT } from '../../integration/public-tx-builder.ts';

const HASH = '0x' + 'ab'.repeat(32);
const reference = (wire: object) => JSON.stringify({ ...wire, txHash: HASH });

describe('poolWireJson', () => {
  it('equals JSON.stringify of the wire with the recomputed hash, for a private tx and one with class logs and calldata', () => {
    const priv = buildPrivateTx({
      chainId: 31337n,
      rollupVersion: 1n,
      anchorBlockHeader: IN_MEMORY_CONTEXT.anchorBlockHeader,
      feePayer: 0x1002n,
      maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n },
      nullifiers: [0x77n],
    });
    const pub = buildPublicTx({
      chainId: 31337n,
      rollupVersion: 1n,
      anchorBlockHeader: IN_MEMORY_CONTEXT.anchorBlockHeader,
      feePayer: 0x1002n,
      txNullifier: 0x7e57n,
      maxFeesPerGas: { feePerDaGas: 3n, feePerL2Gas: 5n },
      publishClass: exampleTokenDeployment().contractClass,
      appCalls: [{ to: 0xc0n, from: 0xf0n, calldata: calldata('f(Field)', 7n) }],
    });
    for (const wire of [priv.wire, pub.wire]) {
      decodeTx(wire); // what the pool takes
      assert.equal(poolWireJson(wire, HASH), reference(wire));
      assert.deepEqual(JSON.parse(poolWireJson(wire, HASH)), { ...wire, txHash: HASH });
    }
    assert.ok(pub.wire.contractClassLogFields.length > 0 && pub.wire.publicFunctionCalldata.length > 0);
  });

  it('keeps the order the members were sent in, and adds txHash last when it was not sent', () => {
    const { txHash: _, ...noHash } = buildPrivateTx({
      chainId: 31337n,
      rollupVersion: 1n,
      anchorBlockHeader: IN_MEMORY_CONTEXT.anchorBlockHeader,
      feePayer: 0x1002n,
      maxFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n },
      nullifiers: [0x78n],
    }).wire;
    const reordered = {
      publicFunctionCalldata: noHash.publicFunctionCalldata,
      chonkProof: noHash.chonkProof,
      data: noHash.data,
      contractClassLogFields: noHash.contractClassLogFields,
    };
    for (const wire of [noHash, reordered]) assert.equal(poolWireJson(wire, HASH), reference(wire));
    assert.ok(poolWireJson(noHash, HASH).endsWith(`"txHash":"${HASH}"}`));
  });
});
