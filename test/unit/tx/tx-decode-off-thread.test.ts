/**
 * A caller's or a peer's tx is decoded with its Poseidon2 hashing on the tx-hash worker
 * (decodeTxOffThread): the same Tx as decodeTx, the same refusals, the event loop free meanwhile,
 * calls resolved in the order made, a tx this process built neither decoded nor hashed again.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS } from '../../../src/impl/tx/constants.ts';
import { decodeTx, decodeTxOffThread, TxDecodeError } from '../../../src/impl/tx/index.ts';
import { buildPublicTx, calldata } from '../../../src/impl/tx/public-tx-builder.ts';
import { buildPrivateTx } from '../../../src/impl/tx/tx-builder.ts';
import { buildPrivateTxOffThread, knownTxHash } from '../../../src/impl/tx/tx-hash-worker.ts';
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
// 12 000 calldata fields (4 000 permutations) and a full class log.
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
const privateTx = (nullifier: bigint) => ({
  chainId: 31337n,
  rollupVersion: 1n,
  anchorBlockHeader: anchor,
  feePayer: 0x1002n,
  maxFeesPerGas: { feePerDaGas: 3n, feePerL2Gas: 5n },
  nullifiers: [nullifier],
});

describe('decodeTxOffThread', () => {
  it('gives the same Tx as decodeTx', async () => {
    assert.equal(big.wire.contractClassLogFields[0]!.fields.length, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS);
    assert.deepEqual(await decodeTxOffThread(big.wire), decodeTx(big.wire));
    const small = buildPrivateTx(privateTx(0x51n));
    assert.deepEqual(await decodeTxOffThread(small.wire), decodeTx(small.wire));
  });

  it('lets other work run while it hashes', async () => {
    let turns = 0;
    let running = true;
    const tick = () => {
      if (running) {
        turns++;
        setImmediate(tick);
      }
    };
    setImmediate(tick);
    await decodeTxOffThread(big.wire);
    running = false;
    assert.ok(turns >= 3, `turns seen: ${turns}`);
  });

  it('resolves calls in the order they were made, a large tx before a small one sent after it', async () => {
    const order: string[] = [];
    const small = buildPrivateTx(privateTx(0x52n));
    await Promise.all([
      decodeTxOffThread(big.wire).then(() => order.push('big')),
      decodeTxOffThread(small.wire).then(() => order.push('small')),
      decodeTxOffThread(big.wire).then(() => order.push('big again')),
    ]);
    assert.deepEqual(order, ['big', 'small', 'big again']);
  });

  it('a tx decoded here has its hash remembered by its data text, and it is the hash decodeTx computes', async () => {
    const built = buildPrivateTx(privateTx(0x53n));
    assert.equal(knownTxHash(built.wire.data), undefined);
    assert.equal((await decodeTxOffThread({ ...built.wire })).txHash, decodeTx(built.wire).txHash);
    assert.equal(knownTxHash(built.wire.data), decodeTx(built.wire).txHash);
    // Another tx's data is not known until it is hashed here.
    const other = buildPrivateTx(privateTx(0x54n));
    assert.equal(knownTxHash(other.wire.data), undefined);
  });

  it("a tx built here and sent as the same wire object is the builder's Tx, equal to what decodeTx makes of it", async () => {
    const built = await buildPrivateTxOffThread(privateTx(0x55n));
    const decoded = await decodeTxOffThread(built.wire);
    assert.equal(decoded, built.tx, 'not decoded again');
    assert.deepEqual(decoded, decodeTx(built.wire));
  });

  it('a copy of a built wire object, or one changed after building, is decoded (and refused) as any other', async () => {
    const built = await buildPrivateTxOffThread(privateTx(0x56n));
    const copy = { ...built.wire };
    const fromCopy = await decodeTxOffThread(copy);
    assert.notEqual(fromCopy, built.tx);
    assert.deepEqual(fromCopy, built.tx);
    const changed = await buildPrivateTxOffThread(privateTx(0x57n));
    (changed.wire as { data: string }).data = 'not base64!';
    await assert.rejects(decodeTxOffThread(changed.wire, 'params[0]'), /params\[0\]\.data: not valid base64/);
    const extra = await buildPrivateTxOffThread(privateTx(0x58n));
    (extra.wire as unknown as Record<string, unknown>).surplus = 1;
    await assert.rejects(decodeTxOffThread(extra.wire, 'params[0]'), /params\[0\]\.surplus: unexpected key/);
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
      decodeTxOffThread(bad, 'params[0]'),
      (err: unknown) => err instanceof TxDecodeError && err.message === expected.message,
    );
  });

  it('refuses a malformed tx before any hashing, naming where, as decodeTx does', async () => {
    const bad = { ...big.wire, data: 'not base64!' };
    const expected = (() => {
      try {
        decodeTx(bad, 'params[0]');
      } catch (err) {
        return err;
      }
    })() as TxDecodeError;
    await assert.rejects(
      decodeTxOffThread(bad, 'params[0]'),
      (err: unknown) => err instanceof TxDecodeError && err.message === expected.message,
    );
  });
});
