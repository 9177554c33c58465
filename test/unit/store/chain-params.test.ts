/** The chain-defining params a database is created with, and the refusal of a start with others. @module */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkChainParams, ChainParamsMismatchError, type ChainParams } from '../../../src/impl/node-chain-params.ts';
import { getMetadata, openDatabase, setMetadata } from '../../../src/impl/store/database.ts';

const params: ChainParams = {
  genesisTime: 1_735_689_600n,
  slotDurationSeconds: 36,
  slotsPerEpoch: 32,
  l1ChainId: 31337,
  rollupVersion: 1,
  initialEthPerFeeAsset: 10_000_000n,
};

describe('checkChainParams', () => {
  it('records the params on first start (a new chain), accepts the same ones later', async () => {
    const db = await openDatabase({ dataDirectory: '' });
    try {
      assert.equal(await checkChainParams(db, params), true);
      assert.equal(await checkChainParams(db, params), false);
    } finally {
      await db.destroy();
    }
  });

  it('refuses another initial ETH per fee asset (fixed at deployment, SPEC §9) or slot duration, naming flag, value and stored value', async () => {
    const db = await openDatabase({ dataDirectory: '' });
    try {
      await checkChainParams(db, params);
      await assert.rejects(
        checkChainParams(db, { ...params, initialEthPerFeeAsset: 20_000_000n }),
        (err: Error) =>
          err instanceof ChainParamsMismatchError &&
          /--initialEthPerFeeAsset 20000000 \(database: 10000000\)/.test(err.message),
      );
      await assert.rejects(
        checkChainParams(db, { ...params, slotDurationSeconds: 12 }),
        /--slot-duration 12 \(database: 36\)/,
      );
    } finally {
      await db.destroy();
    }
  });

  it('a database recorded before a param was guarded keeps the value of its next start; a read-only caller records nothing', async () => {
    const db = await openDatabase({ dataDirectory: '' });
    try {
      const { initialEthPerFeeAsset: _, ...older } = Object.fromEntries(
        Object.entries(params).map(([k, v]) => [k, String(v)]),
      );
      await setMetadata(db, 'chain_params', JSON.stringify(older));
      assert.equal(await checkChainParams(db, { ...params, initialEthPerFeeAsset: 5n }, { readOnly: true }), false);
      assert.equal(JSON.parse((await getMetadata(db, 'chain_params'))!).initialEthPerFeeAsset, undefined);
      assert.equal(await checkChainParams(db, { ...params, initialEthPerFeeAsset: 5n }), false);
      assert.equal(JSON.parse((await getMetadata(db, 'chain_params'))!).initialEthPerFeeAsset, '5');
      await assert.rejects(checkChainParams(db, params), /--initialEthPerFeeAsset 10000000 \(database: 5\)/);
    } finally {
      await db.destroy();
    }
  });
});
