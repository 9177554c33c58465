import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import trees from '../../../test/vectors/trees.json' with { type: 'json' };
import tipsExample from '../../../test/wire/examples/node_getL2Tips.json' with { type: 'json' };
import receiptExample from '../../../test/wire/examples/node_getTxReceipt.json' with { type: 'json' };
import { openDatabase } from '../../../src/impl/store/database.ts';
import { WorldState } from '../../../src/impl/world-state/world-state.ts';
import { toWireL2Tips, toWireTxReceipt } from '../../../src/impl/encoding/wire/blocks.ts';
import { toWireBlockHeader } from '../../../src/impl/encoding/wire/headers.ts';

describe('wire mappers: blocks', () => {
  it('toWireBlockHeader: the genesis header is exactly trees.json genesisHeaderJson (without _cachedHash)', async () => {
    const { _cachedHash: _ignored, ...expected } = trees.genesis.genesisHeaderJson as Record<string, unknown>;
    const db = await openDatabase({ dataDirectory: '' });
    try {
      const ws = await WorldState.open({ db });
      assert.equal(JSON.stringify(toWireBlockHeader((await ws.getBlockHeader(0))!)), JSON.stringify(expected));
    } finally {
      await db.destroy();
    }
  });

  it('toWireL2Tips: key order and encodings of the node_getL2Tips example', () => {
    const r = tipsExample.response.result;
    const t = (x: { number: number; hash: string }) => ({ number: x.number, hash: BigInt(x.hash) });
    const c = (x: { block: { number: number; hash: string }; checkpoint: { number: number; hash: string } }) => ({
      block: t(x.block),
      checkpoint: t(x.checkpoint),
    });
    const engineTips = {
      proposed: t(r.proposed),
      checkpointed: c(r.checkpointed),
      proven: c(r.proven),
      finalized: c(r.finalized),
    };
    assert.equal(JSON.stringify(toWireL2Tips(engineTips)), JSON.stringify(r));
  });

  it('toWireTxReceipt: a mined receipt has the example key order with a decimal fee; SPEC status names', () => {
    const r = receiptExample.response.result;
    const wire = toWireTxReceipt({
      txHash: BigInt(r.txHash),
      status: 'mined',
      executionResult: 'success',
      transactionFee: BigInt(r.transactionFee),
      blockHash: BigInt(r.blockHash),
      blockNumber: r.blockNumber,
      epochNumber: r.epochNumber,
    });
    assert.equal(JSON.stringify(wire), JSON.stringify({ ...r, status: 'mined' }));
    assert.deepEqual(Object.keys(toWireTxReceipt({ txHash: 1n, status: 'pending' })), ['txHash', 'status']);
  });
});
