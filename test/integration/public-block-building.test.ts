/**
 * Public execution inside block building (dev engine, in-memory database): txs of one block see
 * the effects and deployments of the txs before them; setup calls are judged by the engine's
 * allow-list and an invalid public part drops the tx without any effect; a reverted deployment
 * publishes nothing; the contract index survives a restart of the engine on the same database and
 * goes back with an unwound block (on SQLite and Postgres).
 * @module
 */
import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import { describe, it } from 'node:test';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { functionSelectorFromSignature } from '../../src/impl/contracts/function-selector.ts';
import { deriveStorageSlotInMap, computePublicDataLeafSlot } from '../../src/impl/contracts/siloing.ts';
import { TokenStorage } from '../../src/impl/contracts/examples/token.ts';
import { createEngine } from '../../src/impl/engine.ts';
import type { AllowedElement } from '../../src/impl/execution/allow-list.ts';
import { InMemoryTxSource, toMinableTx } from '../../src/impl/sequencer/tx-source.ts';
import { openTestDatabase } from '../unit/store/engines.ts';
import { buildPublicTx, calldata, exampleTokenDeployment } from './public-tx-builder.ts';
import type { BuiltPublicTx } from './public-tx-builder.ts';

const GENESIS = 1_800_000_000n;
const PAYER = 0x1001n;
const ADMIN = 0xad111n,
  ALICE = 0xa11cen,
  BOB = 0xb0bn;
const nul = (n: number) => 0x7e58_0000n + BigInt(n);

async function devEngine(allowList: AllowedElement[] = [], db?: Knex) {
  const clock = new ManualClock(Number(GENESIS) * 1000);
  const txSource = new InMemoryTxSource();
  const engine = await createEngine({
    dataDirectory: '',
    clock,
    genesisTime: GENESIS,
    slotDurationSeconds: 4,
    slotsPerEpoch: 2,
    l1BlockSeconds: 4,
    proofDelaySeconds: 4,
    finalityDepth: 1,
    feeRecipient: 0xfee5n,
    fundedAccounts: [{ address: PAYER, amount: 10n ** 30n }],
    txSource,
    publicVm: { allowList: () => allowList },
    ...(db ? { db } : {}),
  });
  const mine = async (...txs: BuiltPublicTx[]) => {
    for (const t of txs) txSource.add(toMinableTx(t.tx));
    clock.advance(4000);
    await engine.tick();
    return engine.chain.findBlock(await engine.chain.getBlockNumber());
  };
  return { engine, txSource, mine };
}

const token = exampleTokenDeployment();
const storage = (owner: bigint) =>
  computePublicDataLeafSlot(token.instance.address, deriveStorageSlotInMap(TokenStorage.BALANCES, owner));
const deployTx = (n: number, priorityFee = 0n) =>
  buildPublicTx({
    txNullifier: nul(n),
    feePayer: PAYER,
    publishClass: token.contractClass,
    publishInstance: token.instance,
    priorityFee,
    appCalls: [{ to: token.instance.address, from: ADMIN, calldata: calldata('constructor((Field))', ADMIN) }],
  });
const mintTx = (n: number, to: bigint, amount: bigint, priorityFee = 0n) =>
  buildPublicTx({
    txNullifier: nul(n),
    feePayer: PAYER,
    priorityFee,
    appCalls: [
      { to: token.instance.address, from: ADMIN, calldata: calldata('mint_to_public((Field),u128)', to, amount) },
    ],
  });

describe('public execution in block building', () => {
  it('runs deploy, mint and transfer in one block, each tx on top of the ones before it', async () => {
    const { engine, mine } = await devEngine();
    const transfer = buildPublicTx({
      txNullifier: nul(3),
      feePayer: PAYER,
      priorityFee: 1n,
      appCalls: [
        {
          to: token.instance.address,
          from: ALICE,
          calldata: calldata('transfer_in_public((Field),(Field),u128,Field)', ALICE, BOB, 40n, 0n),
        },
      ],
    });
    const block = (await mine(deployTx(1, 3n), mintTx(2, ALICE, 100n, 2n), transfer))!;
    assert.deepEqual(
      block.body.txEffects.map((e) => e.revertCode),
      [0, 0, 0],
    );
    assert.equal(engine.latestState.readPublicData(storage(ALICE)), 60n);
    assert.equal(engine.latestState.readPublicData(storage(BOB)), 40n);
    assert.equal(block.header.totalManaUsed > 0n, true);
    await engine.stop();
  });

  it('drops a tx whose setup call is not allow-listed, applying nothing; an allow-listed setup call runs', async () => {
    const balanceOf = BigInt(functionSelectorFromSignature('balance_of_public((Field))'));
    const { engine, txSource, mine } = await devEngine([{ address: 5n, selector: Number(balanceOf) }]);
    const refused = buildPublicTx({
      txNullifier: nul(10),
      feePayer: PAYER,
      setupCalls: [{ to: 4n, from: PAYER, calldata: [balanceOf, PAYER] }],
    });
    const allowed = buildPublicTx({
      txNullifier: nul(11),
      feePayer: PAYER,
      setupCalls: [{ to: 5n, from: PAYER, calldata: [balanceOf, PAYER] }],
    });
    const block = (await mine(refused, allowed))!;
    assert.deepEqual(
      block.body.txEffects.map((e) => e.txHash),
      [allowed.tx.txHash],
    );
    assert.match(txSource.dropped.get(refused.tx.txHash)!, /Setup call to 0x4 selector \d+ is not on the allow-list/);
    assert.equal(engine.latestState.hasNullifier(nul(10)), false);
    assert.equal((await engine.chain.getTxReceipt(refused.tx.txHash)).status, 'dropped');
    await engine.stop();
  });

  it('a deployment whose app logic reverts publishes neither class nor instance', async () => {
    const { engine, mine } = await devEngine();
    const reverted = buildPublicTx({
      txNullifier: nul(20),
      feePayer: PAYER,
      publishClass: token.contractClass,
      publishInstance: token.instance,
      appCalls: [
        { to: token.instance.address, from: ALICE, calldata: calldata('mint_to_public((Field),u128)', ALICE, 5n) },
      ],
    });
    const block = (await mine(reverted))!;
    const effect = block.body.txEffects[0]!;
    assert.equal(effect.revertCode, 1);
    assert.deepEqual(effect.privateLogs, []);
    assert.deepEqual(effect.contractClassLogs, []);
    assert.deepEqual(effect.nullifiers, [nul(20)]);
    assert.equal(await engine.contracts.getContractInstance(token.instance.address), undefined);
    assert.equal(await engine.contracts.getContractClass(token.contractClass.id), undefined);
    await engine.stop();
  });

  for (const kind of ['sqlite', 'postgres'] as const) {
    it(`keeps the index across a restart on the same database and unwinds it with its block (${kind})`, async () => {
      const db = await openTestDatabase(kind);
      const first = await devEngine([], db);
      await first.mine(deployTx(30));
      await first.mine(mintTx(31, BOB, 7n));
      await first.engine.stop();
      const second = await devEngine([], db);
      assert.equal(
        (await second.engine.contracts.getContractInstance(token.instance.address))?.currentContractClassId,
        token.contractClass.id,
      );
      assert.deepEqual(
        (await second.engine.contracts.getContractClass(token.contractClass.id))?.packedBytecode,
        token.contractClass.packedBytecode,
      );
      assert.equal(second.engine.latestState.readPublicData(storage(BOB)), 7n);
      await second.engine.rollbackTo(1, { force: true });
      assert.ok(await second.engine.contracts.getContractClass(token.contractClass.id));
      await second.engine.rollbackTo(0, { force: true });
      assert.equal(await second.engine.contracts.getContractClass(token.contractClass.id), undefined);
      assert.equal(await second.engine.contracts.getContractInstance(token.instance.address), undefined);
      await second.engine.stop();
    });
  }
});
