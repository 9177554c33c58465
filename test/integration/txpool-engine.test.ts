/**
 * The pool wired to the real engine: the ChainView over the engine's chain and world state, the
 * pool as the sequencer's TxSource. A tx sent through the handlers is validated against genesis
 * (anchor, dev funding, min fees), pending, then mined by a sequencer tick and gone from the pool.
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openChainDb } from '../../src/impl/chain/chain-db.ts';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { createEngine, type Engine } from '../../src/impl/engine.ts';
import { createTransactionHandlers, poolTransactions } from '../../src/impl/rpc/public/transactions.ts';
import { createEngineChainView, type ChainView } from '../../src/impl/txpool/chain-view.ts';
import { TxPool } from '../../src/impl/txpool/tx-pool.ts';
import { createNodeTxValidator } from '../../src/impl/txpool/tx-validator.ts';
import { anchorHeaderOf } from '../../src/impl/tx/anchor-header.ts';
import { buildTx } from '../unit/txpool/helpers/tx-builder.ts';

const GENESIS = 1_800_000_000n;
const PAYER = 0x1001n;

describe('txpool with the engine', () => {
  it('sendTx → pending → mined by the sequencer → out of the pool', async () => {
    const db = await openChainDb(':memory:');
    const clock = new ManualClock(Number(GENESIS) * 1000);
    let engine: Engine | undefined;
    // The pool is the engine's tx source, and reads the engine: resolve the view on first use.
    let view: ChainView | undefined;
    const chain: ChainView = new Proxy({} as ChainView, {
      get: (_t, k) => (view ??= createEngineChainView(engine!))[k as keyof ChainView],
    });
    const pool = await TxPool.open({ db, chain });
    engine = await createEngine({
      db,
      clock,
      genesisTime: GENESIS,
      slotDurationSeconds: 4,
      slotsPerEpoch: 2,
      l1BlockSeconds: 4,
      fundedAccounts: [{ address: PAYER, amount: 10n ** 30n }],
      txSource: pool,
    });
    const handlers = createTransactionHandlers(
      poolTransactions(pool, createNodeTxValidator({ chain, allowList: () => [] })),
    );
    const min = engine.getCurrentMinFees();
    const { wire, hash } = buildTx({
      chainId: 31337n,
      version: 1n,
      feePayer: PAYER,
      gasLimits: { daGas: 1000, l2Gas: 100_000 },
      maxFeeDa: min.feePerDaGas,
      maxFeeL2: min.feePerL2Gas + 5n,
      priorityFeeL2: 5n,
      nullifiers: [0xbeefn],
      expirationTimestamp: GENESIS + 3600n,
      anchorBlockHeader: anchorHeaderOf(engine.chain.genesisBlock.header),
    });
    assert.deepEqual(await handlers.isValidTx(wire as any), { result: 'valid' });
    await handlers.sendTx(wire as any);
    assert.equal(await handlers.getPendingTxCount(), 1);
    assert.equal((await engine.chain.getTxReceipt(BigInt(hash))).status, 'pending');

    clock.advance(4_000);
    await engine.tick();
    assert.equal(await handlers.getPendingTxCount(), 0);
    assert.equal(await handlers.getTxByHash(hash), null);
    assert.equal((await engine.chain.getTxReceipt(BigInt(hash))).status, 'mined');
    // Its nullifier is in the tree now: the same tx is invalid.
    assert.deepEqual(await handlers.isValidTx(wire as any), { result: 'invalid', reason: ['Existing nullifier'] });
    await engine.stop();
    await db.destroy();
  });
});
