import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { median, percentile, percentileSorted, ratio, slope } from '../../../bench/lib/stats.ts';

describe('median', () => {
  it('odd count: the middle value', () => assert.equal(median([5, 1, 3]), 3));
  it('even count: the mean of the two middle values', () => assert.equal(median([4, 1, 3, 2]), 2.5));
  it('empty: NaN', () => assert.ok(Number.isNaN(median([]))));
  it('does not reorder its input', () => {
    const xs = [3, 1, 2];
    median(xs);
    assert.deepEqual(xs, [3, 1, 2]);
  });
});

describe('percentile (nearest rank)', () => {
  const xs = Array.from({ length: 1000 }, (_, i) => 1000 - i); // 1000..1
  it('p99 of 1..1000 is 990', () => assert.equal(percentile(xs, 99), 990));
  it('p50 of 1..1000 is 500', () => assert.equal(percentile(xs, 50), 500));
  it('p100 is the maximum, p0 the minimum', () => {
    assert.equal(percentile(xs, 100), 1000);
    assert.equal(percentile(xs, 0), 1);
  });
  it('works on typed arrays already sorted', () =>
    assert.equal(percentileSorted(Float64Array.from([1, 2, 3, 4]), 50), 2));
  it('empty: NaN', () => assert.ok(Number.isNaN(percentile([], 50))));
});

describe('ratio', () => {
  it('value over baseline', () => assert.equal(ratio(8, 10), 0.8));
  it('missing or zero baseline: NaN', () => {
    assert.ok(Number.isNaN(ratio(1, 0)));
    assert.ok(Number.isNaN(ratio(undefined, 3)));
    assert.ok(Number.isNaN(ratio(3, undefined)));
    assert.ok(Number.isNaN(ratio(Number.NaN, 3)));
  });
});

describe('slope (least squares)', () => {
  it('a straight line: its slope', () => assert.equal(slope([0, 1, 2, 3].map((x) => ({ x, y: 5 + 2 * x }))), 2));
  it('flat noise around a level: close to 0', () =>
    assert.ok(Math.abs(slope([1, -1, 1, -1, 1, -1].map((d, x) => ({ x, y: 100 + d })))) < 0.5));
  it('fewer than two points, or one x: NaN', () => {
    assert.ok(Number.isNaN(slope([{ x: 1, y: 1 }])));
    assert.ok(
      Number.isNaN(
        slope([
          { x: 1, y: 1 },
          { x: 1, y: 2 },
        ]),
      ),
    );
  });
});
