import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  countThreadNames,
  parseCacheBytes,
  parseSmapsGroups,
  parseStatusSplit,
  parseV8Heap,
} from '../../../bench/lib/proc-memory.ts';

// Recorded from a soak node (bin/l2node.js with --build-empty-blocks, its bot and --metrics-port) a
// minute into bench/rpc/soak-memory.ts; the smaps text is trimmed to a few mappings of each kind.
const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
const KB = 1024;

describe('parseStatusSplit', () => {
  it('reads VmRSS and its anonymous, file-backed and shared parts', () => {
    assert.deepEqual(parseStatusSplit(fixture('node-status.txt')), {
      rss: 273_696 * KB,
      anon: 208_556 * KB,
      file: 65_140 * KB,
      shmem: 0,
    });
  });
  it('a kernel thread (no VmRSS): undefined', () =>
    assert.equal(parseStatusSplit('Name:\tkthreadd\nState:\tS (sleeping)\n'), undefined));
});

describe('parseSmapsGroups', () => {
  const groups = parseSmapsGroups(fixture('node-smaps.txt'));
  const byName = Object.fromEntries(groups.map((g) => [g.name, g]));
  it('groups by what is mapped: the main arena, other anonymous mappings, each file by name', () => {
    assert.equal(byName['[heap]']!.rssBytes, 48_892 * KB);
    assert.equal(byName.anonymous!.rssBytes, 712 * KB);
    assert.equal(byName.anonymous!.mappings, 3);
    assert.equal(byName['l2node.sqlite-shm']!.rssBytes, 32 * KB);
    assert.equal(byName.node!.rssBytes, 3_196 * KB);
    assert.equal(byName.node!.mappings, 2);
    assert.equal(byName['linux-x64.node']!.rssBytes, 1_720 * KB);
    assert.equal(byName['[stack]']!.rssBytes, 84 * KB);
  });
  it('largest first, and the groups add up to every Rss line', () => {
    assert.equal(groups[0]!.name, '[heap]');
    const total = [...fixture('node-smaps.txt').matchAll(/^Rss:\s+(\d+) kB/gm)].reduce((a, m) => a + Number(m[1]), 0);
    assert.equal(
      groups.reduce((a, g) => a + g.rssBytes, 0),
      total * KB,
    );
  });
  it('a deleted file keeps its name; named anonymous mappings count as anonymous', () => {
    const text = [
      '7f0000000000-7f0000001000 rw-s 00000000 00:01 42                         /memfd:wasm (deleted)',
      'Rss:                   4 kB',
      '7f0000002000-7f0000003000 rw-p 00000000 00:00 0                          [anon:v8]',
      'Rss:                   8 kB',
    ].join('\n');
    assert.deepEqual(parseSmapsGroups(text), [
      { name: 'anonymous', rssBytes: 8 * KB, mappings: 1 },
      { name: 'memfd:wasm', rssBytes: 4 * KB, mappings: 1 },
    ]);
  });
});

describe('countThreadNames', () => {
  it('counts /proc/<pid>/task/*/comm texts by name', () =>
    assert.deepEqual(countThreadNames(['MainThread\n', 'V8Worker\n', 'WorkerThread\n', 'V8Worker\n']), {
      MainThread: 1,
      V8Worker: 2,
      WorkerThread: 1,
    }));
});

describe('parseV8Heap', () => {
  it("reads prom-client's default heap metrics and the committed size of each space", () => {
    const heap = parseV8Heap(fixture('node-metrics.txt'))!;
    assert.equal(heap.total, 112_513_024);
    assert.equal(heap.used, 90_633_808);
    assert.equal(heap.external, 12_145_963);
    assert.equal(heap.spaces.new, 33_554_432);
    assert.equal(heap.spaces.old, 63_467_520);
    assert.equal(heap.spaces.large_object, 5_988_352);
  });
  it('an exposition without them: undefined', () =>
    assert.equal(parseV8Heap('# TYPE l2node_x gauge\nl2node_x 1\n'), undefined));
});

describe('parseCacheBytes', () => {
  it('reads l2node_cache_bytes by cache, nothing else', () =>
    assert.deepEqual(
      parseCacheBytes(
        '# TYPE l2node_cache_bytes gauge\nl2node_cache_bytes{cache="world_state_nodes"} 1310700\nl2node_cache_bytes{cache="answers_tip"} 0\nl2node_cache_entries{cache="answers_tip"} 0\n',
      ),
      { world_state_nodes: 1310700, answers_tip: 0 },
    ));
  it('empty without the family', () => assert.deepEqual(parseCacheBytes('nodejs_heap_size_used_bytes 1\n'), {}));
});
