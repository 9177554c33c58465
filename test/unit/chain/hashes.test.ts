import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import trees from '../../../test/vectors/trees.json' with { type: 'json' };
import { feeJuiceBalanceLeafSlot, l2ToL1MessageHash } from '../../../src/impl/chain/protocol.ts';
import { computeMinFees, fakeExponential } from '../../../src/impl/fees/fee-model.ts';

const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');

// Block and checkpoint header hashes and the tree scenarios are tested once, in test/unit/world-state.
describe('chain protocol hashes against trees.json', () => {
  it('feeJuiceBalance: leaf slot of a fee payer balance', () => {
    for (const v of trees.feeJuiceBalance) assert.equal(hex(feeJuiceBalanceLeafSlot(BigInt(v.feePayer))), v.leafSlot);
  });

  it('computeL2ToL1MessageHash: sha256ToField of the 148-byte preimage', () => {
    const v = trees.siloing.computeL2ToL1MessageHash;
    const got = l2ToL1MessageHash({
      sender: BigInt(v.l2Sender),
      recipient: BigInt(v.l1Recipient),
      content: BigInt(v.content),
      rollupVersion: BigInt(v.rollupVersion),
      chainId: BigInt(v.chainId),
    });
    assert.equal(hex(got), v.result);
  });
});

describe('fee model', () => {
  it('fakeExponential: factor when there is no excess, growing with excess', () => {
    assert.equal(fakeExponential(1000n, 0n, 100n), 1000n);
    assert.ok(fakeExponential(1000n, 100n, 100n) > 2700n);
  });

  it('min fees fall when the fee asset gets dearer and rise with congestion', () => {
    const base = { l1GasPriceWei: 10n ** 9n, l1BlobGasPriceWei: 1n, ethPerFeeAsset: 10_000_000n, excessMana: 0n };
    const cheap = computeMinFees(base);
    assert.ok(computeMinFees({ ...base, ethPerFeeAsset: 20_000_000n }).feePerL2Gas < cheap.feePerL2Gas);
    assert.ok(computeMinFees({ ...base, excessMana: 10n ** 9n }).feePerL2Gas > cheap.feePerL2Gas);
  });
});
