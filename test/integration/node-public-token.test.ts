/**
 * Issue 7 "done when" against the node process (bin/l2node.js, real HTTP, its own pool and dev
 * sequencer): every tx is built on the node's latest header by src/impl/tx/public-tx-builder.ts,
 * sent with node_sendTx, validated and pooled, and mined from the mempool. The example token is
 * deployed (class log, instance log + deployment nullifier, constructor in one tx), minted and
 * transferred in public; balances are read through node_getPublicStorageAt; a failing transfer is
 * simulated with a revert naming `transfer_in_public`; a reverting transfer is mined with its fee
 * charged to the payer's FeeJuice balance; after kill -9 and a restart on the same data directory
 * the contract and the balances are still there.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { feeJuiceBalanceLeafSlot } from '../../src/impl/chain/protocol.ts';
import { functionSelectorFromSignature, toSelectorHex } from '../../src/impl/contracts/function-selector.ts';
import { deriveStorageSlotInMap } from '../../src/impl/contracts/siloing.ts';
import { TokenStorage } from '../../src/impl/contracts/examples/token.ts';
import { DEV_FUNDING } from '../../src/impl/engine.ts';
import { hex, ok as okAt, pendingCountIs, rpc, startChainNode, waitFor } from './node-harness.ts';
import {
  buildPublicTx,
  calldata,
  exampleTokenDeployment,
  nodeTxContext,
  type BuiltPublicTx,
  type PublicTxSpec,
} from './public-tx-builder.ts';
import { tempDir, type NodeProcess } from './server-process-harness.ts';

/** A funded dev account that is not the node's fee recipient (0x1001), so its balance only falls by its fees. */
const PAYER = 0x1002n;
const ADMIN = 0xad111n,
  ALICE = 0xa11cen,
  BOB = 0xb0bn;
const FEE_JUICE = 5n;
const TRANSFER = 'transfer_in_public((Field),(Field),u128,Field)';
/** Tx nullifiers above the genesis nullifier tree's prefilled leaves. */
const nul = (n: number) => 0x7e57_0000n + BigInt(n);

describe('node process: the example token through node_sendTx', { timeout: 120_000 }, () => {
  it('deploys, mints, transfers, simulates and mines a revert with its fee, and keeps it all across kill -9', async () => {
    const dir = await tempDir();
    const genesis = Math.floor(Date.now() / 1000) - 2;
    const token = exampleTokenDeployment();
    const TOKEN = token.instance.address;
    let node: NodeProcess | undefined = await startChainNode(dir, genesis);
    let url = node.publicUrl;
    const ok = (method: string, ...params: unknown[]) => okAt(url, method, ...params);
    /** Builds on the node's latest header and current fees. */
    const build = async (spec: PublicTxSpec) => buildPublicTx(spec, await nodeTxContext(ok));
    /** Sends through node_sendTx and waits (bounded) until the node's sequencer mines it; a dropped tx fails at once. */
    const sendAndMine = async (t: BuiltPublicTx) => {
      assert.deepEqual(await ok('node_isValidTx', t.wire), { result: 'valid' });
      assert.equal(await ok('node_sendTx', t.wire), null);
      const receipt = await waitFor(`tx ${t.hash} mined`, async () => {
        const r = await ok('node_getTxReceipt', t.hash);
        assert.notEqual(r.status, 'dropped', `tx dropped: ${JSON.stringify(r)}`);
        return r.status === 'mined' ? r : undefined;
      });
      await pendingCountIs(url, 0); // the pool lets the mined tx go just after the block's commit
      return receipt;
    };
    const storageAt = async (block: number | 'latest', contract: bigint, slot: bigint) =>
      BigInt(await ok('node_getPublicStorageAt', block, hex(contract), hex(slot)));
    const balance = (owner: bigint) => storageAt('latest', TOKEN, deriveStorageSlotInMap(TokenStorage.BALANCES, owner));
    const feeJuiceAt = (block: number, owner: bigint) => storageAt(block, FEE_JUICE, deriveStorageSlotInMap(1n, owner));
    const transfer = (n: number, from: bigint, to: bigint, amount: bigint) =>
      build({
        txNullifier: nul(n),
        feePayer: PAYER,
        appCalls: [{ to: TOKEN, from, calldata: calldata(TRANSFER, from, to, amount, 0n) }],
      });

    try {
      assert.equal(await ok('node_getContract', hex(TOKEN)), null);
      // The validation is the real one for public txs too: an anchor the node never had is refused.
      const context = await nodeTxContext(ok);
      const unanchored = buildPublicTx(
        {
          txNullifier: nul(100),
          feePayer: PAYER,
          appCalls: [{ to: FEE_JUICE, from: PAYER, calldata: calldata('balance_of_public((Field))', PAYER) }],
        },
        {
          ...context,
          anchorBlockHeader: { ...context.anchorBlockHeader, totalFees: context.anchorBlockHeader.totalFees + 1n },
        },
      );
      const refused = await rpc(url, 'node_sendTx', unanchored.wire);
      assert.deepEqual(refused.error, {
        code: -32021,
        message: 'Invalid tx: Block header not found',
        data: { reasons: ['Block header not found'] },
      });
      const wrongChain = buildPublicTx(
        { txNullifier: nul(101), feePayer: PAYER, appCalls: [{ to: FEE_JUICE, from: PAYER, calldata: [1n] }] },
        { ...context, chainId: context.chainId + 1n },
      );
      assert.deepEqual((await rpc(url, 'node_sendTx', wrongChain.wire)).error?.data, {
        reasons: ['Incorrect L1 chain id'],
      });

      // A deployment must carry the class id and the address its own fields derive (else it could alias another contract).
      const forge = (n: number, publishClass: typeof token.contractClass, publishInstance: typeof token.instance) =>
        buildPublicTx(
          {
            txNullifier: nul(n),
            feePayer: PAYER,
            publishClass,
            publishInstance,
            appCalls: [{ to: publishInstance.address, from: ADMIN, calldata: calldata('constructor((Field))', ADMIN) }],
          },
          context,
        );
      const forgedClass = forge(102, { ...token.contractClass, id: token.contractClass.id + 1n }, token.instance);
      assert.deepEqual((await rpc(url, 'node_sendTx', forgedClass.wire)).error, {
        code: -32021,
        message: 'Invalid tx: Incorrect contract class id',
        data: { reasons: ['Incorrect contract class id'] },
      });
      const forgedAddress = forge(103, token.contractClass, { ...token.instance, address: PAYER });
      assert.deepEqual(await ok('node_isValidTx', forgedAddress.wire), {
        result: 'invalid',
        reason: ['Incorrect contract instance deployment address'],
      });
      assert.equal(await ok('node_getPendingTxCount'), 0);

      // Deploy and initialize in one tx.
      const deploy = await build({
        txNullifier: nul(1),
        feePayer: PAYER,
        publishClass: token.contractClass,
        publishInstance: token.instance,
        appCalls: [{ to: TOKEN, from: ADMIN, calldata: calldata('constructor((Field))', ADMIN) }],
      });
      const deployed = await sendAndMine(deploy);
      assert.equal(deployed.executionResult, 'success', JSON.stringify(deployed));
      assert.deepEqual(await ok('node_getContractClass', hex(token.contractClass.id)), {
        id: hex(token.contractClass.id),
        artifactHash: hex(0xa57n),
        packedBytecode: Buffer.from(token.contractClass.packedBytecode).toString('base64'),
        privateFunctionsRoot: hex(0n),
        privateFunctions: [],
        utilityFunctions: [],
        version: 1,
      });
      const instance = await ok('node_getContract', hex(TOKEN));
      assert.equal(instance.currentContractClassId, hex(token.contractClass.id));
      assert.equal(await storageAt('latest', TOKEN, TokenStorage.ADMIN), ADMIN);

      // Mint, then transfer in public.
      const mint = await build({
        txNullifier: nul(2),
        feePayer: PAYER,
        appCalls: [{ to: TOKEN, from: ADMIN, calldata: calldata('mint_to_public((Field),u128)', ALICE, 1000n) }],
      });
      assert.equal((await sendAndMine(mint)).executionResult, 'success');
      assert.equal(await balance(ALICE), 1000n);
      const moved = await transfer(3, ALICE, BOB, 300n);
      assert.equal((await sendAndMine(moved)).executionResult, 'success');
      assert.deepEqual([await balance(ALICE), await balance(BOB)], [700n, 300n]);
      const effect = (await ok('node_getTxEffect', moved.hash)).data;
      assert.deepEqual(effect.publicLogs, [{ contractAddress: hex(TOKEN), fields: [hex(ALICE), hex(BOB), hex(300n)] }]);

      // A failing transfer, simulated: a readable revert naming the function once its signature is registered.
      await ok('node_registerContractFunctionSignatures', [...token.signatures]);
      const tipBefore = await ok('node_getBlockNumber');
      const simulated = await ok('node_simulatePublicCalls', (await transfer(4, BOB, ALICE, 1000n)).wire);
      assert.equal(simulated.revertReason.originalMessage, 'Assertion failed: insufficient balance');
      assert.deepEqual(simulated.revertReason.functionErrorStack, [
        {
          contractAddress: hex(TOKEN),
          functionSelector: toSelectorHex(functionSelectorFromSignature(TRANSFER)),
          functionName: 'transfer_in_public',
        },
      ]);
      assert.equal(simulated.txEffect.revertCode, 1);
      assert.equal(await ok('node_getBlockNumber'), tipBefore, 'a simulation mines nothing');

      // The same failing transfer sent: mined as app_logic_reverted, the fee still charged.
      const bad = await transfer(5, BOB, ALICE, 1000n);
      const reverted = await sendAndMine(bad);
      assert.equal(reverted.executionResult, 'app_logic_reverted', JSON.stringify(reverted));
      const fee = BigInt(reverted.transactionFee);
      assert.ok(fee > 0n);
      const block = await ok('node_getBlock', reverted.blockNumber);
      assert.deepEqual(
        block.body.txEffects.map((e: { txHash: string }) => e.txHash),
        [bad.hash],
        'the reverting tx is alone in its block',
      );
      assert.equal(
        await feeJuiceAt(reverted.blockNumber, PAYER),
        (await feeJuiceAt(reverted.blockNumber - 1, PAYER)) - fee,
      );
      const witness = await ok('node_getPublicDataWitness', reverted.blockNumber, hex(feeJuiceBalanceLeafSlot(PAYER)));
      assert.equal(BigInt(witness.leafPreimage.leaf.value), await feeJuiceAt(reverted.blockNumber, PAYER));
      const badEffect = (await ok('node_getTxEffect', bad.hash)).data;
      assert.equal(badEffect.revertCode, 1);
      assert.deepEqual(badEffect.nullifiers, [hex(nul(5))], 'only the non-revertible tx nullifier stays');
      assert.deepEqual(badEffect.publicLogs, []);
      assert.deepEqual([await balance(ALICE), await balance(BOB)], [700n, 300n]);
      // Every fee so far came out of the payer's funding.
      const tip = await ok('node_getBlockNumber');
      const fees = await Promise.all(
        [deploy, mint, moved, bad].map(async (t) => BigInt((await ok('node_getTxReceipt', t.hash)).transactionFee)),
      );
      assert.equal(await feeJuiceAt(tip, PAYER), DEV_FUNDING - fees.reduce((a, b) => a + b, 0n));

      // kill -9, restart on the same directory: the contract and the balances are intact.
      assert.equal(await node.stop('SIGKILL'), null);
      node = undefined;
      node = await startChainNode(dir, genesis);
      url = node.publicUrl;
      assert.ok((await ok('node_getBlockNumber')) >= tip);
      assert.equal((await ok('node_getContract', hex(TOKEN))).currentContractClassId, hex(token.contractClass.id));
      assert.equal((await ok('node_getContractClass', hex(token.contractClass.id))).id, hex(token.contractClass.id));
      assert.deepEqual([await balance(ALICE), await balance(BOB)], [700n, 300n]);
      assert.equal((await ok('node_getTxReceipt', bad.hash)).executionResult, 'app_logic_reverted');
      // The restarted node keeps mining token txs.
      const after = await transfer(6, ALICE, BOB, 1n);
      assert.equal((await sendAndMine(after)).executionResult, 'success');
      assert.deepEqual([await balance(ALICE), await balance(BOB)], [699n, 301n]);
      // A node_sendTx of an already mined tx is refused by the pool's nullifier check, not re-mined.
      const again = await rpc(url, 'node_sendTx', after.wire);
      assert.equal(again.error?.code, -32021, JSON.stringify(again));
      assert.deepEqual((again.error?.data as { reasons: string[] } | undefined)?.reasons, ['Existing nullifier']);
    } finally {
      if (node) assert.equal(await node.stop('SIGTERM'), 0);
    }
  });
});
