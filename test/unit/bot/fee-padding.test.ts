/** The bot's fee offer: min fees × (1 + --bot.minFeePadding), rounded up (SPEC §9). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { padMinFees, paddingFactor } from '../../../src/impl/bot/fee-padding.ts';

describe('padMinFees', () => {
  it('default padding 3 offers four times the minimum, per dimension', () => {
    assert.deepEqual(padMinFees({ feePerDaGas: '0', feePerL2Gas: '12345678901234567890' }, 3), {
      feePerDaGas: 0n,
      feePerL2Gas: 49382715604938271560n,
    });
  });

  it('a fraction: 0.5 offers 1.5×, 0.1 offers 1.1× without float error', () => {
    assert.deepEqual(padMinFees({ feePerDaGas: 10n, feePerL2Gas: 1000n }, 0.5), {
      feePerDaGas: 15n,
      feePerL2Gas: 1500n,
    });
    assert.deepEqual(padMinFees({ feePerDaGas: 10n, feePerL2Gas: 1000n }, 0.1), {
      feePerDaGas: 11n,
      feePerL2Gas: 1100n,
    });
  });

  it('rounds up: never offers less than the minimum', () => {
    assert.deepEqual(padMinFees({ feePerDaGas: 1n, feePerL2Gas: 3n }, 0.5), { feePerDaGas: 2n, feePerL2Gas: 5n });
    assert.deepEqual(padMinFees({ feePerDaGas: 7n, feePerL2Gas: 9n }, 0), { feePerDaGas: 7n, feePerL2Gas: 9n });
  });

  it('exact above 2^53 (decimal strings as node_getCurrentMinFees answers)', () => {
    const big = 2n ** 80n + 1n;
    assert.equal(padMinFees({ feePerDaGas: big.toString(), feePerL2Gas: '1' }, 1).feePerDaGas, 2n * big);
  });

  it('refuses a negative or non-finite padding', () => {
    assert.throws(() => paddingFactor(-0.1), RangeError);
    assert.throws(() => paddingFactor(Number.NaN), RangeError);
    assert.equal(paddingFactor(0.25), 1_250_000n);
  });
});
