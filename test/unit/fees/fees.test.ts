/** The fee rules: the formula, the max and priority fees, inclusion, the charge, the credit and setup claims. @module */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { feeJuiceBalanceLeafSlot, PROTOCOL_CONTRACT_ADDRESSES } from '../../../src/impl/chain/protocol.ts';
import type { TxEffect } from '../../../src/impl/chain/types.ts';
import {
  balanceAfterFee,
  billedGas,
  coversFees,
  creditFeeRecipient,
  feeFor,
  maxFee,
  priorityFee,
  setupClaim,
  uncoveredTxs,
} from '../../../src/impl/fees/fees.ts';
import type { GasSettings } from '../../../src/impl/tx/types.ts';
import { buildPublicTx, calldata } from '../../integration/public-tx-builder.ts';
import { buildTx } from '../txpool/helpers/tx-builder.ts';

const settings = (o: Partial<GasSettings> = {}): GasSettings => ({
  gasLimits: { daGas: 1_000_000, l2Gas: 5_000_000 },
  teardownGasLimits: { daGas: 0, l2Gas: 0 },
  maxFeesPerGas: { feePerDaGas: 123n, feePerL2Gas: 456_789n },
  maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 0n },
  ...o,
});

const effect = (o: Partial<TxEffect> = {}): TxEffect => ({
  revertCode: 0,
  txHash: 1n,
  transactionFee: 0n,
  noteHashes: [],
  nullifiers: [],
  l2ToL1Msgs: [],
  publicDataWrites: [],
  privateLogs: [],
  publicLogs: [],
  contractClassLogs: [],
  ...o,
});

describe('fees', () => {
  it('feeFor: gas × fees per gas over both dimensions', () => {
    assert.equal(feeFor({ daGas: 3, l2Gas: 5 }, { feePerDaGas: 7n, feePerL2Gas: 11n }), 3n * 7n + 5n * 11n);
    assert.equal(feeFor({ daGas: 0, l2Gas: 0 }, { feePerDaGas: 7n, feePerL2Gas: 11n }), 0n);
  });

  it('maxFee: gas limits × max fees per gas over both dimensions', () => {
    assert.equal(maxFee(settings()), 1_000_000n * 123n + 5_000_000n * 456_789n);
  });

  it('priorityFee: the smaller of the L2 max fee and the L2 max priority fee; DA fees do not count', () => {
    assert.equal(
      priorityFee(
        buildTx({ maxFeeL2: 8n, priorityFeeL2: 3n, priorityFeeDa: 100n }).tx.data.constants.txContext.gasSettings,
      ),
      3n,
    );
    assert.equal(
      priorityFee(buildTx({ maxFeeL2: 8n, priorityFeeL2: 30n }).tx.data.constants.txContext.gasSettings),
      8n,
    );
  });

  it('coversFees: both dimensions must reach what is asked; equal is enough', () => {
    const asked = { feePerDaGas: 10n, feePerL2Gas: 20n };
    assert.equal(coversFees({ feePerDaGas: 10n, feePerL2Gas: 20n }, asked), true);
    assert.equal(coversFees({ feePerDaGas: 9n, feePerL2Gas: 99n }, asked), false);
    assert.equal(coversFees({ feePerDaGas: 99n, feePerL2Gas: 19n }, asked), false);
  });

  it('uncoveredTxs: spends in the order given, each tx its max fee plus its own claim; an uncovered one spends nothing', () => {
    const a = { feeLimit: 60n, claimAmount: 0n };
    const b = { feeLimit: 60n, claimAmount: 0n };
    const c = { feeLimit: 30n, claimAmount: 0n };
    assert.deepEqual(uncoveredTxs([a, b, c], 100n), [{ entry: b, available: 40n }]);
    assert.deepEqual(uncoveredTxs([a, b, c], 150n), []);
    const claims = { feeLimit: 60n, claimAmount: 60n };
    assert.deepEqual(uncoveredTxs([a, claims], 60n), [], 'the claim covers the second');
    assert.deepEqual(uncoveredTxs([claims, a], 0n), [{ entry: a, available: 0n }], 'the claim covers only its own tx');
  });

  it('billedGas: private gas + public gas used + teardown at its limits', () => {
    assert.deepEqual(billedGas({ daGas: 1, l2Gas: 2 }, { daGas: 10, l2Gas: 20 }, { daGas: 100, l2Gas: 200 }), {
      daGas: 111,
      l2Gas: 222,
    });
  });

  it('balanceAfterFee: the rest when it suffices; short is refused when enforced, zero when not', () => {
    assert.equal(balanceAfterFee(10n, 10n), 0n);
    assert.equal(balanceAfterFee(10n, 3n), 7n);
    assert.equal(balanceAfterFee(2n, 3n), undefined);
    assert.equal(balanceAfterFee(2n, 3n, false), 0n);
  });

  it("creditFeeRecipient: adds the fee to the recipient's balance, or to the tx's own write of it", () => {
    const recipient = 0x77n;
    const slot = feeJuiceBalanceLeafSlot(recipient);
    const read = (s: bigint) => (s === slot ? 1000n : 0n);
    assert.deepEqual(creditFeeRecipient(effect(), recipient, read), effect(), 'no fee, no write');
    const other = { leafSlot: 5n, value: 6n };
    assert.deepEqual(
      creditFeeRecipient(effect({ transactionFee: 30n, publicDataWrites: [other] }), recipient, read).publicDataWrites,
      [other, { leafSlot: slot, value: 1030n }],
    );
    const own = effect({ transactionFee: 30n, publicDataWrites: [{ leafSlot: slot, value: 50n }, other] });
    assert.deepEqual(creditFeeRecipient(own, recipient, read).publicDataWrites, [
      { leafSlot: slot, value: 80n },
      other,
    ]);
  });

  it("setupClaim: FeeJuice's own _increase_public_balance(feePayer, amount) in setup counts; other calls do not", () => {
    const feeJuice = PROTOCOL_CONTRACT_ADDRESSES.feeJuice;
    const payer = 0x1234n;
    const claim = (to: bigint, amount: bigint, from: bigint = feeJuice) => ({
      to: feeJuice,
      from,
      calldata: calldata('_increase_public_balance((Field),u128)', to, amount),
    });
    const tx = (setupCalls: ReturnType<typeof claim>[], appCalls: ReturnType<typeof claim>[] = []) =>
      buildPublicTx({ txNullifier: 0x99n, feePayer: payer, setupCalls, ...(appCalls.length ? { appCalls } : {}) }).tx;
    assert.equal(setupClaim(tx([claim(payer, 500n), claim(payer, 25n)])), 525n);
    assert.equal(setupClaim(tx([claim(0x5555n, 500n)])), 0n, 'a claim for someone else');
    assert.equal(setupClaim(tx([claim(payer, 500n, 0x42n)])), 0n, 'not FeeJuice calling itself');
    assert.equal(setupClaim(tx([claim(payer, 1n)], [claim(payer, 500n)])), 1n, 'app logic does not count');
  });
});
