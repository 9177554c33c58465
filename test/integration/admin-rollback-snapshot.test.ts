/** nodeAdmin_rollbackTo and nodeAdmin_startSnapshotUpload over the admin port, and restoring the snapshot. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { openDatabase, SQLITE_FILE_NAME } from '../../src/impl/store/database.ts';
import { restoreSnapshot } from '../../src/impl/snapshots/snapshot-restore.ts';
import { tempDir, testAddress, testFeeRecipient, testKey, writeKeystore } from '../unit/validators/helpers.ts';
import { call, startAdminNode, type AdminNode } from './admin-harness.ts';

const validatorSet = [1, 2].map(testAddress);
let node: AdminNode;
before(async () => {
  const keys = tempDir();
  // Both validators are ours: a block every slot.
  writeKeystore(
    keys,
    'k.json',
    [1, 2].map((i) => ({ attester: testKey(i), feeRecipient: testFeeRecipient(i) })),
  );
  node = await startAdminNode({ dataDirectory: tempDir(), validatorSet, keystore: keys });
  for (let i = 0; i < 10; i++) {
    node.chain.pool.push(`tx-${i}`);
    await node.passSlots(1);
  }
});
after(() => node.close());

describe('nodeAdmin_rollbackTo', () => {
  it('above the tip: ROLLBACK_REFUSED ABOVE_TIP with the compared blocks', async () => {
    const { body } = await call(node.adminUrl, 'nodeAdmin_rollbackTo', [15]);
    assert.deepEqual(body.error, {
      code: -32052,
      message: 'Rollback to block 15 refused: ABOVE_TIP',
      data: { reason: 'ABOVE_TIP', targetBlockNumber: 15, tipBlockNumber: 10, finalizedBlockNumber: 8 },
    });
  });

  it('behind finalized without force: BEHIND_FINALIZED_NEEDS_FORCE; a negative target is -32602', async () => {
    const { body } = await call(node.adminUrl, 'nodeAdmin_rollbackTo', [7]);
    assert.deepEqual(body.error, {
      code: -32052,
      message: 'Rollback to block 7 refused: BEHIND_FINALIZED_NEEDS_FORCE',
      data: {
        reason: 'BEHIND_FINALIZED_NEEDS_FORCE',
        targetBlockNumber: 7,
        tipBlockNumber: 10,
        finalizedBlockNumber: 8,
      },
    });
    assert.equal((await call(node.adminUrl, 'nodeAdmin_rollbackTo', [-1])).body.error.code, -32602);
    assert.equal(node.chain.tip, 10);
  });

  it('unwinds, returns the still-valid txs to the pool, trims the record and resumes sync (also when paused before)', async () => {
    node.chain.invalidAfterRollback.add('tx-8');
    await call(node.adminUrl, 'nodeAdmin_pauseSync');
    const { body } = await call(node.adminUrl, 'nodeAdmin_rollbackTo', [8]);
    assert.equal(body.result, null);
    assert.equal(node.chain.tip, 8);
    assert.deepEqual(node.chain.pool, ['tx-9']);
    assert.equal(node.sync.state, 'syncing');
    const stats = (await call(node.publicUrl, 'node_getValidatorsStats')).body.result;
    assert.equal(stats.lastProcessedSlot, 8);
  });

  it("with force it goes behind finalized through the engine's clearing path", async () => {
    const { body } = await call(node.adminUrl, 'nodeAdmin_rollbackTo', [2, true]);
    assert.equal(body.result, null);
    assert.equal(node.chain.tip, 2);
    assert.equal(node.chain.cleared, 1);
  });
});

describe('nodeAdmin_startSnapshotUpload', () => {
  it('returns at once, refuses a second upload and a rollback meanwhile, serves requests, and writes a restorable snapshot', async () => {
    await node.passSlots(6);
    const target = join(tempDir(), 'snap');
    const first = await call(node.adminUrl, 'nodeAdmin_startSnapshotUpload', [pathToFileURL(target).href]);
    assert.deepEqual(first.body, { jsonrpc: '2.0', id: 1, result: null });
    assert.equal(existsSync(join(target, 'snapshot.json')), false, 'the upload is still waiting to copy');
    const second = await call(node.adminUrl, 'nodeAdmin_startSnapshotUpload', ['/tmp/other']);
    assert.deepEqual(second.body.error, { code: -32051, message: 'Snapshot upload already in progress' });
    const rollback = await call(node.adminUrl, 'nodeAdmin_rollbackTo', [3]);
    assert.deepEqual(rollback.body.error, { code: -32051, message: 'Snapshot upload already in progress' });
    // The node keeps serving, including a write to the database.
    assert.equal((await call(node.adminUrl, 'nodeAdmin_setConfig', [{ maxPendingTxCount: 77 }])).body.result, null);
    node.releaseSnapshot();
    const meta = await node.snapshots.idle();
    assert.ok(meta !== undefined);
    const file = join(target, 'l2node.sqlite');
    assert.equal(createHash('sha256').update(readFileSync(file)).digest('hex'), meta.sha256);
    assert.deepEqual(meta.node, { latestBlock: node.chain.tip });

    const fresh = join(tempDir(), 'restored');
    await restoreSnapshot(target, fresh);
    assert.equal(
      createHash('sha256')
        .update(readFileSync(join(fresh, SQLITE_FILE_NAME)))
        .digest('hex'),
      meta.sha256,
    );
    const copy = await openDatabase({ dataDirectory: fresh });
    try {
      for (const table of [
        'node_admin_config',
        'validator_slots',
        'validator_slot_entries',
        'validator_proven_performance',
      ]) {
        const rows = async (db: typeof copy) => (await db(table).select()).map((r) => JSON.stringify(r)).sort();
        const original = await rows(node.db);
        assert.ok(original.length > 0, table);
        assert.deepEqual(await rows(copy), original, table);
      }
    } finally {
      await copy.destroy();
    }
    assert.equal(
      (await call(node.adminUrl, 'nodeAdmin_startSnapshotUpload', ['s3://bucket/x'])).body.error.code,
      -32602,
    );
  });
});
