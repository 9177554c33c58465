import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import dataExample from '../../../../test/wire/examples/node_getCheckpointsDataForEpoch.json' with { type: 'json' };
import checkpointsExample from '../../../../test/wire/examples/node_getCheckpoints.json' with { type: 'json' };
import { publicMethods } from '../../../../src/generated/public/methods.ts';
import type * as C from '../../../../src/impl/chain/types.ts';
import {
  toWireCheckpointData,
  toWireL1PublishedData,
  toWirePublishedCheckpoint,
} from '../../../../src/impl/encoding/wire/checkpoints.ts';
import { fromWireCheckpointHeader, toWireCheckpointHeader } from '../../../../src/impl/encoding/wire/headers.ts';

type WireHeader = (typeof dataExample.response.result)[number]['header'];
type WireL1 = (typeof dataExample.response.result)[number]['l1'];

const header = (h: WireHeader): C.CheckpointHeader => fromWireCheckpointHeader(h);

const l1 = (x: WireL1): C.L1PublishedData => ({
  blockNumber: BigInt(x.blockNumber),
  timestamp: BigInt(x.timestamp),
  blockHash: BigInt(x.blockHash),
});

describe('wire mappers: checkpoints', () => {
  it('toWireCheckpointHeader / toWireL1PublishedData: key order and encodings of the 4.1.2 example', () => {
    const d = dataExample.response.result[0]!;
    assert.equal(JSON.stringify(toWireCheckpointHeader(header(d.header))), JSON.stringify(d.header));
    assert.equal(JSON.stringify(toWireL1PublishedData(l1(d.l1))), JSON.stringify(d.l1));
  });

  it('toWireCheckpointData: the example without attestations, and it passes the result validator', () => {
    const d = dataExample.response.result[0]!;
    const cp: C.Checkpoint = {
      number: d.checkpointNumber,
      header: header(d.header),
      hash: 1n,
      archive: { root: BigInt(d.archive.root), nextAvailableLeafIndex: d.archive.nextAvailableLeafIndex },
      startBlock: d.startBlock,
      blockCount: d.blockCount,
      feeAssetPriceModifier: 0n,
      l1: l1(d.l1),
    };
    const wire = toWireCheckpointData(cp, BigInt(d.checkpointOutHash));
    assert.equal(JSON.stringify(wire), JSON.stringify({ ...d, attestations: [] }));
    assert.equal(publicMethods.node_getCheckpointsDataForEpoch!.validateResult([wire]), null);
  });

  it('toWirePublishedCheckpoint: the example checkpoint fields around its blocks, a signed decimal price modifier', () => {
    const p = checkpointsExample.response.result[0]!;
    const c = p.checkpoint;
    const cp: C.Checkpoint = {
      number: c.number,
      header: header(c.header),
      hash: 1n,
      archive: { root: BigInt(c.archive.root), nextAvailableLeafIndex: c.archive.nextAvailableLeafIndex },
      startBlock: 1,
      blockCount: 1,
      feeAssetPriceModifier: BigInt(c.feeAssetPriceModifier),
      l1: l1(p.l1),
    };
    const wire = toWirePublishedCheckpoint({ ...cp, feeAssetPriceModifier: -5n }, []);
    assert.deepEqual(Object.keys(wire), Object.keys(p));
    assert.deepEqual(Object.keys(wire.checkpoint), Object.keys(c));
    const { blocks: _b, ...rest } = toWirePublishedCheckpoint(cp, []).checkpoint;
    const { blocks: _e, ...expected } = c;
    assert.deepEqual(rest, expected);
    assert.equal(wire.checkpoint.feeAssetPriceModifier, '-5');
    assert.deepEqual(wire.l1, p.l1);
  });
});
