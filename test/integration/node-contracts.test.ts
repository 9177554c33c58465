/**
 * Issue 7 wiring on the running node (bin/l2node.js, real process, HTTP): node_getContract and
 * node_getContractClass answer the genesis protocol contracts from the chain's contract index
 * (unknown ones are null), and node_simulatePublicCalls runs a public-call tx on the node's
 * public VM (a FeeJuice balance read for a funded dev account) without touching the chain.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEV_FUNDING } from '../../src/impl/engine.ts';
import { hex, ok, rpc, startChainNode } from './node-harness.ts';
import { buildPublicTx, calldata, exampleTokenDeployment, nodeTxContext } from './public-tx-builder.ts';
import { tempDir } from './server-process-harness.ts';

const PAYER = 0x1002n;

describe('node process: contract reads and public simulation', { timeout: 60_000 }, () => {
  it('serves protocol contracts, null for unknown ones, and simulates public calls', async () => {
    const node = await startChainNode(await tempDir(), Math.floor(Date.now() / 1000) - 2);
    try {
      const url = node.publicUrl;
      const feeJuice = await ok(url, 'node_getContract', hex(5n));
      assert.equal(feeJuice.address, hex(5n));
      assert.equal(feeJuice.version, 1);
      assert.match(feeJuice.currentContractClassId, /^0x[0-9a-f]{64}$/);
      const cls = await ok(url, 'node_getContractClass', feeJuice.currentContractClassId);
      assert.equal(cls.id, feeJuice.currentContractClassId);
      assert.ok(Buffer.from(cls.packedBytecode, 'base64').length > 0);
      assert.deepEqual([cls.privateFunctions, cls.utilityFunctions, cls.version], [[], [], 1]);
      const token = exampleTokenDeployment();
      assert.equal(await ok(url, 'node_getContract', hex(token.instance.address)), null);
      assert.equal(await ok(url, 'node_getContractClass', hex(token.contractClass.id)), null);

      const before = await ok<number>(url, 'node_getBlockNumber');
      // Built on the node's latest header and fees, as a wallet would: the same tx node_sendTx would take.
      const context = await nodeTxContext((method, ...params) => ok(url, method, ...params));
      const read = buildPublicTx(
        {
          txNullifier: 0x7e57_0001n,
          feePayer: PAYER,
          appCalls: [{ to: 5n, from: PAYER, calldata: calldata('balance_of_public((Field))', PAYER) }],
        },
        context,
      );
      assert.deepEqual(await ok(url, 'node_isValidTx', read.wire), { result: 'valid' });
      const out = await ok(url, 'node_simulatePublicCalls', read.wire);
      assert.equal(out.revertReason, undefined, JSON.stringify(out.revertReason));
      assert.deepEqual(out.publicReturnValues, [{ values: [hex(DEV_FUNDING)], nested: [] }]);
      assert.ok(out.globalVariables.blockNumber > before);
      assert.ok(out.gasUsed.publicGas.l2Gas > 0);
      // A setup call outside the allow-list: the node refuses to simulate what it would never include.
      const setup = buildPublicTx(
        {
          txNullifier: 0x7e57_0002n,
          feePayer: PAYER,
          setupCalls: [{ to: 5n, from: PAYER, calldata: calldata('balance_of_public((Field))', PAYER) }],
        },
        context,
      );
      const refused = await rpc(url, 'node_simulatePublicCalls', setup.wire);
      assert.equal(refused.error?.code, -32030, JSON.stringify(refused));
      // node_sendTx refuses it too, by the validation's phases rule.
      assert.deepEqual((await rpc(url, 'node_sendTx', setup.wire)).error?.data, {
        reasons: ['Setup function not on allow list'],
      });
    } finally {
      assert.equal(await node.stop('SIGTERM'), 0);
    }
  });
});
