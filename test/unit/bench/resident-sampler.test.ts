import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { DetailSample, SplitSample } from '../../../bench/rpc/resident-sampler.ts';
import { describeParts, largestGrowth, windowParts } from '../../../bench/rpc/resident-sampler.ts';

const MB = 1024 * 1024;

/** A series whose anonymous pages step up by 20 MB at 60 s, with a fourth thread from then on. */
function series(): { splits: SplitSample[]; details: DetailSample[] } {
  const splits: SplitSample[] = [];
  const details: DetailSample[] = [];
  for (let t = 0; t < 120_000; t += 1000) {
    const anon = (t < 60_000 ? 150 : 170) * MB;
    splits.push({ t, rss: anon + 60 * MB, anon, file: 60 * MB, shmem: 0 });
    if (t % 5000 === 0)
      details.push({
        t,
        groups: [
          { name: '[heap]', rssBytes: (t < 60_000 ? 30 : 50) * MB, mappings: 1 },
          { name: 'anonymous', rssBytes: 120 * MB, mappings: 600 },
          { name: 'node', rssBytes: 50 * MB, mappings: 10 },
        ],
        threads: t < 60_000 ? { MainThread: 1, WorkerThread: 2 } : { MainThread: 1, WorkerThread: 3 },
        v8: { used: 40 * MB, total: 80 * MB, external: 10 * MB, spaces: { new: 32 * MB, old: 40 * MB } },
      });
  }
  return { splits, details };
}

describe('windowParts', () => {
  it('medians of each part over the window, threads at their most', () => {
    const { splits, details } = series();
    const p = windowParts(splits, details, 60_000, 120_000);
    assert.equal(p.rss, 230 * MB);
    assert.equal(p.anon, 170 * MB);
    assert.equal(p.groups['[heap]'], 50 * MB);
    assert.equal(p.v8Total, 80 * MB);
    assert.deepEqual(p.threads, { MainThread: 1, WorkerThread: 3 });
  });
  it('a window without samples: NaN', () => {
    const { splits, details } = series();
    assert.ok(Number.isNaN(windowParts(splits, details, 500_000, 600_000).rss));
  });
});

describe('describeParts', () => {
  it('names the part that grew, the mapping that moved and the thread that came', () => {
    const { splits, details } = series();
    const text = describeParts(windowParts(splits, details, 0, 50_000), windowParts(splits, details, 70_000, 120_000));
    assert.match(text, /resident 210 → 230 MB \(\+20\): anonymous 150 → 170 \(\+20\), file-backed 60 → 60 \(\+0\)/);
    assert.match(text, /V8 heap committed 80 → 80 MB \(\+0\)/);
    assert.match(text, /outside V8's committed heap \(malloc arenas, thread stacks, pooled pages\) 70 → 90 \(\+20\)/);
    assert.match(text, /mappings that moved: \[heap\] \+20/);
    assert.match(text, /threads 3 → 4 \(\+1 'WorkerThread'\)/);
    assert.doesNotMatch(text, /caches/);
  });
  it("gives the node's caches' fill when its /metrics has them", () => {
    const { splits, details } = series();
    const withCaches = details.map((d) => ({
      ...d,
      caches: { world_state_nodes: (d.t < 60_000 ? 4 : 6) * MB, decoded_blocks: 1.5 * MB },
    }));
    const text = describeParts(
      windowParts(splits, withCaches, 0, 50_000),
      windowParts(splits, withCaches, 70_000, 120_000),
    );
    assert.match(
      text,
      /the node's caches \(l2node_cache_bytes\) 5\.5 → 7\.5 MB: decoded_blocks 1\.5 → 1\.5, world_state_nodes 4\.0 → 6\.0$/,
    );
  });
});

describe('largestGrowth', () => {
  it("outside V8's heap when the main arena grew and V8's committed heap did not", () => {
    const { splits, details } = series();
    const g = largestGrowth(windowParts(splits, details, 0, 50_000), windowParts(splits, details, 70_000, 120_000));
    assert.match(g.part, /^anonymous memory outside the main thread's V8 heap/);
    assert.equal(g.bytes, 20 * MB);
  });
  it("V8's heap when its committed size grew", () => {
    const { splits, details } = series();
    const before = windowParts(splits, details, 0, 50_000);
    const after = {
      ...before,
      rss: before.rss + 30 * MB,
      anon: before.anon + 30 * MB,
      v8Total: before.v8Total + 25 * MB,
    };
    assert.deepEqual(largestGrowth(before, after), { part: "the main thread's V8 heap (committed)", bytes: 25 * MB });
  });
});

describe('describeParts without detailed samples', () => {
  it('says so instead of comparing mappings with nothing', () => {
    const { splits, details } = series();
    const text = describeParts(windowParts(splits, details, 1000, 4000), windowParts(splits, details, 70_000, 120_000));
    assert.match(text, /^resident 210 → 230 MB \(\+20\)/);
    assert.match(text, /no detailed sample \(mappings, threads, V8's heap\) in the earlier window/);
    assert.doesNotMatch(text, /mappings that moved/);
  });
});
