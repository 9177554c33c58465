/**
 * `npm run conformance:fill` is deterministic and its output is committed: a fresh fill equals the
 * recorded fixtures in the tree (CI refills and fails on any difference).
 * @module
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareRecorded, fillFromFreshNode, readRecorded } from '../../src/conformance/fill.ts';

describe('conformance:fill', () => {
  it('a fresh fill equals the committed recorded fixtures', async () => {
    const outcome = await fillFromFreshNode();
    assert.ok(outcome.files.size > 0, 'something is recorded');
    assert.deepEqual(
      compareRecorded(readRecorded(), outcome.files),
      [],
      'run npm run conformance:fill and commit the result',
    );
  });

  it('names every case it did not record, with the reason', async () => {
    const outcome = await fillFromFreshNode([
      { method: 'node_getBlockNumber', name: 'genesis', description: 'd', params: [], waitingFor: 'chain' },
    ]);
    assert.deepEqual(outcome.waiting, [{ path: 'public/node_getBlockNumber/genesis.io', reason: 'waiting for chain' }]);
    assert.equal(outcome.files.size, 0);
  });
});
