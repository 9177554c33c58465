import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { median, percentile, percentileSorted, ratio, residentShape, slope } from '../../../bench/lib/stats.ts';

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

describe('residentShape', () => {
  const MB = 1024 * 1024;
  // One sample a second over 8 minutes.
  const series = (rss: (s: number) => number) =>
    Array.from({ length: 480 }, (_, s) => ({ t: s * 1000, rss: rss(s) * MB }));

  it('per-minute medians of the span', () => {
    const shape = residentShape(
      series((s) => 100 + Math.floor(s / 60)),
      0,
      240_000,
    );
    assert.deepEqual(
      shape.perMinute.map((x) => x / MB),
      [100, 101, 102, 103],
    );
  });

  it('a collector sawtooth keeps its floor: the last quarter is no higher than the third', () => {
    // Rises 0.5 MB/s, dropped back to 150 MB by a collection every 100 s.
    const shape = residentShape(
      series((s) => 150 + (s % 100) / 2),
      0,
      480_000,
    );
    assert.ok(shape.floorLast <= shape.floorBefore, `${shape.floorLast / MB} vs ${shape.floorBefore / MB}`);
  });

  it('a leak raises the floor', () => {
    // The same sawtooth on top of 0.1 MB/s that no collection returns.
    const shape = residentShape(
      series((s) => 150 + s / 10 + (s % 100) / 2),
      0,
      480_000,
    );
    assert.ok(shape.floorLast > shape.floorBefore * 1.02, `${shape.floorLast / MB} vs ${shape.floorBefore / MB}`);
  });
});
