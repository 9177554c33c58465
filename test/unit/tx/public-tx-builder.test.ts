/**
 * The public-tx builder: a forPublic kernel of the exact wire size, calls in their phases paired
 * with their calldata, the deployment on the revertible side, the anchor and fees as given, and
 * clear refusals of txs it cannot build.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deploymentNullifier, makeContractClass } from '../../../src/impl/contracts/registry-events.ts';
import { BYTES, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, MAX_ENQUEUED_CALLS_PER_TX } from '../../../src/impl/tx/constants.ts';
import {
  computeBlockHeaderHash,
  getContractClassLogs,
  getNullifiers,
  getPrivateLogs,
  getPublicCallCounts,
  getPublicCallsWithCalldata,
} from '../../../src/impl/tx/index.ts';
import { buildPublicTx, calldata, CLASS_REGISTRY_ADDRESS } from '../../../src/impl/tx/public-tx-builder.ts';
import type { PublicTxOptions } from '../../../src/impl/tx/public-tx-builder.ts';
import { exampleTokenDeployment, IN_MEMORY_CONTEXT } from '../../integration/public-tx-builder.ts';

const anchor = {
  ...IN_MEMORY_CONTEXT.anchorBlockHeader,
  globalVariables: {
    ...IN_MEMORY_CONTEXT.anchorBlockHeader.globalVariables,
    blockNumber: 7,
    timestamp: 1_800_000_000n,
  },
};
const base: PublicTxOptions = {
  chainId: 31337n,
  rollupVersion: 1n,
  anchorBlockHeader: anchor,
  feePayer: 0x1002n,
  txNullifier: 0x7e57n,
  maxFeesPerGas: { feePerDaGas: 3n, feePerL2Gas: 5n },
};
const call = (n: bigint) => ({ to: 0xc0n, from: 0xf0n, calldata: calldata('f(Field)', n) });

describe('buildPublicTx', () => {
  it('builds a forPublic tx of the exact wire size with the calls in their phases and the given anchor and fees', () => {
    const built = buildPublicTx({
      ...base,
      setupCalls: [call(1n)],
      appCalls: [call(2n), call(3n)],
      teardownCall: call(4n),
    });
    const { tx, wire, hash } = built;
    assert.equal(tx.data.isForPublic, true);
    assert.equal(Buffer.from(wire.data, 'base64').length, BYTES.dataForPublic);
    assert.equal(hash, wire.txHash);
    assert.deepEqual(getPublicCallCounts(tx), { setup: 1, appLogic: 2, teardown: 1 });
    assert.deepEqual(
      getPublicCallsWithCalldata(tx).map((c) => c.calldata[1]),
      [1n, 2n, 3n, 4n],
    );
    assert.deepEqual(getNullifiers(tx), [0x7e57n]);
    assert.equal(computeBlockHeaderHash(tx.data.constants.anchorBlockHeader), computeBlockHeaderHash(anchor));
    const g = tx.data.constants.txContext.gasSettings;
    assert.deepEqual(g.maxFeesPerGas, base.maxFeesPerGas);
    // A teardown call gets default teardown limits, which the private gasUsed includes (as Aztec's kernel does).
    assert.deepEqual(g.teardownGasLimits, { daGas: 0, l2Gas: 100_000 });
    assert.deepEqual(tx.data.gasUsed, { daGas: 0, l2Gas: 120_000 });
    assert.ok(tx.data.expirationTimestamp > BigInt(Math.floor(Date.now() / 1000)));
  });

  it('puts a deployment on the revertible side: class log of the class registry, instance log and deployment nullifier', () => {
    const token = exampleTokenDeployment();
    const { tx, wire } = buildPublicTx({
      ...base,
      publishClass: token.contractClass,
      publishInstance: token.instance,
      appCalls: [call(1n)],
    });
    assert.equal(wire.contractClassLogFields.length, 1);
    assert.equal(wire.contractClassLogFields[0]!.fields.length, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS);
    assert.equal(getContractClassLogs(tx)[0]!.logHash.contractAddress, CLASS_REGISTRY_ADDRESS);
    assert.equal(getPrivateLogs(tx).length, 1);
    assert.deepEqual(getNullifiers(tx), [0x7e57n, deploymentNullifier(token.instance.address)]);
    if (!tx.data.isForPublic) throw new Error('unreachable');
    assert.equal(
      tx.data.forPublic.revertibleAccumulatedData.nullifiers[0],
      deploymentNullifier(token.instance.address),
    );
    assert.equal(
      tx.data.forPublic.revertibleAccumulatedData.contractClassLogsHashes[0]!.contractAddress,
      CLASS_REGISTRY_ADDRESS,
    );
  });

  it('refuses what it cannot build, saying why', () => {
    assert.throws(() => buildPublicTx({ ...base, txNullifier: 0n, appCalls: [call(1n)] }), /non-zero first nullifier/);
    assert.throws(() => buildPublicTx(base), /at least one call/);
    const tooMany = Array.from({ length: MAX_ENQUEUED_CALLS_PER_TX + 1 }, (_, i) => call(BigInt(i)));
    assert.throws(() => buildPublicTx({ ...base, appCalls: tooMany }), /at most 32 enqueued calls per phase, got 33/);
    const huge = makeContractClass({
      artifactHash: 1n,
      privateFunctionsRoot: 0n,
      packedBytecode: new Uint8Array(31 * CONTRACT_CLASS_LOG_SIZE_IN_FIELDS),
    });
    assert.throws(
      () => buildPublicTx({ ...base, publishClass: huge, appCalls: [call(1n)] }),
      /fields in the class publication log/,
    );
  });
});
