/** nodeAdmin_getConfig / setConfig / pauseSync / resumeSync over the admin port with the API key. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminMethods } from '../../src/generated/admin/methods.ts';
import { DEFAULT_NODE_ADMIN_CONFIG } from '../../src/impl/node-config/defaults.ts';
import { tempDir, testAddress, testFeeRecipient, testKey, writeKeystore } from '../unit/validators/helpers.ts';
import { call, startAdminNode, type AdminNode } from './admin-harness.ts';

const validatorSet = [1, 2, 3, 4].map(testAddress);
let dir: string;
let node: AdminNode;
before(async () => {
  dir = tempDir();
  node = await startAdminNode({ dataDirectory: dir, validatorSet, startupConfig: { archiverPollingIntervalMS: 250 } });
});
after(() => node.close());

describe('API key', () => {
  it('every admin method is 401 without the key', async () => {
    for (const method of Object.keys(adminMethods)) {
      const { status, body } = await call(node.adminUrl, method, [], null);
      assert.equal(status, 401, method);
      assert.deepEqual(body, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Unauthorized: invalid or missing API key' },
      });
    }
  });
});

describe('nodeAdmin_getConfig / nodeAdmin_setConfig', () => {
  it('returns the live configuration: defaults and startup values, valid by the result schema', async () => {
    const { body } = await call(node.adminUrl, 'nodeAdmin_getConfig');
    assert.deepEqual(body.result, { ...DEFAULT_NODE_ADMIN_CONFIG, archiverPollingIntervalMS: 250 });
    assert.equal(adminMethods.nodeAdmin_getConfig!.validateResult(body.result), null);
  });

  it('applies a partial update live (sync cadence, pool limit) and getConfig shows it', async () => {
    const { body } = await call(node.adminUrl, 'nodeAdmin_setConfig', [
      { archiverPollingIntervalMS: 1000, maxPendingTxCount: 2000, slashInactivityPenalty: '5' },
    ]);
    assert.deepEqual(body, { jsonrpc: '2.0', id: 1, result: null });
    assert.equal(node.sync.intervalMs, 1000);
    assert.equal(node.poolLimits.at(-1), 2000);
    const cfg = (await call(node.adminUrl, 'nodeAdmin_getConfig')).body.result;
    assert.equal(cfg.maxPendingTxCount, 2000);
    assert.equal(cfg.slashInactivityPenalty, '5');
  });

  it('an unknown field is ignored, as Aztec 4.1.2 does, and logged; the known ones apply', async () => {
    const { body } = await call(node.adminUrl, 'nodeAdmin_setConfig', [
      { maxPendingTxCount: 3000, maxPendingTxs: 10, acvmBinaryPath: '/bin/acvm' },
    ]);
    assert.deepEqual(body, { jsonrpc: '2.0', id: 1, result: null });
    assert.equal((await call(node.adminUrl, 'nodeAdmin_getConfig')).body.result.maxPendingTxCount, 3000);
    const logged = node.warnings.map((l) => JSON.parse(l)).find((l) => /ignored keys/.test(l.msg));
    assert.deepEqual(logged?.keys, ['maxPendingTxs', 'acvmBinaryPath']);
    assert.equal((await call(node.adminUrl, 'nodeAdmin_getConfig')).body.result.maxPendingTxs, undefined);
    await call(node.adminUrl, 'nodeAdmin_setConfig', [{ maxPendingTxCount: 2000 }]);
  });

  it('a wrong type and a rule the schema cannot express are -32602 too', async () => {
    assert.equal(
      (await call(node.adminUrl, 'nodeAdmin_setConfig', [{ maxTxsPerBlock: '32' }])).body.error.code,
      -32602,
    );
    const { body } = await call(node.adminUrl, 'nodeAdmin_setConfig', [{ minTxsPerBlock: 33 }]);
    assert.deepEqual(body.error, {
      code: -32602,
      message: 'params[0] (config): minTxsPerBlock (33) must be <= maxTxsPerBlock (32)',
      data: { param: 'config', index: 0, rule: 'minTxsPerBlock (33) must be <= maxTxsPerBlock (32)' },
    });
    assert.equal((await call(node.adminUrl, 'nodeAdmin_getConfig')).body.result.minTxsPerBlock, 1);
  });

  it('a restart on the same data directory keeps the changes', async () => {
    await node.close();
    node = await startAdminNode({
      dataDirectory: dir,
      validatorSet,
      startupConfig: { archiverPollingIntervalMS: 250 },
    });
    const cfg = (await call(node.adminUrl, 'nodeAdmin_getConfig')).body.result;
    assert.equal(cfg.archiverPollingIntervalMS, 1000);
    assert.equal(cfg.maxPendingTxCount, 2000);
    assert.equal(cfg.slashInactivityPenalty, '5');
    assert.equal(node.sync.intervalMs, 1000);
    assert.equal(node.poolLimits.at(-1), 2000);
  });
});

describe('nodeAdmin_pauseSync / nodeAdmin_resumeSync (SPEC §3)', () => {
  const status = async () =>
    ((await (await fetch(`${node.adminUrl}/status`)).json()) as { syncState: string }).syncState;

  it('pause is idempotent, stops production, keeps reads; the state shows in GET /status', async () => {
    const keysDir = tempDir();
    // Validator 1 is ours so that production is visible.
    writeKeystore(keysDir, 'k.json', [{ attester: testKey(1), feeRecipient: testFeeRecipient(1) }]);
    await node.close();
    node = await startAdminNode({ dataDirectory: tempDir(), validatorSet, keystore: keysDir });
    await node.passSlots(8);
    const built = node.chain.tip;
    assert.ok(built > 0, 'our validator proposed in 8 slots');
    assert.equal(await status(), 'syncing');
    assert.equal((await call(node.adminUrl, 'nodeAdmin_pauseSync')).body.result, null);
    assert.equal((await call(node.adminUrl, 'nodeAdmin_pauseSync')).body.result, null);
    assert.equal(await status(), 'paused');
    await node.passSlots(12);
    assert.equal(node.chain.tip, built, 'no block while paused');
    assert.equal((await call(node.adminUrl, 'nodeAdmin_getConfig')).status, 200);
    assert.equal((await call(node.adminUrl, 'nodeAdmin_resumeSync')).body.result, null);
    assert.equal((await call(node.adminUrl, 'nodeAdmin_resumeSync')).body.result, null);
    assert.equal(await status(), 'syncing');
    await node.passSlots(12);
    assert.ok(node.chain.tip > built, 'production resumed');
  });
});
