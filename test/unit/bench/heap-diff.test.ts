import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { type HeapSnapshot, largestGains, newObjectsByOwner, summarizeSnapshot } from '../../../bench/rpc/heap-diff.ts';

/** A snapshot in V8's layout: nodes [type, name, id, self_size, edge_count], edges [type, name_or_index, to_node]. */
function snapshot(nodes: [string, string, number, number][], edges: [number, string, number][]): HeapSnapshot {
  const nodeTypes = ['hidden', 'object', 'string', 'bigint'];
  const strings: string[] = [];
  const str = (s: string) => (strings.includes(s) ? strings.indexOf(s) : strings.push(s) - 1);
  return {
    snapshot: {
      meta: {
        node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'],
        node_types: [nodeTypes],
        edge_fields: ['type', 'name_or_index', 'to_node'],
        edge_types: [['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak']],
      },
    },
    nodes: nodes.flatMap(([t, name, size, edgeCount], i) => [
      nodeTypes.indexOf(t),
      str(name),
      i * 2 + 1,
      size,
      edgeCount,
    ]),
    // Edges are listed in their source node's order (edge_count each), as V8 writes them.
    edges: edges.flatMap(([, name, to]) => [2, str(name), to * 5]),
    strings,
  };
}

describe('heap-diff', () => {
  // Root (hidden) → a Cache object → its Map, which holds two bigints; later four.
  const before = snapshot(
    [
      ['hidden', '(root)', 0, 1],
      ['object', 'Cache', 32, 1],
      ['object', 'Map', 64, 2],
      ['bigint', '', 48, 0],
      ['bigint', '', 48, 0],
    ],
    [
      [0, 'cache', 1],
      [1, 'table', 2],
      [2, 'a', 3],
      [2, 'b', 4],
    ],
  );
  const after = snapshot(
    [
      ['hidden', '(root)', 0, 1],
      ['object', 'Cache', 32, 1],
      ['object', 'Map', 96, 4],
      ['bigint', '', 48, 0],
      ['bigint', '', 48, 0],
      ['bigint', '', 48, 0],
      ['bigint', '', 48, 0],
    ],
    [
      [0, 'cache', 1],
      [1, 'table', 2],
      [2, 'a', 3],
      [2, 'b', 4],
      [2, 'c', 5],
      [2, 'd', 6],
    ],
  );
  it('groups objects by kind and constructor, strings and bigints by kind', () => {
    const s = summarizeSnapshot(before);
    assert.equal(s.totalBytes, 192);
    assert.deepEqual(s.groups.get('(bigint)'), { count: 2, bytes: 96 });
    assert.deepEqual(s.groups.get('object:Map'), { count: 1, bytes: 64 });
  });
  it('the largest gains first, with who holds them', () => {
    const gains = largestGains(summarizeSnapshot(before), summarizeSnapshot(after), 2);
    assert.deepEqual(
      gains.map((g) => [g.group, g.after.bytes - g.before.bytes]),
      [
        ['(bigint)', 96],
        ['object:Map', 32],
      ],
    );
    const held = summarizeSnapshot(after, new Set(['(bigint)'])).retainers.get('(bigint)')!;
    assert.deepEqual(
      [...held.entries()],
      [
        ['object:Map.a', 1],
        ['object:Map.b', 1],
        ['object:Map.c', 1],
        ['object:Map.d', 1],
      ],
    );
  });
  it('new objects (ids the earlier snapshot lacks) by the first non-container object that holds them', () => {
    assert.deepEqual(newObjectsByOwner(before, after), [{ owner: 'object:Cache.table', objects: 2, bytes: 96 }]);
  });
});
