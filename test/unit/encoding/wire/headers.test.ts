/** The header codec: both directions against the recorded examples, the spellings it reads, and the anchor a tx takes. @module */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import blockHeaderExample from '../../../../test/wire/examples/node_getBlockHeader.json' with { type: 'json' };
import checkpointsExample from '../../../../test/wire/examples/node_getCheckpoints.json' with { type: 'json' };
import { FIELD_MODULUS } from '../../../../src/impl/crypto/field.ts';
import {
  fromWireBlockHeader,
  fromWireCheckpointHeader,
  fromWireGlobalVariables,
  toWireBlockHeader,
  toWireCheckpointHeader,
  toWireGlobalVariables,
} from '../../../../src/impl/encoding/wire/headers.ts';
import { anchorHeaderFromWire, anchorHeaderOf } from '../../../../src/impl/tx/anchor-header.ts';
import { computeBlockHeaderHash } from '../../../../src/impl/tx/tx-hash.ts';
import type * as Wire from '../../../../src/generated/public/types.ts';
import { hashBlockHeader } from '../../../../src/impl/world-state/block-header.ts';
import { treesVectors as V } from '../../crypto/vectors.ts';

const blockHeader = blockHeaderExample.response.result as Wire.BlockHeader;
const checkpointHeader = checkpointsExample.response.result[0]!.checkpoint.header as Wire.CheckpointHeader;

describe('header codec', () => {
  it('a block header and its GlobalVariables decode and encode back to the recorded JSON, key order included', () => {
    assert.equal(JSON.stringify(toWireBlockHeader(fromWireBlockHeader(blockHeader))), JSON.stringify(blockHeader));
    const g = blockHeader.globalVariables;
    assert.equal(JSON.stringify(toWireGlobalVariables(fromWireGlobalVariables(g))), JSON.stringify(g));
  });

  it('a checkpoint header decodes and encodes back to the recorded JSON (slotNumber a number)', () => {
    const decoded = fromWireCheckpointHeader(checkpointHeader);
    assert.equal(typeof toWireCheckpointHeader(decoded).slotNumber, 'number');
    assert.equal(JSON.stringify(toWireCheckpointHeader(decoded)), JSON.stringify(checkpointHeader));
  });

  it("reads any BigInt spelling (a client's '0'), refuses a field element at or above the modulus", () => {
    const zeroTotals = { ...blockHeader, totalFees: '0', totalManaUsed: '0' };
    assert.equal(fromWireBlockHeader(zeroTotals).totalFees, 0n);
    const tooBig = { ...blockHeader, spongeBlobHash: '0x' + FIELD_MODULUS.toString(16) };
    assert.throws(() => fromWireBlockHeader(tooBig), RangeError);
  });

  it('the anchor of a header hashes, through the tx codec, to the block hash the chain computes', () => {
    const { _cachedHash: _, ...json } = V.blockHeaderHash.headerJson as typeof V.blockHeaderHash.headerJson & {
      _cachedHash?: unknown;
    };
    const chain = fromWireBlockHeader(json as Wire.BlockHeader);
    assert.equal(computeBlockHeaderHash(anchorHeaderOf(chain)), BigInt(V.blockHeaderHash.hash));
    assert.equal(computeBlockHeaderHash(anchorHeaderFromWire(json as Wire.BlockHeader)), hashBlockHeader(chain));
  });
});
