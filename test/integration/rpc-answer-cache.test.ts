/**
 * The answer cache over a real engine and HTTP (rpc-public-harness serves through it, as main.ts
 * does): after a rollback and a different block at the same height, every cached kind of answer —
 * block by number and by hash, header, page of blocks, sibling paths, witnesses, leaf indexes,
 * storage — is the new chain's, equal to what the uncached handlers answer.
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createPublicHandlers } from '../../src/impl/rpc/public/index.ts';
import { hex, minableTx, nextSlot, ok, startRpcNode } from './rpc-public-harness.ts';
import type { RpcNode } from './rpc-public-harness.ts';

let node: RpcNode;
before(async () => {
  node = await startRpcNode();
  node.txSource.add(minableTx(1));
  await nextSlot(node); // block 1
  node.txSource.add(minableTx(2));
  await nextSlot(node); // block 2: tx 2
});
after(() => node.close());

/** Every cached kind of call about block 2 (numbers and hashes are read from the chain now). */
async function callsAboutBlock2(): Promise<[string, unknown[]][]> {
  const b2 = await ok(node, 'node_getBlock', 2);
  const effect = b2.body.txEffects[0];
  return [
    ['node_getBlock', [2]],
    ['node_getBlockHeader', [2]],
    ['node_getBlocks', [1, 2]],
    ['node_getBlockByArchive', [b2.archive.root]],
    ['node_getNoteHashSiblingPath', [2, '4']],
    ['node_getNullifierSiblingPath', [2, '128']],
    ['node_getArchiveSiblingPath', [2, '1']],
    ['node_getNoteHashMembershipWitness', [2, effect.noteHashes[0]]],
    ['node_getNullifierMembershipWitness', [2, effect.nullifiers[0]]],
    ['node_getLowNullifierMembershipWitness', [2, effect.nullifiers[0]]],
    ['node_findLeavesIndexes', [2, 1, [effect.noteHashes[0]]]],
    ['node_getPublicDataWitness', [2, hex(0x1234n)]],
  ];
}

it('a rollback and a different block 2 change every cached answer about block 2 to the new chain', async () => {
  const before = await callsAboutBlock2();
  const old = new Map<string, unknown>();
  for (const [method, params] of before) {
    const first = await ok(node, method, ...params);
    assert.deepEqual(await ok(node, method, ...params), first, `${method}: the cached answer equals the first`);
    old.set(method, first);
  }
  const oldHash = (await ok(node, 'node_getBlockHeader', 2)) && (await ok(node, 'node_getL2Tips')).proposed.hash;
  assert.ok((await ok(node, 'node_getBlock', oldHash)) !== null);

  await node.engine.rollbackTo(1);
  assert.equal(await ok(node, 'node_getBlock', 2), null, 'the unwound block is gone at once');
  assert.equal(await ok(node, 'node_getBlock', oldHash), null, 'and by its hash');
  node.txSource.add(minableTx(3, { noteHashes: [0x9001n, 0x9002n, 0x9003n], nullifiers: [0x9101n] }));
  await nextSlot(node); // a different block 2

  // The handlers without the cache, over the same engine: what the answers must be now.
  const e = node.engine;
  const plain = createPublicHandlers({
    nodeVersion: '0.0.0-test',
    rollupVersion: e.config.rollupVersion,
    l1ChainId: e.config.l1ChainId,
    engine: {
      chain: e.chain,
      checkpoints: e.checkpoints,
      worldState: e.worldState,
      l1: e.l1,
      protocolContractAddresses: e.protocolContractAddresses,
      realProofs: false,
      getCurrentMinFees: () => e.getCurrentMinFees(),
      isReady: () => true,
      getEncodedEnr: () => undefined,
      signatures: node.signatures,
      allowList: () => [],
    },
  }) as Record<string, (...p: unknown[]) => Promise<unknown>>;
  for (const [method, params] of before) {
    const now = await ok(node, method, ...params);
    const direct = JSON.parse(JSON.stringify(await plain[method.slice('node_'.length)]!(...params)));
    assert.deepEqual(now, direct, `${method}: the new chain's answer`);
    // The low public-data leaf of a slot nobody wrote is the same in both chains.
    if (method !== 'node_getPublicDataWitness')
      assert.notDeepEqual(now, old.get(method), `${method}: changed by the new block 2`);
  }
  // The new block's own calls (its new hashes), cached and equal again.
  for (const [method, params] of await callsAboutBlock2()) {
    const direct = JSON.parse(JSON.stringify(await plain[method.slice('node_'.length)]!(...params)));
    assert.deepEqual(await ok(node, method, ...params), direct, method);
    assert.deepEqual(await ok(node, method, ...params), direct, `${method}, cached`);
  }
});

it('answers about the tip (latest block, logs by tag, a block not built yet) follow each new block and each rollback', async () => {
  const tag = hex(0x7a9n); // minableTx's private log tag
  const tipAnswers = async () => ({
    latest: await ok(node, 'node_getBlock', 'latest'),
    header: await ok(node, 'node_getBlockHeader'),
    logs: await ok(node, 'node_getLogsByTags', [tag]),
    next: await ok(node, 'node_getBlock', (await ok<number>(node, 'node_getBlockNumber')) + 1),
    notePath: await ok(node, 'node_getNoteHashSiblingPath', 'latest', '0'),
  });
  const a = await tipAnswers();
  assert.deepEqual(await tipAnswers(), a, 'repeated: the same answers');
  assert.equal(a.next, null);
  node.txSource.add(minableTx(4));
  await nextSlot(node);
  const b = await tipAnswers();
  assert.equal(
    b.latest.header.globalVariables.blockNumber,
    a.latest.header.globalVariables.blockNumber + 1,
    'latest moved',
  );
  assert.deepEqual(b.header, b.latest.header);
  assert.equal(b.logs[0].length, a.logs[0].length + 1, 'the new log is found');
  assert.deepEqual(a.next, null);
  assert.notEqual(b.notePath, a.notePath);
  assert.deepEqual(
    await ok(node, 'node_getBlock', b.latest.header.globalVariables.blockNumber),
    b.latest,
    'what was "next" is now there',
  );
  await node.engine.rollbackTo(a.latest.header.globalVariables.blockNumber);
  const c = await tipAnswers();
  assert.deepEqual(c, a, 'after the rollback: the answers of the old tip again');
});
