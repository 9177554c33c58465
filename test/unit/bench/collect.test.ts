import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { mergeSections } from '../../../bench/collect.ts';

describe('mergeSections', () => {
  it('joins sections of the same title from both groups and keeps the page order', () => {
    const merged = mergeSections([
      { title: 'World state', figures: [] },
      { title: 'Storage engines', figures: [{ name: 'sqlite vs postgres', unit: 'blocks/s' }] },
      { title: 'Poseidon2', figures: [] },
      { title: 'Something new', figures: [] },
      { title: 'P2P gossip', figures: [] },
      { title: 'Storage engines', figures: [{ name: 'two readers', unit: 'req/s' }] },
    ]);
    assert.deepEqual(
      merged.map((s) => s.title),
      ['Poseidon2', 'World state', 'P2P gossip', 'Storage engines', 'Something new'],
    );
    assert.deepEqual(
      merged.find((s) => s.title === 'Storage engines')!.figures.map((f) => f.name),
      ['sqlite vs postgres', 'two readers'],
    );
  });
});
