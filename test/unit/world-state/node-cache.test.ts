import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { NODE_CACHE_MAX_ENTRIES, NodeCache } from '../../../src/impl/world-state/node-cache.ts';

describe('NodeCache', () => {
  it('keeps (tree, level, index) apart, at the largest tree, level and index', () => {
    const c = new NodeCache();
    const top = 2 ** 42 - 1;
    c.set(4, 41, top, 1n);
    c.set(4, 42, 0, 2n);
    c.set(3, 41, top, 3n);
    c.set(0, 0, top, 4n);
    assert.deepEqual([c.get(4, 41, top), c.get(4, 42, 0), c.get(3, 41, top), c.get(0, 0, top)], [1n, 2n, 3n, 4n]);
    assert.equal(c.get(4, 41, top - 1), undefined);
  });

  it('holds at most its bound in two generations: the older goes whole when the younger fills', () => {
    const c = new NodeCache(8); // generations of 4
    for (let i = 0; i < 4; i++) c.set(1, 0, i, BigInt(i)); // young fills and becomes the old one
    assert.equal(c.size, 4);
    c.set(1, 0, 0, 10n); // rewritten: the young copy is the newest and is the one read
    assert.equal(c.get(1, 0, 0), 10n);
    assert.equal(c.get(1, 0, 1), 1n); // a hit in the old generation moves to the young one
    c.set(1, 0, 4, 4n);
    c.set(1, 0, 5, 5n); // young holds 4 again: the old (0, 1, 2, 3 as written first) is dropped
    assert.ok(c.size <= 8);
    assert.equal(c.get(1, 0, 2), undefined);
    assert.equal(c.get(1, 0, 3), undefined);
    assert.deepEqual(
      [0, 1, 4, 5].map((i) => c.get(1, 0, i)),
      [10n, 1n, 4n, 5n],
    );
  });

  it('a long run of blocks stays within the default bound while the nodes every block rewrites stay', () => {
    const c = new NodeCache();
    // Each "block" writes 1 000 fresh leaves' nodes and rewrites the same 40 upper nodes.
    for (let block = 0; block < 400; block++) {
      for (let k = 0; k < 1000; k++) c.set(2, 0, block * 1000 + k, 1n);
      for (let level = 1; level <= 40; level++) c.set(2, level, 0, BigInt(block));
    }
    assert.ok(c.size <= NODE_CACHE_MAX_ENTRIES);
    assert.equal(c.get(2, 40, 0), 399n);
    assert.equal(c.get(2, 0, 0), undefined); // the first block's leaves aged out
    assert.equal(c.get(2, 0, 399_999), 1n);
    c.clear();
    assert.equal(c.size, 0);
  });
});
