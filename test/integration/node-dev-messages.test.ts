/**
 * The development interface (openrpc.dev.json) on a real node process: dev_sendL1ToL2Message on
 * the admin port with the admin key puts a message into the in-process L1's inbox; it lands in the
 * next checkpoint's first block, where node_getL1ToL2MessageBlock finds it, node_isL1ToL2MessageSynced
 * is true and the membership witness folds to that block's L1→L2 message tree root. Without the key
 * the admin port answers 401; the public port does not serve dev_* (-32601).
 * @module
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { devMethods } from '../../src/generated/dev/methods.ts';
import { l1ToL2MessageHash } from '../../src/impl/chain/protocol.ts';
import { DEV_DEPLOYER } from '../../src/impl/l1/dev-addresses.ts';
import { rootFromPath } from '../../src/impl/world-state/merkle.ts';
import { chainFlags, hex, NODE_BIN, ok, rpc, waitFor } from './node-harness.ts';
import { startNode, tempDir } from './server-process-harness.ts';

const KEY = 'd'.repeat(64);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function dev(
  adminUrl: string,
  method: string,
  params: unknown[],
  key: string | null = KEY,
): Promise<{ status: number; body: any }> {
  const res = await fetch(adminUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'x-api-key': key }) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.status, body: await res.json() };
}

describe('node process: the dev interface (dev_* on the admin port)', { timeout: 120_000 }, () => {
  it('sends an L1→L2 message that lands in the next checkpoint and has a working witness', async () => {
    const genesis = Math.floor(Date.now() / 1000) - 5;
    const flags = chainFlags(genesis).filter((f) => f !== '--no-admin-api-key');
    const node = await startNode(
      ['--data-directory', await tempDir(), ...flags, '--admin-api-key-hash', sha256(KEY), '--build-empty-blocks'],
      { cwd: await tempDir(), node: NODE_BIN },
    );
    try {
      const recipient = hex(5n),
        content = hex(0xc0ffeen),
        secretHash = hex(0x5ec2e7n);
      // No key: 401 for the whole request, before anything else.
      const noKey = await dev(node.adminUrl, 'dev_sendL1ToL2Message', [recipient, content, secretHash], null);
      assert.equal(noKey.status, 401);
      assert.equal(noKey.body.error.code, -32000);
      // Not on the public port.
      assert.equal((await rpc(node.publicUrl, 'dev_getL1Info')).error?.code, -32601);
      // Malformed params: -32602 naming the parameter.
      const bad = await dev(node.adminUrl, 'dev_sendL1ToL2Message', [recipient, '0x07', secretHash]);
      assert.equal(bad.body.error.code, -32602);
      assert.equal(bad.body.error.data.param, 'content');

      const before = await dev(node.adminUrl, 'dev_getL1Info', []);
      assert.equal(before.status, 200);
      assert.equal(devMethods.dev_getL1Info!.validateResult(before.body.result), null);
      assert.equal(before.body.result.l1ChainId, 31337);

      const sent = await dev(node.adminUrl, 'dev_sendL1ToL2Message', [recipient, content, secretHash]);
      assert.equal(sent.body.error, undefined, JSON.stringify(sent.body.error));
      const r = sent.body.result;
      assert.equal(devMethods.dev_sendL1ToL2Message!.validateResult(r), null);
      assert.equal(
        r.messageHash,
        hex(
          l1ToL2MessageHash({
            sender: DEV_DEPLOYER,
            chainId: 31337n,
            recipient: 5n,
            rollupVersion: 1n,
            content: 0xc0ffeen,
            secretHash: 0x5ec2e7n,
            index: BigInt(r.index),
          }),
        ),
      );
      assert.equal(r.sender, '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');

      const block = await waitFor(
        'the message in a block',
        async () => (await ok<number | null>(node.publicUrl, 'node_getL1ToL2MessageBlock', r.messageHash)) ?? undefined,
      );
      const found = await ok(node.publicUrl, 'node_getBlock', block);
      assert.equal(found.indexWithinCheckpoint, 0, 'the first block of its checkpoint');
      assert.ok(
        found.checkpointNumber >= r.expectedCheckpoint,
        `checkpoint ${found.checkpointNumber} >= expected ${r.expectedCheckpoint}`,
      );
      assert.equal(await ok(node.publicUrl, 'node_isL1ToL2MessageSynced', r.messageHash), true);
      const [index, path] = await ok<[string, string[]]>(
        node.publicUrl,
        'node_getL1ToL2MessageMembershipWitness',
        block,
        r.messageHash,
      );
      const header = await ok(node.publicUrl, 'node_getBlockHeader', block);
      assert.equal(
        hex(rootFromPath(BigInt(r.messageHash), BigInt(index), path.map(BigInt))),
        header.state.l1ToL2MessageTree.root,
      );

      const after = (await dev(node.adminUrl, 'dev_getL1Info', [])).body.result;
      assert.equal(after.inboxMessageCount, before.body.result.inboxMessageCount + 1);
      assert.equal(after.inboxPendingMessages, 0);
    } finally {
      assert.equal(await node.stop(), 0);
    }
  });
});
