/**
 * A caller's tx is decoded with its Poseidon2 hashing in slices (decodeTxInSlices): the same Tx as
 * decodeTx, the same refusals, and other work runs between the slices of a large tx.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS } from '../../../src/impl/tx/constants.ts';
import { decodeTx, decodeTxInSlices, TxDecodeError } from '../../../src/impl/tx/index.ts';
import { buildPublicTx, calldata } from '../../../src/impl/tx/public-tx-builder.ts';
import { exampleTokenDeployment, IN_MEMORY_CONTEXT } from '../../integration/public-tx-builder.ts';

const anchor = {
  ...IN_MEMORY_CONTEXT.anchorBlockHeader,
  globalVariables: {
    ...IN_MEMORY_CONTEXT.anchorBlockHeader.globalVariables,
    blockNumber: 7,
    timestamp: 1_800_000_000n,
  },
};
const args = Array.from({ length: 12_000 }, (_, i) => BigInt(i + 1));
// 12 000 calldata fields (4 000 permutations, 4 slices) and a full class log.
const big = buildPublicTx({
  chainId: 31337n,
  rollupVersion: 1n,
  anchorBlockHeader: anchor,
  feePayer: 0x1002n,
  txNullifier: 0x7e57n,
  maxFeesPerGas: { feePerDaGas: 3n, feePerL2Gas: 5n },
  publishClass: exampleTokenDeployment().contractClass,
  appCalls: [{ to: 0xc0n, from: 0xf0n, calldata: calldata('big(Field)', ...args) }],
});

describe('decodeTxInSlices', () => {
  it('gives the same Tx as decodeTx', async () => {
    assert.equal(big.wire.contractClassLogFields[0]!.fields.length, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS);
    assert.deepEqual(await decodeTxInSlices(big.wire), decodeTx(big.wire));
  });

  it('lets other work run between its slices', async () => {
    let turns = 0;
    let running = true;
    const tick = () => {
      if (running) {
        turns++;
        setImmediate(tick);
      }
    };
    setImmediate(tick);
    await decodeTxInSlices(big.wire);
    running = false;
    assert.ok(turns >= 3, `turns seen: ${turns}`);
  });

  it('refuses a calldata entry whose hash does not match, as decodeTx does', async () => {
    const entry = big.wire.publicFunctionCalldata[0]!;
    const bad = { ...big.wire, publicFunctionCalldata: [{ ...entry, values: [...entry.values.slice(0, -1), '0x05'] }] };
    const expected = (() => {
      try {
        decodeTx(bad, 'params[0]');
      } catch (err) {
        return err;
      }
    })() as TxDecodeError;
    assert.ok(expected instanceof TxDecodeError);
    await assert.rejects(
      decodeTxInSlices(bad, 'params[0]'),
      (err: unknown) => err instanceof TxDecodeError && err.message === expected.message,
    );
  });
});
