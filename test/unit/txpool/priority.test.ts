/** Ordering, price bump and the balance walk (the priority fee itself: test/unit/fees/fees.test.ts). @module */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uncoveredByBalance } from '../../../src/impl/txpool/pool-rules.ts';
import type { PoolEntry } from '../../../src/impl/txpool/priority.ts';
import { comparePriority, minimumPriceBumpFee } from '../../../src/impl/txpool/priority.ts';

const entry = (txHash: bigint, priorityFee: bigint, feeLimit = 0n, claimAmount = 0n): PoolEntry => ({
  txHash,
  priorityFee,
  feeLimit,
  claimAmount,
  feePayer: 1n,
  nullifiers: [],
  expirationTimestamp: 0n,
  maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: priorityFee },
  anchorBlockHash: 0n,
  seq: 0,
});

describe('priority', () => {
  it('order: higher fee first, equal fees by tx hash ascending', () => {
    const sorted = [entry(5n, 1n), entry(9n, 2n), entry(3n, 2n)].sort(comparePriority).map((e) => e.txHash);
    assert.deepEqual(sorted, [3n, 9n, 5n]);
  });

  it('price bump: existing + existing·pct/100, at least +1', () => {
    assert.equal(minimumPriceBumpFee(100n, 10n), 110n);
    assert.equal(minimumPriceBumpFee(5n, 10n), 6n);
    assert.equal(minimumPriceBumpFee(0n, 10n), 1n);
    assert.equal(minimumPriceBumpFee(1000n, 25n), 1250n);
  });

  it("balance walk: highest priority first; a tx's own claim adds to what it may spend", () => {
    const hi = entry(1n, 9n, 60n),
      mid = entry(2n, 5n, 50n, 20n),
      lo = entry(3n, 1n, 20n);
    // 100 → hi leaves 40; mid has 40 + 20 = 60 ≥ 50, leaves 10; lo needs 20 > 10.
    assert.deepEqual(uncoveredByBalance([lo, mid, hi], 100n), [{ entry: lo, available: 10n }]);
    assert.deepEqual(uncoveredByBalance([lo, mid, hi], 110n), []);
  });
});
