import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import blockExample from '../../../test/wire/examples/node_getBlock.json' with { type: 'json' };
import blocksExample from '../../../test/wire/examples/node_getBlocks.json' with { type: 'json' };
import tipsExample from '../../../test/wire/examples/node_getL2Tips.json' with { type: 'json' };
import { toWireBlock, toWireL2Tips } from '../../../src/impl/encoding/wire/blocks.ts';
import { fromWireBlock, fromWireL2Tips, WireDecodeError } from '../../../src/impl/encoding/wire/blocks-decode.ts';
import { hashBlockHeader } from '../../../src/impl/world-state/block-header.ts';

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));
/** The real node's block JSON without `header._cachedHash`, which our encoder does not write. */
const withoutCache = (b: any) => {
  const c = clone(b);
  delete c.header._cachedHash;
  return c;
};

describe('wire L2Block → engine block', () => {
  it('decodes the real node_getBlock example and encodes it back byte for byte', () => {
    const wire = blockExample.response.result;
    const block = fromWireBlock(wire);
    assert.equal(block.hash, hashBlockHeader(block.header));
    assert.deepEqual(wire.header._cachedHash, {}, 'the real node serializes its cached hash as {}');
    assert.equal(JSON.stringify(toWireBlock(block)), JSON.stringify(withoutCache(wire)));
    assert.deepEqual(fromWireBlock(withoutCache(wire)), block);
  });

  it('round-trips every block of the node_getBlocks example', () => {
    const page = blocksExample.response.result as unknown[];
    assert.ok(page.length > 0);
    for (const wire of page)
      assert.equal(JSON.stringify(toWireBlock(fromWireBlock(wire))), JSON.stringify(withoutCache(wire)));
  });

  it('decodes the L2Tips example back to the same wire JSON', () => {
    const wire = tipsExample.response.result;
    assert.deepEqual(toWireL2Tips(fromWireL2Tips(wire)), wire);
  });

  it('refuses malformed blocks with the schema message, before decoding anything', () => {
    const noHeader = clone(blockExample.response.result) as Record<string, unknown>;
    delete noHeader.header;
    assert.throws(
      () => fromWireBlock(noHeader),
      (e: unknown) => e instanceof WireDecodeError && /^L2Block: .*header/.test(e.message),
    );
    const badHash = clone(blockExample.response.result);
    badHash.body.txEffects[0]!.noteHashes[0] = '0x12';
    assert.throws(() => fromWireBlock(badHash), WireDecodeError);
    assert.throws(() => fromWireBlock(null), WireDecodeError);
    const wrongCache = clone(blockExample.response.result);
    wrongCache.header._cachedHash = '0x' + '1'.repeat(64);
    assert.throws(() => fromWireBlock(wrongCache), /_cachedHash 0x1{64} is not the header's hash/);
    assert.throws(() => fromWireL2Tips({ proposed: { number: 1 } }), WireDecodeError);
  });
});
