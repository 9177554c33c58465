/**
 * Issue 8 wiring on the running node (bin/l2node.js, real process, HTTP): the production loop
 * reports each finished slot to the sentinel, so after a few 1-second slots the validator stats
 * show this node's validator proposing (`checkpoint-mined`) — the dev validator without a
 * keystore, the operator's attester with `--keystore` — and proven epochs are recorded.
 * @module
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEV_VALIDATOR_ADDRESS } from '../../src/impl/validators/dev-validator.ts';
import { ok, startChainNode, waitFor } from './node-harness.ts';
import { tempDir } from './server-process-harness.ts';

/** A test-only key (not a funded or documented one) and its address. */
const OPERATOR_KEY = '0x' + '11'.repeat(32);
const OPERATOR = '0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a';

async function statsShowProposals(url: string, validator: string) {
  const all = await waitFor('checkpoint-mined entries', async () => {
    const s = await ok(url, 'node_getValidatorsStats');
    const history: { status: string }[] = s.stats[validator]?.history ?? [];
    return history.filter((h) => h.status === 'checkpoint-mined').length >= 2 ? s : undefined;
  }, 20_000);
  assert.deepEqual(Object.keys(all.stats), [validator], 'our validator is the whole set');
  assert.ok(all.lastProcessedSlot >= 2);
  const one = await ok(url, 'node_getValidatorStats', validator);
  assert.equal(one.validator.address, validator);
  assert.ok(one.validator.history.some((h: { status: string }) => h.status === 'checkpoint-mined'));
  assert.equal(await ok(url, 'node_getValidatorStats', '0x' + 'ab'.repeat(20)), null);
  return one;
}

describe('node process: validator stats from the production loop', { timeout: 90_000 }, () => {
  it('without a keystore, the dev validator proposes every slot and its proven epochs are recorded', async () => {
    const node = await startChainNode(await tempDir(), Math.floor(Date.now() / 1000) - 1, ['--build-empty-blocks']);
    try {
      await statsShowProposals(node.publicUrl, DEV_VALIDATOR_ADDRESS);
      // 2-slot epochs proven 1 s after they end: an epoch's performance shows up.
      const proven = await waitFor('proven performance', async () => {
        const one = await ok(node.publicUrl, 'node_getValidatorStats', DEV_VALIDATOR_ADDRESS);
        return one.allTimeProvenPerformance.length > 0 ? one.allTimeProvenPerformance : undefined;
      }, 20_000);
      assert.equal(proven[0].missed, 0);
      assert.ok(proven[0].total >= 1);
    } finally {
      assert.equal(await node.stop('SIGTERM'), 0);
    }
  });

  it('with --keystore, the operator\'s attester is the validator set and proposes', async () => {
    const dir = await tempDir();
    const file = join(dir, 'keys.json');
    await writeFile(file, JSON.stringify({ schemaVersion: 1, validators: [{ attester: OPERATOR_KEY, feeRecipient: '0x' + '0'.repeat(60) + '1001' }] }));
    const node = await startChainNode(join(dir, 'data'), Math.floor(Date.now() / 1000) - 1, ['--build-empty-blocks', '--keystore', file]);
    try {
      await statsShowProposals(node.publicUrl, OPERATOR);
    } finally {
      assert.equal(await node.stop('SIGTERM'), 0);
    }
  });
});
