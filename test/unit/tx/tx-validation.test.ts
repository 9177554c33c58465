/** Tx validation: the pure checks and the injected stateful ones. @module */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maxFee } from '../../../src/impl/fees/fees.ts';
import { buildPublicTx, calldata } from '../../../src/impl/tx/public-tx-builder.ts';
import { getNullifiers, getPublicCallRequests, getTxSizeBytes } from '../../../src/impl/tx/tx-accessors.ts';
import type { TxValidationContext } from '../../../src/impl/tx/tx-validation.ts';
import {
  checkContractClassLogs,
  checkContractInstanceLogs,
  TX_ERROR,
  validateTx,
  validateTxPure,
} from '../../../src/impl/tx/tx-validation.ts';
import { decodeTx } from '../../../src/impl/tx/tx-wire.ts';
import type { PrivateKernelTailCircuitPublicInputs, Tx } from '../../../src/impl/tx/types.ts';
import { exampleTokenDeployment, IN_MEMORY_CONTEXT } from '../../integration/public-tx-builder.ts';
import { loadVector } from './helpers/vectors.ts';

// public-11: chainId 31337, version 1, gas limits DA 1 000 000 / L2 5 000 000,
// max fees 123 / 456 789, expiration 1 780 000 031, 2 setup calls.
const tx = decodeTx(loadVector('public-11-gas-settings.json').wire);
const rollupTx = decodeTx(loadVector('rollup-02-notes-nullifiers.json').wire);

const ctx: TxValidationContext = {
  chainId: 31337n,
  rollupVersion: 1n,
  nextBlockTimestamp: 1_780_000_000n,
  maxTxSizeBytes: 1 << 20,
  maxCalldataFields: 16_000,
  minGasLimits: { forPublic: { daGas: 1000, l2Gas: 100_000 }, forRollup: { daGas: 1000, l2Gas: 50_000 } },
  maxGasLimits: { daGas: 1_000_000, l2Gas: 6_540_000 },
  minFeesPerGas: { feePerDaGas: 100n, feePerL2Gas: 456_789n },
};

function withData(t: Tx, patch: (d: any) => void): Tx {
  const data = structuredClone(t.data) as any;
  patch(data);
  return { ...t, data: data as PrivateKernelTailCircuitPublicInputs };
}
const withGas = (t: Tx, patch: (g: any) => void) => withData(t, (d) => patch(d.constants.txContext.gasSettings));

describe('validateTxPure', () => {
  it('default: a tx matching the node values has no reasons', () => {
    assert.deepEqual(validateTxPure(tx, ctx), []);
  });

  it('metadata: chain id, rollup version, vk tree root and protocol contracts hash must match', () => {
    assert.deepEqual(validateTxPure(tx, { ...ctx, chainId: 1n }), [TX_ERROR.INCORRECT_L1_CHAIN_ID]);
    assert.deepEqual(validateTxPure(tx, { ...ctx, rollupVersion: 2n }), [TX_ERROR.INCORRECT_ROLLUP_VERSION]);
    assert.deepEqual(validateTxPure(tx, { ...ctx, vkTreeRoot: 5n }), [TX_ERROR.INCORRECT_VK_TREE_ROOT]);
    assert.deepEqual(validateTxPure(tx, { ...ctx, protocolContractsHash: 5n }), [
      TX_ERROR.INCORRECT_PROTOCOL_CONTRACTS_HASH,
    ]);
    const own = {
      vkTreeRoot: tx.data.constants.vkTreeRoot,
      protocolContractsHash: tx.data.constants.protocolContractsHash,
    };
    assert.deepEqual(validateTxPure(tx, { ...ctx, ...own }), []);
  });

  it('expiration: expiring before the next block is invalid; at it, valid', () => {
    assert.deepEqual(validateTxPure(tx, { ...ctx, nextBlockTimestamp: 1_780_000_032n }), [
      TX_ERROR.INVALID_EXPIRATION_TIMESTAMP,
    ]);
    assert.deepEqual(validateTxPure(tx, { ...ctx, nextBlockTimestamp: 1_780_000_031n }), []);
  });

  it('expiration: block 1 takes an expired tx (4.1.2 TimestampTxValidator: its anchor is genesis, timestamp 0); block 2 does not', () => {
    const expiredCtx = { ...ctx, nextBlockTimestamp: 1_780_000_032n };
    assert.deepEqual(validateTxPure(tx, { ...expiredCtx, nextBlockNumber: 1 }), []);
    assert.deepEqual(validateTxPure(tx, { ...expiredCtx, nextBlockNumber: 2 }), [
      TX_ERROR.INVALID_EXPIRATION_TIMESTAMP,
    ]);
  });

  it('size: above the byte limit or the calldata field limit is invalid', () => {
    const size = getTxSizeBytes(tx);
    assert.deepEqual(validateTxPure(tx, { ...ctx, maxTxSizeBytes: size - 1 }), [TX_ERROR.SIZE_ABOVE_LIMIT]);
    assert.deepEqual(validateTxPure(tx, { ...ctx, maxTxSizeBytes: size }), []);
    assert.deepEqual(validateTxPure(tx, { ...ctx, maxCalldataFields: 0 }), [TX_ERROR.CALLDATA_COUNT_TOO_LARGE]);
  });

  it('gas limits: below the minimum for the tx kind, or above the maximum, is invalid', () => {
    const min = { forPublic: { daGas: 1000, l2Gas: 5_000_001 }, forRollup: { daGas: 0, l2Gas: 0 } };
    assert.deepEqual(validateTxPure(tx, { ...ctx, minGasLimits: min }), [TX_ERROR.INSUFFICIENT_GAS_LIMIT]);
    assert.deepEqual(
      validateTxPure(
        withGas(tx, (g) => (g.gasLimits.daGas = 1_000_001)),
        ctx,
      ),
      [TX_ERROR.GAS_LIMIT_TOO_HIGH],
    );
    // The rollup minimum applies to a private-only tx (rollup-02 has chain id 0, version 0).
    const rctx = {
      ...ctx,
      chainId: 0n,
      rollupVersion: 0n,
      nextBlockTimestamp: 0n,
      minFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 0n },
    };
    assert.deepEqual(validateTxPure(rollupTx, { ...rctx, minGasLimits: min }), []);
  });

  it('fees: a max fee per gas below the minimum in either dimension is invalid unless fee enforcement is skipped', () => {
    const low = { ...ctx, minFeesPerGas: { feePerDaGas: 124n, feePerL2Gas: 0n } };
    assert.deepEqual(validateTxPure(tx, low), [TX_ERROR.INSUFFICIENT_FEE_PER_GAS]);
    assert.deepEqual(validateTxPure(tx, { ...ctx, minFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 456_790n } }), [
      TX_ERROR.INSUFFICIENT_FEE_PER_GAS,
    ]);
    assert.deepEqual(validateTxPure(tx, { ...low, skipFeeEnforcement: true }), []);
  });

  it('nullifiers: the same non-empty nullifier twice in the tx is invalid, across phases too', () => {
    const first = getNullifiers(tx)[0];
    const dup = withData(tx, (d) => (d.forPublic.revertibleAccumulatedData.nullifiers[5] = first));
    assert.deepEqual(validateTxPure(dup, ctx), [TX_ERROR.DUPLICATE_NULLIFIER_IN_TX]);
  });

  it('every failing pure check is reported', () => {
    assert.deepEqual(validateTxPure(tx, { ...ctx, chainId: 1n, nextBlockTimestamp: 2_000_000_000n }), [
      TX_ERROR.INVALID_EXPIRATION_TIMESTAMP,
      TX_ERROR.INCORRECT_L1_CHAIN_ID,
    ]);
  });
});

describe('deployment logs (4.1.2 DataTxValidator and ContractInstanceTxValidator)', () => {
  const token = exampleTokenDeployment();
  const deploy = (publishClass = token.contractClass, publishInstance = token.instance) =>
    buildPublicTx({
      chainId: 31337n,
      rollupVersion: 1n,
      anchorBlockHeader: IN_MEMORY_CONTEXT.anchorBlockHeader,
      feePayer: 0x1002n,
      txNullifier: 0x7e57n,
      maxFeesPerGas: { feePerDaGas: 1000n, feePerL2Gas: 1_000_000n },
      publishClass,
      publishInstance,
      appCalls: [{ to: publishInstance.address, from: 0xf0n, calldata: calldata('constructor((Field))', 0xf0n) }],
    }).tx;
  const deployCtx: TxValidationContext = {
    ...ctx,
    nextBlockTimestamp: BigInt(Math.floor(Date.now() / 1000)),
    minGasLimits: { forPublic: { daGas: 0, l2Gas: 0 }, forRollup: { daGas: 0, l2Gas: 0 } },
    minFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 0n },
  };

  it('a deployment whose class id and address derive from their fields passes', () => {
    const tx = deploy();
    assert.equal(checkContractClassLogs(tx), undefined);
    assert.equal(checkContractInstanceLogs(tx), undefined);
    assert.deepEqual(validateTxPure(tx, deployCtx), []);
  });
  it('a class log claiming an id its contents do not derive is "Incorrect contract class id"', () => {
    const tx = deploy({ ...token.contractClass, id: token.contractClass.id + 1n });
    assert.equal(checkContractClassLogs(tx), TX_ERROR.INCORRECT_CONTRACT_CLASS_ID);
    assert.deepEqual(validateTxPure(tx, deployCtx), [TX_ERROR.INCORRECT_CONTRACT_CLASS_ID]);
  });
  it('an instance log at an address its fields do not derive is "Incorrect contract instance deployment address"', () => {
    const tx = deploy(token.contractClass, { ...token.instance, address: token.instance.address + 1n });
    assert.equal(checkContractInstanceLogs(tx), TX_ERROR.INCORRECT_CONTRACT_ADDRESS);
    assert.deepEqual(validateTxPure(tx, deployCtx), [TX_ERROR.INCORRECT_CONTRACT_ADDRESS]);
  });
  it('txs without deployments (the vectors) have nothing to check', () => {
    assert.equal(checkContractClassLogs(tx), undefined);
    assert.equal(checkContractInstanceLogs(rollupTx), undefined);
  });
});

describe('validateTx with injected state checks', () => {
  it('default: no callbacks, a tx passing the pure checks is valid', async () => {
    assert.deepEqual(await validateTx(tx, ctx), { result: 'valid' });
  });

  it('stateful checks are not called when a pure check fails', async () => {
    let called = false;
    const result = await validateTx(tx, { ...ctx, chainId: 9n }, { verifyProof: async () => ((called = true), true) });
    assert.deepEqual(result, { result: 'invalid', reason: [TX_ERROR.INCORRECT_L1_CHAIN_ID] });
    assert.equal(called, false);
  });

  it('an existing nullifier, unknown anchor block or rejected setup call is reported', async () => {
    const existing = await validateTx(tx, ctx, { findExistingNullifiers: async (ns) => ns.slice(0, 1) });
    assert.deepEqual(existing, { result: 'invalid', reason: [TX_ERROR.EXISTING_NULLIFIER] });
    assert.deepEqual(await validateTx(tx, ctx, { isAnchorBlockKnown: async () => false }), {
      result: 'invalid',
      reason: [TX_ERROR.BLOCK_HEADER],
    });
    const seen: bigint[] = [];
    const setup = await validateTx(tx, ctx, {
      isSetupCallAllowed: async (c) => (seen.push(c.request.calldataHash), false),
    });
    assert.deepEqual(setup, { result: 'invalid', reason: [TX_ERROR.SETUP_FUNCTION_NOT_ALLOWED] });
    assert.deepEqual(seen, [getPublicCallRequests(tx.data).setup[0].calldataHash]);
  });

  it('only setup calls go through the allow-list', async () => {
    const seen: bigint[] = [];
    await validateTx(tx, ctx, { isSetupCallAllowed: async (c) => (seen.push(c.request.calldataHash), true) });
    assert.deepEqual(
      seen,
      getPublicCallRequests(tx.data).setup.map((c) => c.calldataHash),
    );
  });

  it('fee payer balance below the fee limit is invalid, unless fee enforcement is skipped', async () => {
    const limit = maxFee(tx.data.constants.txContext.gasSettings);
    const poor = { getFeePayerBalance: async () => limit - 1n };
    assert.deepEqual(await validateTx(tx, ctx, poor), {
      result: 'invalid',
      reason: [TX_ERROR.INSUFFICIENT_FEE_PAYER_BALANCE],
    });
    assert.deepEqual(await validateTx(tx, ctx, { getFeePayerBalance: async () => limit }), { result: 'valid' });
    assert.deepEqual(await validateTx(tx, { ...ctx, skipFeeEnforcement: true }, poor), { result: 'valid' });
  });

  it('a failing proof is invalid, except in simulation', async () => {
    const bad = { verifyProof: async () => false };
    assert.deepEqual(await validateTx(tx, ctx, bad), { result: 'invalid', reason: [TX_ERROR.INVALID_PROOF] });
    assert.deepEqual(await validateTx(tx, { ...ctx, isSimulation: true }, bad), { result: 'valid' });
  });
});
