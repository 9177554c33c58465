/**
 * Issue 7 "done when", end to end over HTTP: the example token is deployed through txs (class via
 * the class registry's contract class log, instance via the instance registry's private log and
 * deployment nullifier, constructor in the same tx), minted and transferred in public; balances
 * read through `node_getPublicStorageAt`; a failing transfer simulated with a readable revert
 * naming the function; a reverting tx included with its fee charged; contracts unindexed on
 * rollback. In-memory engine (dev sequencer on a ManualClock), handlers composed here over the
 * generated method table (txs enter through the in-memory tx source: this harness has no pool).
 * The same story through node_sendTx, the pool and the node process: node-public-token.test.ts.
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { publicMethods } from '../../src/generated/public/methods.ts';
import { feeJuiceBalanceLeafSlot } from '../../src/impl/chain/protocol.ts';
import { ManualClock } from '../../src/impl/chain/time.ts';
import {
  FunctionSignatureRegistry,
  functionSelectorFromSignature,
  toSelectorHex,
} from '../../src/impl/contracts/function-selector.ts';
import { PROTOCOL_CONTRACTS } from '../../src/impl/contracts/protocol-contracts.ts';
import { deriveStorageSlotInMap } from '../../src/impl/contracts/siloing.ts';
import { TokenStorage } from '../../src/impl/contracts/examples/token.ts';
import { createEngine } from '../../src/impl/engine.ts';
import type { Engine } from '../../src/impl/engine.ts';
import { createContractHandlers } from '../../src/impl/rpc/public/contracts.ts';
import { createPublicHandlers } from '../../src/impl/rpc/public/index.ts';
import { createSimulationHandlers } from '../../src/impl/rpc/public/simulation.ts';
import { InMemoryTxSource, toMinableTx } from '../../src/impl/sequencer/tx-source.ts';
import { createRpcServer } from '../../src/server/http.ts';
import type { RpcServer } from '../../src/server/http.ts';
import { silentLogger } from '../../src/server/logger.ts';
import { post } from './server-harness.ts';
import { buildPublicTx, calldata, exampleTokenDeployment } from './public-tx-builder.ts';
import type { BuiltPublicTx } from './public-tx-builder.ts';

const GENESIS = 1_800_000_000n;
const PAYER = 0x1001n;
const RECIPIENT = 0xfee5n;
const ADMIN = 0xad111n,
  ALICE = 0xa11cen,
  BOB = 0xb0bn;
/** Tx nullifiers above the genesis nullifier tree's prefilled leaves. */
const nul = (n: number) => 0x7e57_0000n + BigInt(n);
const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');

describe('public token end to end (in-memory engine, handlers over HTTP)', () => {
  let engine: Engine, server: RpcServer, url: string, clock: ManualClock, txSource: InMemoryTxSource;
  const signatures = new FunctionSignatureRegistry();
  const token = exampleTokenDeployment();
  let id = 0;
  const rpc = async (method: string, ...params: unknown[]) =>
    (await (await post(url, { jsonrpc: '2.0', id: id++, method, params })).json()) as { result?: any; error?: any };
  const ok = async (method: string, ...params: unknown[]) => {
    const r = await rpc(method, ...params);
    assert.equal(r.error, undefined, `${method}: ${JSON.stringify(r.error)}`);
    assert.equal(publicMethods[method]!.validateResult(r.result), null, `${method} result fails its schema`);
    return r.result;
  };
  const mine = async (...txs: BuiltPublicTx[]) => {
    for (const t of txs) txSource.add(toMinableTx(t.tx));
    clock.advance(4000);
    await engine.tick();
  };
  const balance = async (owner: bigint) =>
    BigInt(
      await ok(
        'node_getPublicStorageAt',
        'latest',
        hex(token.instance.address),
        hex(deriveStorageSlotInMap(TokenStorage.BALANCES, owner)),
      ),
    );
  const transfer = (n: bigint, from: bigint, to: bigint, amount: bigint) =>
    buildPublicTx({
      txNullifier: n,
      feePayer: PAYER,
      appCalls: [
        {
          to: token.instance.address,
          from,
          calldata: calldata('transfer_in_public((Field),(Field),u128,Field)', from, to, amount, 0n),
        },
      ],
    });

  before(async () => {
    clock = new ManualClock(Number(GENESIS) * 1000);
    txSource = new InMemoryTxSource();
    engine = await createEngine({
      dataDirectory: '',
      clock,
      genesisTime: GENESIS,
      slotDurationSeconds: 4,
      slotsPerEpoch: 2,
      l1BlockSeconds: 4,
      proofDelaySeconds: 4,
      finalityDepth: 1,
      feeRecipient: RECIPIENT,
      fundedAccounts: [{ address: PAYER, amount: 10n ** 30n }],
      txSource,
    });
    const base = createPublicHandlers({
      nodeVersion: '0.0.0-test',
      rollupVersion: engine.config.rollupVersion,
      l1ChainId: engine.config.l1ChainId,
      engine: {
        chain: engine.chain,
        checkpoints: engine.checkpoints,
        worldState: engine.worldState,
        l1: engine.l1,
        protocolContractAddresses: engine.protocolContractAddresses,
        realProofs: false,
        getCurrentMinFees: () => engine.getCurrentMinFees(),
        isReady: () => true,
        getEncodedEnr: () => undefined,
        signatures,
        allowList: () => [],
      },
    });
    const handlers = {
      ...base,
      ...createContractHandlers({ contracts: engine.contracts }),
      ...createSimulationHandlers({ engine, allowList: () => [], signatures, maxL2GasLimit: 5_000_000n }),
    };
    server = createRpcServer({
      methods: publicMethods,
      handlers,
      limits: { maxBodyBytes: 16_000_000, maxBatchSize: 100 },
      logger: silentLogger,
    });
    url = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
  });

  after(async () => {
    await server.close();
    await engine.stop();
  });

  it('serves the genesis protocol contracts; unknown ids and addresses are null', async () => {
    const feeJuice = await ok('node_getContract', hex(5n));
    assert.equal(feeJuice.address, hex(5n));
    const cls = await ok('node_getContractClass', feeJuice.currentContractClassId);
    assert.equal(cls.id, feeJuice.currentContractClassId);
    assert.deepEqual(
      Buffer.from(cls.packedBytecode, 'base64'),
      Buffer.from(PROTOCOL_CONTRACTS.find((c) => c.instance.address === 5n)!.program.bytecode),
    );
    for (const a of [2n, 3n, 4n]) assert.equal((await ok('node_getContract', hex(a))).address, hex(a));
    assert.equal(await ok('node_getContract', hex(token.instance.address)), null);
    assert.equal(await ok('node_getContractClass', hex(token.contractClass.id)), null);
  });

  it('deploys the token through txs (class log, deployment log + nullifier, constructor) and indexes both', async () => {
    const deploy = buildPublicTx({
      txNullifier: nul(1),
      feePayer: PAYER,
      publishClass: token.contractClass,
      publishInstance: token.instance,
      appCalls: [{ to: token.instance.address, from: ADMIN, calldata: calldata('constructor((Field))', ADMIN) }],
    });
    await mine(deploy);
    const receipt = await ok('node_getTxReceipt', deploy.wire.txHash);
    assert.equal(receipt.status, 'mined', JSON.stringify(receipt));
    assert.equal(receipt.executionResult, 'success');
    const cls = await ok('node_getContractClass', hex(token.contractClass.id));
    assert.deepEqual(cls, {
      id: hex(token.contractClass.id),
      artifactHash: hex(0xa57n),
      packedBytecode: Buffer.from(token.contractClass.packedBytecode).toString('base64'),
      privateFunctionsRoot: hex(0n),
      privateFunctions: [],
      utilityFunctions: [],
      version: 1,
    });
    const inst = await ok('node_getContract', hex(token.instance.address));
    assert.equal(inst.currentContractClassId, hex(token.contractClass.id));
    assert.equal(inst.salt, hex(0x5a17n));
    assert.equal(inst.publicKeys.masterIncomingViewingPublicKey, '0x' + '0'.repeat(128));
    assert.equal(
      BigInt(await ok('node_getPublicStorageAt', 'latest', hex(token.instance.address), hex(TokenStorage.ADMIN))),
      ADMIN,
    );
  });

  it('mints and transfers in public; balances read through node_getPublicStorageAt', async () => {
    const mint = buildPublicTx({
      txNullifier: nul(2),
      feePayer: PAYER,
      appCalls: [
        { to: token.instance.address, from: ADMIN, calldata: calldata('mint_to_public((Field),u128)', ALICE, 1000n) },
      ],
    });
    await mine(mint);
    assert.equal(await balance(ALICE), 1000n);
    const payerBefore = BigInt(
      await ok('node_getPublicStorageAt', 'latest', hex(5n), hex(deriveStorageSlotInMap(1n, PAYER))),
    );
    const t = transfer(nul(3), ALICE, BOB, 300n);
    await mine(t);
    assert.equal(await balance(ALICE), 700n);
    assert.equal(await balance(BOB), 300n);
    const effect = (await ok('node_getTxEffect', t.wire.txHash)).data;
    assert.equal(effect.revertCode, 0);
    assert.deepEqual(effect.publicLogs, [
      { contractAddress: hex(token.instance.address), fields: [hex(ALICE), hex(BOB), hex(300n)] },
    ]);
    // By tag (first field ALICE), found by the one-query-for-all-tags read of public logs, as the per-contract paging finds it.
    const [byTag, none] = await ok('node_getLogsByTags', [hex(ALICE), hex(0xdeadn)]);
    assert.deepEqual(none, []);
    assert.deepEqual(
      byTag.map((l: { txHash: string; logData: string[] }) => [l.txHash, l.logData]),
      [[t.wire.txHash, [hex(ALICE), hex(BOB), hex(300n)]]],
    );
    assert.deepEqual(
      byTag,
      (await ok('node_getPublicLogsByTagsFromContract', hex(token.instance.address), [hex(ALICE)]))[0],
    );
    const fee = BigInt(effect.transactionFee);
    assert.ok(fee > 0n);
    assert.equal(engine.latestState.readPublicData(feeJuiceBalanceLeafSlot(PAYER)), payerBefore - fee);
  });

  it('simulates a failing transfer: revert reason names the function, state unchanged', async () => {
    await ok('node_registerContractFunctionSignatures', [...token.signatures]);
    const latest = await ok('node_getBlockNumber');
    const out = await ok('node_simulatePublicCalls', transfer(nul(4), BOB, ALICE, 1000n).wire);
    assert.equal(out.revertReason.originalMessage, 'Assertion failed: insufficient balance');
    const selector = toSelectorHex(functionSelectorFromSignature('transfer_in_public((Field),(Field),u128,Field)'));
    assert.deepEqual(out.revertReason.functionErrorStack, [
      { contractAddress: hex(token.instance.address), functionSelector: selector, functionName: 'transfer_in_public' },
    ]);
    assert.equal(out.txEffect.revertCode, 1);
    assert.equal(out.globalVariables.blockNumber, latest + 1);
    assert.equal(out.globalVariables.feeRecipient, hex(0n));
    assert.equal(out.globalVariables.coinbase, '0x' + '0'.repeat(40));
    assert.ok(out.gasUsed.publicGas.l2Gas > 0);
    assert.deepEqual(out.debugLogs, []);
    // A successful simulation returns the values; nothing of either simulation reached the state.
    const read = await ok(
      'node_simulatePublicCalls',
      buildPublicTx({
        txNullifier: nul(5),
        feePayer: PAYER,
        appCalls: [{ to: token.instance.address, from: BOB, calldata: calldata('balance_of_public((Field))', BOB) }],
      }).wire,
    );
    assert.equal(read.revertReason, undefined);
    assert.deepEqual(read.publicReturnValues, [{ values: [hex(300n)], nested: [] }]);
    assert.equal(await ok('node_getBlockNumber'), latest);
    assert.equal(await balance(BOB), 300n);
    assert.equal(engine.latestState.hasNullifier(nul(4)), false);
  });

  it('refuses a simulation above the gas maximum with SIMULATION_REFUSED', async () => {
    const big = buildPublicTx({
      txNullifier: nul(6),
      feePayer: PAYER,
      gasLimits: { daGas: 1000, l2Gas: 4_000_000 },
      teardownGasLimits: { daGas: 0, l2Gas: 2_000_000 },
      gasUsed: { daGas: 0, l2Gas: 2_010_000 },
      appCalls: [{ to: 5n, from: BOB, calldata: calldata('balance_of_public((Field))', BOB) }],
    });
    const r = await rpc('node_simulatePublicCalls', big.wire);
    assert.deepEqual(r.error, {
      code: -32030,
      message: 'Simulation refused: L2 gas limit 6000000 exceeds the maximum of 5000000',
      data: {
        reason: 'L2 gas limit 6000000 exceeds the maximum of 5000000',
        l2GasLimit: '6000000',
        maxL2GasLimit: '5000000',
      },
    });
  });

  it('refuses a simulation whose fee payer cannot pay, naming INSUFFICIENT_FEE_PAYER_BALANCE in data.code (SPEC §7)', async () => {
    const poor = buildPublicTx({
      txNullifier: nul(60),
      feePayer: 0x4242n,
      appCalls: [{ to: token.instance.address, from: BOB, calldata: calldata('balance_of_public((Field))', BOB) }],
    });
    const r = await rpc('node_simulatePublicCalls', poor.wire);
    assert.equal(r.error?.code, -32030, JSON.stringify(r));
    assert.match(r.error.message, /^Simulation refused: Insufficient fee payer balance: 0 < \d+$/);
    assert.equal(r.error.data.code, 'INSUFFICIENT_FEE_PAYER_BALANCE');
  });

  it('includes a reverting transfer with app_logic_reverted and still charges its fee', async () => {
    const bad = transfer(nul(7), BOB, ALICE, 1000n);
    const payerBefore = engine.latestState.readPublicData(feeJuiceBalanceLeafSlot(PAYER));
    const recipientBefore = engine.latestState.readPublicData(feeJuiceBalanceLeafSlot(RECIPIENT));
    await mine(bad);
    const receipt = await ok('node_getTxReceipt', bad.wire.txHash);
    assert.equal(receipt.status, 'mined');
    assert.equal(receipt.executionResult, 'app_logic_reverted');
    const fee = BigInt(receipt.transactionFee);
    assert.ok(fee > 0n);
    assert.equal(engine.latestState.readPublicData(feeJuiceBalanceLeafSlot(PAYER)), payerBefore - fee);
    assert.equal(engine.latestState.readPublicData(feeJuiceBalanceLeafSlot(RECIPIENT)), recipientBefore + fee);
    assert.equal(await balance(BOB), 300n);
    assert.equal(await balance(ALICE), 700n);
    // The non-revertible tx nullifier stays; the effect has no public logs.
    const effect = (await ok('node_getTxEffect', bad.wire.txHash)).data;
    assert.deepEqual(effect.nullifiers, [hex(nul(7))]);
    assert.deepEqual(effect.publicLogs, []);
  });

  it('unindexes the token when its deployment block is rolled back', async () => {
    await engine.rollbackTo(0, { force: true });
    assert.equal(await ok('node_getContract', hex(token.instance.address)), null);
    assert.equal(await ok('node_getContractClass', hex(token.contractClass.id)), null);
    assert.equal((await ok('node_getContract', hex(5n))).address, hex(5n));
  });
});
