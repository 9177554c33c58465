import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import trees from '../../../../shared/vectors/trees.json' with { type: 'json' };
import { blockHeaderToFields, hashBlockHeader } from '../../../src/impl/chain/block-header.ts';
import { checkpointHeaderToBuffer, emptyCheckpointHeader, hashCheckpointHeader } from '../../../src/impl/chain/checkpoint-header.ts';
import { feeJuiceBalanceLeafSlot, l2ToL1MessageHash } from '../../../src/impl/chain/protocol.ts';
import { IndexedTree } from '../../../src/impl/chain/indexed-tree.ts';
import { computeMinFees, fakeExponential } from '../../../src/impl/chain/fee-model.ts';

const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
const snap = (s: { root: string; nextAvailableLeafIndex: number }) => ({ root: BigInt(s.root), nextAvailableLeafIndex: s.nextAvailableLeafIndex });

describe('chain hashes against trees.json', () => {
  it('blockHeaderHash: 22 fields and the hash of the vector header', () => {
    const j = trees.blockHeaderHash.headerJson;
    const g = j.globalVariables;
    const header = {
      lastArchive: snap(j.lastArchive),
      state: { l1ToL2MessageTree: snap(j.state.l1ToL2MessageTree), noteHashTree: snap(j.state.partial.noteHashTree), nullifierTree: snap(j.state.partial.nullifierTree), publicDataTree: snap(j.state.partial.publicDataTree) },
      spongeBlobHash: BigInt(j.spongeBlobHash),
      globalVariables: { chainId: BigInt(g.chainId), version: BigInt(g.version), blockNumber: g.blockNumber, slotNumber: Number(BigInt(g.slotNumber)), timestamp: BigInt(g.timestamp), coinbase: BigInt(g.coinbase), feeRecipient: BigInt(g.feeRecipient), gasFees: { feePerDaGas: BigInt(g.gasFees.feePerDaGas), feePerL2Gas: BigInt(g.gasFees.feePerL2Gas) } },
      totalFees: BigInt(j.totalFees), totalManaUsed: BigInt(j.totalManaUsed),
    };
    assert.deepEqual(blockHeaderToFields(header).map(hex), trees.blockHeaderHash.fields);
    assert.equal(hex(hashBlockHeader(header)), trees.blockHeaderHash.hash);
  });

  it('checkpointHeaderHash: buffer and hash of the vector header; empty header gives GENESIS_CHECKPOINT_HEADER_HASH', () => {
    const j = trees.checkpointHeaderHash.headerJson;
    const h = {
      lastArchiveRoot: BigInt(j.lastArchiveRoot), blockHeadersHash: BigInt(j.blockHeadersHash), blobsHash: BigInt(j.blobsHash), inHash: BigInt(j.inHash), epochOutHash: BigInt(j.epochOutHash),
      slotNumber: j.slotNumber, timestamp: BigInt(j.timestamp), coinbase: BigInt(j.coinbase), feeRecipient: BigInt(j.feeRecipient),
      gasFees: { feePerDaGas: BigInt(j.gasFees.feePerDaGas), feePerL2Gas: BigInt(j.gasFees.feePerL2Gas) }, totalManaUsed: BigInt(j.totalManaUsed),
    };
    assert.equal('0x' + Buffer.from(checkpointHeaderToBuffer(h)).toString('hex'), trees.checkpointHeaderHash.bufferHex);
    assert.equal(hex(hashCheckpointHeader(h)), trees.checkpointHeaderHash.hash);
    assert.equal(hex(hashCheckpointHeader(emptyCheckpointHeader())), trees.genesis.GENESIS_CHECKPOINT_HEADER_HASH);
  });

  it('feeJuiceBalance: leaf slot of a fee payer balance', () => {
    for (const v of trees.feeJuiceBalance) assert.equal(hex(feeJuiceBalanceLeafSlot(BigInt(v.feePayer))), v.leafSlot);
  });

  it('computeL2ToL1MessageHash: sha256ToField of the 148-byte preimage', () => {
    const v = trees.siloing.computeL2ToL1MessageHash;
    const got = l2ToL1MessageHash({ sender: BigInt(v.l2Sender), recipient: BigInt(v.l1Recipient), content: BigInt(v.content), rollupVersion: BigInt(v.rollupVersion), chainId: BigInt(v.chainId) });
    assert.equal(hex(got), v.result);
  });

  it('nullifierTreeScenario: batch of 5 nullifiers + 59 zero padding gives the vector root', () => {
    const sc = trees.nullifierTreeScenario;
    const values = sc.insertedNullifiers;
    const t = new IndexedTree(42, false, 128);
    values.forEach((n, k) => t.insertAt(128 + k, BigInt(n)));
    t.padTo(128 + 64);
    assert.deepEqual({ root: hex(t.tree.root), nextAvailableLeafIndex: t.tree.size }, sc.snapshotAfter);
  });
});

describe('fee model', () => {
  it('fakeExponential: factor when there is no excess, growing with excess', () => {
    assert.equal(fakeExponential(1000n, 0n, 100n), 1000n);
    assert.ok(fakeExponential(1000n, 100n, 100n) > 2700n);
  });

  it('min fees fall when the fee asset gets dearer and rise with congestion', () => {
    const base = { l1GasPriceWei: 10n ** 9n, l1BlobGasPriceWei: 1n, ethPerFeeAsset: 10_000_000n, excessMana: 0n };
    const cheap = computeMinFees(base);
    assert.ok(computeMinFees({ ...base, ethPerFeeAsset: 20_000_000n }).feePerL2Gas < cheap.feePerL2Gas);
    assert.ok(computeMinFees({ ...base, excessMana: 10n ** 9n }).feePerL2Gas > cheap.feePerL2Gas);
  });
});
