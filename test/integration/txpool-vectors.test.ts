/**
 * All 29 real tx vectors through node_sendTx on a node set to each vector's chain id and rollup
 * version, knowing its anchor block (the vector's own `anchorBlockHeaderHash`) and funding its
 * fee payer with exactly its fee limit: each is accepted (and read back byte for byte) or
 * rejected with the reason its content implies.
 * @module
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { maxFee } from '../../src/impl/fees/fees.ts';
import { decodeTx, TX_ERROR } from '../../src/impl/tx/index.ts';
import { FakeChain } from '../unit/txpool/helpers/fake-chain.ts';
import { startTxNode } from '../unit/txpool/helpers/harness.ts';
import { loadVector, VECTOR_DIR, type Vector } from '../unit/txpool/helpers/tx-builder.ts';

/** The reasons a vector's content implies on such a node (empty: it is valid). */
function expectedReasons(v: Vector): string[] {
  // The allow-list is empty, so any setup call is refused.
  if (v.summary.nonRevertiblePublicCalls > 0) return [TX_ERROR.SETUP_FUNCTION_NOT_ALLOWED];
  // Gas limits of 2^32 − 1 / 2^32 − 2: above any block maximum.
  if (v.name === 'rollup-10-u128-fees') return [TX_ERROR.GAS_LIMIT_TOO_HIGH];
  // Expiration 0 is before any next block.
  if (v.name === 'rollup-12-zero-expiration') return [TX_ERROR.INVALID_EXPIRATION_TIMESTAMP];
  return [];
}

const files = readdirSync(VECTOR_DIR)
  .filter((f) => f.endsWith('.json') && f !== 'index.json')
  .sort();

describe('tx vectors through node_sendTx', () => {
  it('there are 29 vectors', () => assert.equal(files.length, 29));

  for (const file of files) {
    const v = loadVector(file);
    const expected = expectedReasons(v);
    it(`${v.name}: ${expected.length === 0 ? 'accepted' : `rejected: ${expected.join(', ')}`}`, async () => {
      const tx = decodeTx(v.wire);
      assert.equal(tx.txHash, BigInt(v.txHash));
      const chain = new FakeChain();
      chain.chainId = tx.data.constants.txContext.chainId;
      chain.rollupVersion = tx.data.constants.txContext.version;
      chain.minFees = { feePerDaGas: 0n, feePerL2Gas: 0n };
      chain.blocks.add(BigInt(v.anchorBlockHeaderHash));
      chain.balances.set(tx.data.feePayer, maxFee(tx.data.constants.txContext.gasSettings));
      const node = await startTxNode({ chain });
      try {
        const res = await node.call('node_sendTx', [v.wire]);
        if (expected.length === 0) {
          assert.equal(res.error, undefined);
          assert.ok(
            (await node.callRaw('node_getTxByHash', [v.txHash])).includes(`"result":${JSON.stringify(v.wire)}`),
          );
        } else {
          assert.deepEqual(res.error, {
            code: -32021,
            message: `Invalid tx: ${expected.join(', ')}`,
            data: { reasons: expected },
          });
          assert.equal((await node.call('node_getPendingTxCount')).result, 0);
        }
      } finally {
        await node.close();
      }
    });
  }
});
