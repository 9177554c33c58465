/**
 * The public handlers over a real dev engine (world state, chain tables, in-process L1) on an
 * in-memory database, through the generated method table and the HTTP server: every result
 * passes its generated result validator, and the answers agree with each other (block hashes
 * across getBlock / getL2Tips / receipts / findLeavesIndexes, witnesses fold to header roots).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../src/impl/chain/protocol.ts';
import { functionSelectorFromSignature } from '../../src/impl/contracts/function-selector.ts';
import { rootFromPath } from '../../src/impl/world-state/merkle.ts';
import { deriveStorageSlotInMap, computePublicDataTreeLeafSlot } from '../../src/impl/world-state/slots.ts';
import {
  PAYER,
  decodeMembershipWitness,
  decodeSiblingPath,
  fails,
  hex,
  minableTx,
  nextSlot,
  ok,
  startRpcNode,
} from './rpc-public-harness.ts';
import type { RpcNode } from './rpc-public-harness.ts';

const MESSAGE = 0x5151n;
const UNKNOWN = hex(0xdeadbeefn);
const cclFields = Array.from({ length: 3023 }, (_, i) => (i < 5 ? BigInt(i + 1) : 0n));
const tx1 = minableTx(1, { contractClassLogs: [{ contractAddress: 0x77n, fields: cclFields, emittedLength: 5 }] });
const tx2 = minableTx(2);
const conflicting = minableTx(3, { nullifiers: [tx1.nullifiers[0]!] });
const tooCheap = minableTx(4, {
  gasSettings: { ...tx1.gasSettings, maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 0n } },
});

let node: RpcNode;
before(async () => {
  node = await startRpcNode();
  await node.engine.l1.sendL1ToL2Message(MESSAGE);
  node.txSource.add(tx1);
  await nextSlot(node); // block 1: tx1 and the L1→L2 message
  node.txSource.add(tx2);
  node.txSource.add(conflicting);
  node.txSource.add(tooCheap);
  await nextSlot(node); // block 2: tx2; `conflicting` dropped, `tooCheap` stays pending; checkpoint 1 sealed
  await nextSlot(node); // block 3 (empty); checkpoint 2 sealed
  await nextSlot(node, 3); // block 4; epoch 0 proven
});
after(() => node.close());

describe('blocks', () => {
  it('getBlockNumber, getL2Tips, getBlock(latest) and the receipts name the same blocks', async () => {
    const latest = await ok<number>(node, 'node_getBlockNumber');
    assert.equal(latest, 4);
    const tips = await ok(node, 'node_getL2Tips');
    assert.equal(tips.proposed.number, latest);
    const r1 = await ok(node, 'node_getTxReceipt', hex(tx1.txHash));
    assert.equal(r1.status, 'mined');
    assert.equal(r1.blockNumber, 1);
    const byNumber = await ok(node, 'node_getBlock', 1);
    assert.deepEqual(await ok(node, 'node_getBlock', r1.blockHash), byNumber);
    assert.deepEqual(await ok(node, 'node_getBlockByHash', r1.blockHash), byNumber);
    assert.deepEqual(await ok(node, 'node_getBlockByArchive', byNumber.archive.root), byNumber);
    assert.deepEqual(await ok(node, 'node_getBlockHeaderByArchive', byNumber.archive.root), byNumber.header);
    assert.equal(byNumber.body.txEffects[0].txHash, hex(tx1.txHash));
    const latestBlock = await ok(node, 'node_getBlock', 'latest');
    assert.deepEqual(await ok(node, 'node_getBlock', tips.proposed.hash), latestBlock);
    assert.deepEqual(await ok(node, 'node_getBlockHeader'), latestBlock.header);
    assert.deepEqual(await ok(node, 'node_getBlockHeader', null), latestBlock.header);
    // Block 2's header commits to the archive after block 1, whose size is 2 (genesis + block 1).
    assert.equal((await ok(node, 'node_getBlockHeader', 2)).lastArchive.root, byNumber.archive.root);
  });

  it('unknown blocks are null; getBlocks returns only existing blocks', async () => {
    assert.equal(await ok(node, 'node_getBlock', 99), null);
    assert.equal(await ok(node, 'node_getBlock', UNKNOWN), null);
    assert.equal(await ok(node, 'node_getBlockHeader', 99), null);
    assert.equal(await ok(node, 'node_getBlockByHash', UNKNOWN), null);
    assert.equal(await ok(node, 'node_getBlockByArchive', UNKNOWN), null);
    assert.equal(await ok(node, 'node_getBlockHeaderByArchive', UNKNOWN), null);
    const blocks = await ok<any[]>(node, 'node_getBlocks', 1, 100);
    assert.deepEqual(
      blocks.map((b) => b.header.globalVariables.blockNumber),
      [1, 2, 3, 4],
    );
    assert.deepEqual(await ok(node, 'node_getBlocks', 3, 1), [blocks[2]]);
    assert.deepEqual(await ok(node, 'node_getBlocks', 5, 10), []);
  });

  it('block 0 is the genesis block, found by its hash from the tips', async () => {
    const genesis = await ok(node, 'node_getBlock', 0);
    assert.equal(genesis.header.globalVariables.blockNumber, 0);
    assert.deepEqual(genesis.body.txEffects, []);
    const status = await ok(node, 'node_getWorldStateSyncStatus');
    assert.equal(status.latestBlockNumber, 4);
    assert.equal(status.latestBlockHash, (await ok(node, 'node_getL2Tips')).proposed.hash);
  });

  it('getProvenBlockNumber is the proven tip', async () => {
    const tips = await ok(node, 'node_getL2Tips');
    assert.ok(tips.proven.block.number >= 1, 'epoch 0 is proven');
    assert.equal(await ok(node, 'node_getProvenBlockNumber'), tips.proven.block.number);
  });
});

describe('checkpoints', () => {
  it('number, checkpointed block, checkpoints and checkpointed blocks agree with the tips and the blocks', async () => {
    const tips = await ok(node, 'node_getL2Tips');
    const n = await ok<number>(node, 'node_getCheckpointNumber');
    assert.equal(n, tips.checkpointed.checkpoint.number);
    assert.ok(n >= 2);
    assert.equal(await ok(node, 'node_getCheckpointedBlockNumber'), tips.checkpointed.block.number);
    const cps = await ok<any[]>(node, 'node_getCheckpoints', 1, 50);
    assert.deepEqual(
      cps.map((c) => c.checkpoint.number),
      Array.from({ length: n }, (_, i) => i + 1),
    );
    const blocks = await ok<any[]>(node, 'node_getBlocks', 1, 100);
    for (const c of cps) {
      for (const b of c.checkpoint.blocks) assert.deepEqual(b, blocks[b.header.globalVariables.blockNumber - 1]);
      assert.equal(c.checkpoint.archive.root, c.checkpoint.blocks.at(-1).archive.root);
    }
    const cpBlocks = await ok<any[]>(node, 'node_getCheckpointedBlocks', 1, 50);
    assert.equal(cpBlocks.at(-1).block.header.globalVariables.blockNumber, tips.checkpointed.block.number);
    for (const cb of cpBlocks) {
      const cp = cps.find((c) => c.checkpoint.number === cb.checkpointNumber);
      assert.deepEqual(cb.l1, cp.l1);
      assert.deepEqual(cb.block, blocks[cb.block.header.globalVariables.blockNumber - 1]);
    }
    assert.deepEqual(await ok(node, 'node_getCheckpointedBlocks', tips.checkpointed.block.number + 1, 10), []);
    assert.deepEqual(await ok(node, 'node_getCheckpoints', n + 1, 10), []);
  });

  it('getCheckpointsDataForEpoch: the epoch checkpoints without blocks; [] for an empty epoch', async () => {
    const cps = await ok<any[]>(node, 'node_getCheckpoints', 1, 50);
    const data = await ok<any[]>(node, 'node_getCheckpointsDataForEpoch', 0);
    assert.ok(data.length >= 1);
    for (const d of data) {
      const cp = cps.find((c) => c.checkpoint.number === d.checkpointNumber).checkpoint;
      assert.deepEqual(d.header, cp.header);
      assert.equal(d.startBlock, cp.blocks[0].header.globalVariables.blockNumber);
      assert.equal(d.blockCount, cp.blocks.length);
    }
    assert.deepEqual(await ok(node, 'node_getCheckpointsDataForEpoch', 99), []);
  });
});

describe('receipts and effects', () => {
  it('mined, pending, dropped with the pool reason, and unknown', async () => {
    const r2 = await ok(node, 'node_getTxReceipt', hex(tx2.txHash));
    assert.deepEqual([r2.status, r2.blockNumber, r2.executionResult], ['mined', 2, 'success']);
    assert.equal((await ok(node, 'node_getTxReceipt', hex(tooCheap.txHash))).status, 'pending');
    const dropped = await ok(node, 'node_getTxReceipt', hex(conflicting.txHash));
    assert.equal(dropped.status, 'dropped');
    assert.equal(dropped.error, node.txSource.dropped.get(conflicting.txHash));
    assert.equal((await ok(node, 'node_getTxReceipt', UNKNOWN)).status, 'dropped');
  });

  it('getTxEffect: block hash and index match the receipt; null when not mined', async () => {
    const r1 = await ok(node, 'node_getTxReceipt', hex(tx1.txHash));
    const e1 = await ok(node, 'node_getTxEffect', hex(tx1.txHash));
    assert.deepEqual([e1.l2BlockNumber, e1.l2BlockHash, e1.txIndexInBlock], [1, r1.blockHash, 0]);
    assert.equal(e1.data.transactionFee, hex(BigInt(r1.transactionFee)));
    assert.equal(await ok(node, 'node_getTxEffect', hex(tooCheap.txHash)), null);
    assert.equal(await ok(node, 'node_getTxEffect', UNKNOWN), null);
  });
});

describe('state', () => {
  const balanceSlot = deriveStorageSlotInMap(1n, PAYER);
  const feeJuice = hex(PROTOCOL_CONTRACT_ADDRESSES.feeJuice);

  it('getPublicStorageAt reads the payer balance at genesis and after its fees', async () => {
    const fees = [tx1, tx2].map(async (t) =>
      BigInt((await ok(node, 'node_getTxReceipt', hex(t.txHash))).transactionFee),
    );
    const paid = (await Promise.all(fees)).reduce((a, b) => a + b, 0n);
    assert.equal(await ok(node, 'node_getPublicStorageAt', 0, feeJuice, hex(balanceSlot)), hex(10n ** 30n));
    assert.equal(
      await ok(node, 'node_getPublicStorageAt', 'latest', feeJuice, hex(balanceSlot)),
      hex(10n ** 30n - paid),
    );
    const b1 = (await ok(node, 'node_getTxReceipt', hex(tx1.txHash))).blockHash;
    assert.equal(
      await ok(node, 'node_getPublicStorageAt', b1, feeJuice, hex(balanceSlot)),
      await ok(node, 'node_getPublicStorageAt', 1, feeJuice, hex(balanceSlot)),
    );
    assert.equal(await ok(node, 'node_getPublicStorageAt', 'latest', feeJuice, hex(0x99n)), hex(0n));
  });

  it('a block above the world-state tip and an unknown hash are -32010 with {requested, latest}', async () => {
    const above = await fails(node, 'node_getPublicStorageAt', 7, feeJuice, hex(balanceSlot));
    assert.equal(above.code, -32010);
    assert.deepEqual(above.data, { requested: 7, latest: 4 });
    const unknown = await fails(node, 'node_getPublicStorageAt', UNKNOWN, feeJuice, hex(balanceSlot));
    assert.equal(unknown.code, -32010);
    assert.deepEqual(unknown.data, { requested: UNKNOWN, latest: 4 });
    assert.equal(unknown.message, `Block ${UNKNOWN} not yet synced (world state is at block 4)`);
  });

  it('getWorldStateSyncStatus: finalized from the chain tips', async () => {
    const status = await ok(node, 'node_getWorldStateSyncStatus');
    const tips = await ok(node, 'node_getL2Tips');
    assert.equal(status.finalizedBlockNumber, tips.finalized.block.number);
    assert.equal(status.treesAreSynched, true);
  });
});

describe('trees', () => {
  it('findLeavesIndexes on the archive gives block number and hash; its witness folds to lastArchive', async () => {
    const r1 = await ok(node, 'node_getTxReceipt', hex(tx1.txHash));
    const [found, missing] = await ok<any[]>(node, 'node_findLeavesIndexes', 'latest', 4, [r1.blockHash, UNKNOWN]);
    assert.deepEqual(found, { l2BlockNumber: 1, l2BlockHash: r1.blockHash, data: '1' });
    assert.equal(missing, null);
    const w = decodeMembershipWitness(await ok(node, 'node_getBlockHashMembershipWitness', 3, r1.blockHash));
    assert.equal(w.index, 1n);
    assert.equal(w.path.length, 30);
    const header3 = await ok(node, 'node_getBlockHeader', 3);
    assert.equal(hex(rootFromPath(BigInt(r1.blockHash), w.index, w.path)), header3.lastArchive.root);
    assert.deepEqual(await ok(node, 'node_getArchiveSiblingPath', 2, '1'), w.path.map(hex));
    // Block 1 builds on the archive of genesis only: its own hash is not in it.
    assert.equal(await ok(node, 'node_getBlockHashMembershipWitness', 1, r1.blockHash), null);
    assert.equal((await fails(node, 'node_getBlockHashMembershipWitness', 9, r1.blockHash)).code, -32010);
  });

  it('note hash: index from findLeavesIndexes, witness folds to the header note hash root', async () => {
    const note = hex(tx2.noteHashes[1]!);
    const [loc] = await ok<any[]>(node, 'node_findLeavesIndexes', 'latest', 1, [note]);
    assert.equal(loc.l2BlockNumber, 2);
    const w = decodeMembershipWitness(await ok(node, 'node_getNoteHashMembershipWitness', 'latest', note));
    assert.equal(w.index, BigInt(loc.data));
    const header = await ok(node, 'node_getBlockHeader', 'latest');
    assert.equal(hex(rootFromPath(BigInt(note), w.index, w.path)), header.state.partial.noteHashTree.root);
    assert.deepEqual(await ok(node, 'node_getNoteHashSiblingPath', 'latest', loc.data), w.path.map(hex));
    assert.equal(await ok(node, 'node_getNoteHashMembershipWitness', 1, note), null, 'not yet inserted at block 1');
  });

  it('nullifier witnesses: member, absent, low leaf; sibling paths of the right height', async () => {
    const nul = hex(tx1.nullifiers[0]!);
    const w = await ok(node, 'node_getNullifierMembershipWitness', 'latest', nul);
    assert.equal(w.leafPreimage.leaf.nullifier, nul);
    const path = decodeSiblingPath(w.siblingPath);
    assert.deepEqual(await ok(node, 'node_getNullifierSiblingPath', 'latest', w.index), path.map(hex));
    const [loc] = await ok<any[]>(node, 'node_findLeavesIndexes', 'latest', 0, [nul]);
    assert.equal(loc.data, w.index);
    assert.equal(await ok(node, 'node_getNullifierMembershipWitness', 'latest', hex(0x301n + 0x1000n)), null);
    const absent = 0x350n; // between tx2's 0x302 and tx1's 0x401
    const low = await ok(node, 'node_getLowNullifierMembershipWitness', 'latest', hex(absent));
    assert.equal(low.leafPreimage.leaf.nullifier, hex(tx2.nullifiers[0]!));
    assert.equal(low.leafPreimage.nextKey, hex(tx1.nullifiers[1]!));
    assert.deepEqual(
      await ok(node, 'node_getLowNullifierMembershipWitness', 'latest', nul),
      w,
      'a present nullifier is its own low leaf',
    );
    assert.equal((await ok<string[]>(node, 'node_getPublicDataSiblingPath', 0, '0')).length, 40);
  });

  it('public data witness holds the payer balance slot', async () => {
    const leafSlot = computePublicDataTreeLeafSlot(
      PROTOCOL_CONTRACT_ADDRESSES.feeJuice,
      deriveStorageSlotInMap(1n, PAYER),
    );
    const w = await ok(node, 'node_getPublicDataWitness', 'latest', hex(leafSlot));
    assert.equal(w.leafPreimage.leaf.slot, hex(leafSlot));
    assert.equal(
      w.leafPreimage.leaf.value,
      await ok(
        node,
        'node_getPublicStorageAt',
        'latest',
        hex(PROTOCOL_CONTRACT_ADDRESSES.feeJuice),
        hex(deriveStorageSlotInMap(1n, PAYER)),
      ),
    );
    assert.equal(decodeSiblingPath(w.siblingPath).length, 40);
  });

  it('tree id 5 (BLOCKS_TREE) answers as the archive, 6 answers null per value; a block above the tip is still -32010', async () => {
    const { number: tip, hash } = (await ok(node, 'node_getL2Tips')).proposed as { number: number; hash: string };
    const archive = await ok(node, 'node_findLeavesIndexes', 'latest', 4, [hash, UNKNOWN]);
    assert.equal(archive[0].data, String(tip));
    assert.deepEqual(await ok(node, 'node_findLeavesIndexes', 'latest', 5, [hash, UNKNOWN]), archive);
    assert.deepEqual(await ok(node, 'node_findLeavesIndexes', 'latest', 6, [hash, UNKNOWN]), [null, null]);
    assert.equal((await fails(node, 'node_findLeavesIndexes', tip + 1, 6, [UNKNOWN])).code, -32010);
  });

  it('a leaf index at the tree size is -32012 with {leafIndex, treeSize}; a block above the tip -32010', async () => {
    const err = await fails(node, 'node_getArchiveSiblingPath', 2, '3');
    assert.equal(err.code, -32012);
    assert.deepEqual(err.data, { leafIndex: '3', treeSize: '3' });
    assert.equal((await ok<string[]>(node, 'node_getArchiveSiblingPath', 2, '2')).length, 30);
    assert.deepEqual((await fails(node, 'node_getNoteHashSiblingPath', 5, '0')).data, { requested: 5, latest: 4 });
  });
});

describe('messages', () => {
  it('the L1→L2 message: block, checkpoint, synced, and a witness folding to the header root', async () => {
    assert.equal(await ok(node, 'node_getL1ToL2MessageBlock', hex(MESSAGE)), 1);
    assert.equal(
      await ok(node, 'node_getL1ToL2MessageCheckpoint', hex(MESSAGE)),
      (await ok(node, 'node_getBlock', 1)).checkpointNumber,
    );
    assert.equal(await ok(node, 'node_isL1ToL2MessageSynced', hex(MESSAGE)), true);
    assert.equal(await ok(node, 'node_isL1ToL2MessageSynced', UNKNOWN), false);
    assert.equal(await ok(node, 'node_getL1ToL2MessageBlock', UNKNOWN), null);
    assert.equal(await ok(node, 'node_getL1ToL2MessageCheckpoint', UNKNOWN), null);
    const [index, path] = await ok<[string, string[]]>(
      node,
      'node_getL1ToL2MessageMembershipWitness',
      'latest',
      hex(MESSAGE),
    );
    const header = await ok(node, 'node_getBlockHeader', 'latest');
    assert.equal(hex(rootFromPath(MESSAGE, BigInt(index), path.map(BigInt))), header.state.l1ToL2MessageTree.root);
    assert.equal(await ok(node, 'node_getL1ToL2MessageMembershipWitness', 0, hex(MESSAGE)), null);
  });

  it('the L1→L2 witness is [decimal index, 36 0x-hex nodes] (SPEC §4.6, not 4.1.2 base64) folding to each block header root', async () => {
    for (const block of [1, 2, 3, 4]) {
      const witness = await ok<unknown[]>(node, 'node_getL1ToL2MessageMembershipWitness', block, hex(MESSAGE));
      assert.ok(Array.isArray(witness) && witness.length === 2, `block ${block}: a 2-tuple`);
      const [index, path] = witness as [unknown, unknown];
      assert.ok(
        typeof index === 'string' && /^(0|[1-9][0-9]*)$/.test(index),
        `block ${block}: index ${String(index)} is a decimal string`,
      );
      assert.ok(Array.isArray(path), `block ${block}: the sibling path is a string[], not a base64 string`);
      assert.equal(path.length, 36, 'L1_TO_L2_MSG_TREE_HEIGHT nodes');
      for (const n of path) assert.match(n as string, /^0x[0-9a-f]{64}$/);
      // Leaf level first, like node_get*SiblingPath: folding from the message gives the header's root.
      const header = await ok(node, 'node_getBlockHeader', block);
      assert.equal(
        hex(rootFromPath(MESSAGE, BigInt(index), (path as string[]).map(BigInt))),
        header.state.l1ToL2MessageTree.root,
        `block ${block}`,
      );
    }
  });

  it('getL2ToL1Messages: one array per tx of the block, null for an unknown block', async () => {
    const block1 = await ok(node, 'node_getBlock', 1);
    assert.deepEqual(
      await ok(node, 'node_getL2ToL1Messages', 1),
      block1.body.txEffects.map((e: any) => e.l2ToL1Msgs),
    );
    assert.equal((await ok<string[][]>(node, 'node_getL2ToL1Messages', 1))[0]!.length, 1);
    assert.deepEqual(await ok(node, 'node_getL2ToL1Messages', 3), []);
    assert.equal(await ok(node, 'node_getL2ToL1Messages', 42), null);
  });
});

describe('logs', () => {
  const tag = hex(0x7a9n);

  it('private logs by block range and by tag, with tx context', async () => {
    const logs = await ok<any[]>(node, 'node_getPrivateLogs', 1, 10);
    assert.equal(logs.length, 2);
    assert.deepEqual(await ok(node, 'node_getPrivateLogs', 2, 1), [logs[1]]);
    const [byTag, none] = await ok<any[][]>(node, 'node_getLogsByTags', [tag, UNKNOWN]);
    assert.deepEqual(
      byTag!.map((l) => l.txHash),
      [hex(tx1.txHash), hex(tx2.txHash)],
    );
    assert.deepEqual(none, []);
    assert.equal(byTag![0].blockTimestamp, (await ok(node, 'node_getBlockHeader', 1)).globalVariables.timestamp);
    assert.equal(byTag![0].firstNullifier, hex(tx1.nullifiers[0]!));
    assert.deepEqual((await ok<any[][]>(node, 'node_getLogsByTags', [tag], 1))[0]!.length, 1);
  });

  it('getPrivateLogsByTags: pages of 10, cut at the reference block; an unknown reference is -32010', async () => {
    const [all] = await ok<any[][]>(node, 'node_getPrivateLogsByTags', [tag]);
    assert.equal(all!.length, 2);
    assert.deepEqual(await ok(node, 'node_getPrivateLogsByTags', [tag], 1), [[]]);
    const b1 = (await ok(node, 'node_getTxReceipt', hex(tx1.txHash))).blockHash;
    assert.deepEqual(await ok(node, 'node_getPrivateLogsByTags', [tag], 0, b1), [[all![0]]]);
    const err = await fails(node, 'node_getPrivateLogsByTags', [tag], 0, UNKNOWN);
    assert.equal(err.code, -32010);
    assert.deepEqual(err.data, { requested: UNKNOWN, latest: 4 });
  });

  it('contract class logs: the published log with its id; public logs: none on the dev chain', async () => {
    const ccl = await ok(node, 'node_getContractClassLogs', {});
    assert.equal(ccl.maxLogsHit, false);
    assert.equal(ccl.logs.length, 1);
    const r1 = await ok(node, 'node_getTxReceipt', hex(tx1.txHash));
    assert.deepEqual(ccl.logs[0].id, {
      blockNumber: 1,
      blockHash: r1.blockHash,
      txHash: hex(tx1.txHash),
      txIndex: 0,
      logIndex: 0,
    });
    assert.equal(ccl.logs[0].log.fields.fields.length, 3023);
    assert.deepEqual(await ok(node, 'node_getContractClassLogs', { fromBlock: 2 }), { logs: [], maxLogsHit: false });
    assert.deepEqual(await ok(node, 'node_getPublicLogs', {}), { logs: [], maxLogsHit: false });
    assert.deepEqual(await ok(node, 'node_getPublicLogsByTagsFromContract', hex(0x77n), [tag, UNKNOWN]), [[], []]);
  });

  it('toBlock <= fromBlock is -32602 as the document words it', async () => {
    for (const method of ['node_getPublicLogs', 'node_getContractClassLogs']) {
      const err = await fails(node, method, { fromBlock: 5, toBlock: 5 });
      assert.equal(err.code, -32602);
      assert.deepEqual(err.data, { index: 0, param: 'filter', rule: 'toBlock must be greater than fromBlock' });
    }
  });
});

describe('node info, contracts, validators, debug', () => {
  it('getNodeInfo agrees with the single-value methods; no ENR without P2P', async () => {
    const info = await ok(node, 'node_getNodeInfo');
    assert.equal(info.l1ChainId, await ok(node, 'node_getChainId'));
    assert.equal(info.rollupVersion, await ok(node, 'node_getVersion'));
    assert.equal(info.nodeVersion, await ok(node, 'node_getNodeVersion'));
    assert.deepEqual(info.l1ContractAddresses, await ok(node, 'node_getL1ContractAddresses'));
    assert.deepEqual(info.protocolContractAddresses, await ok(node, 'node_getProtocolContractAddresses'));
    assert.equal(info.protocolContractAddresses.feeJuice, hex(5n));
    assert.equal('enr' in info, false);
    assert.equal(await ok(node, 'node_getEncodedEnr'), null);
    const fees = node.engine.getCurrentMinFees();
    assert.deepEqual(await ok(node, 'node_getCurrentMinFees'), {
      feePerDaGas: fees.feePerDaGas.toString(),
      feePerL2Gas: fees.feePerL2Gas.toString(),
    });
  });

  it('isReady follows the injected readiness', async () => {
    node.readiness = false;
    assert.equal(await ok(node, 'node_isReady'), false);
    node.readiness = true;
    assert.equal(await ok(node, 'node_isReady'), true);
  });

  it('contracts answer -32001 (no contract index); validator stats read the empty record; a reversed slot range is -32602', async () => {
    for (const [m, p] of [
      ['node_getContractClass', [UNKNOWN]],
      ['node_getContract', [UNKNOWN]],
    ] as const) {
      assert.deepEqual(await fails(node, m, ...p), {
        code: -32001,
        message: `Method not implemented: ${m}`,
        data: { method: m },
      });
    }
    // slotWindow = 24 epochs of history × 2 slots per epoch; no slot processed yet.
    assert.deepEqual(await ok(node, 'node_getValidatorsStats'), { stats: {}, slotWindow: 48 });
    assert.equal(await ok(node, 'node_getValidatorStats', '0x327fa356855964aee28cd6be6e3e65c18a289d98'), null);
    const err = await fails(node, 'node_getValidatorStats', '0x327fa356855964aee28cd6be6e3e65c18a289d98', '44', '20');
    assert.deepEqual([err.code, err.data], [-32602, { index: 2, param: 'toSlot', rule: 'toSlot must be >= fromSlot' }]);
  });

  it('registerContractFunctionSignatures fills the registry; getAllowedPublicSetup serves the list in force', async () => {
    assert.equal(await ok(node, 'node_registerContractFunctionSignatures', ['transfer(Field,Field)']), null);
    assert.equal(
      node.signatures.findSignature(functionSelectorFromSignature('transfer(Field,Field)')),
      'transfer(Field,Field)',
    );
    assert.deepEqual(await ok(node, 'node_getAllowedPublicSetup'), []);
    node.allowList.push({ address: 3n, selector: 7, onlySelf: true }, { classId: 9n, selector: 8 });
    assert.deepEqual(await ok(node, 'node_getAllowedPublicSetup'), [
      { address: hex(3n), selector: '0x00000007', onlySelf: true },
      { classId: hex(9n), selector: '0x00000008' },
    ]);
  });
});
