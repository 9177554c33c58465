/** node_isValidTx and the validation before node_sendTx, through the JSON-RPC API. @module */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { TX_ERROR, decodeTx, getPublicCallsWithCalldata, getTxSizeBytes } from '../../src/impl/tx/index.ts';
import { FakeChain } from '../unit/txpool/helpers/fake-chain.ts';
import { startTxNode, type TxNode } from '../unit/txpool/helpers/harness.ts';
import { buildTx, loadVector } from '../unit/txpool/helpers/tx-builder.ts';

const PAYER = 0x1001n;
const GAS = { daGas: 1000, l2Gas: 1000 };
/** A tx that passes every check on the default FakeChain once PAYER is funded. */
const good = (patch: Parameters<typeof buildTx>[0] = {}) =>
  buildTx({
    chainId: 31337n,
    version: 1n,
    feePayer: PAYER,
    gasLimits: GAS,
    maxFeeL2: 5n,
    priorityFeeL2: 2n,
    nullifiers: [0xabcn],
    ...patch,
  });

describe('node_isValidTx', () => {
  let chain: FakeChain;
  let node: TxNode;
  let rejectProofs = false;
  before(async () => {
    chain = new FakeChain();
    node = await startTxNode({
      chain,
      validator: { maxTxSizeBytes: 1 << 20 },
      proofVerifier: { verify: async () => !rejectProofs },
    });
  });
  after(() => node.close());
  beforeEach(() => {
    chain.balances.set(PAYER, 10n ** 18n);
    chain.nullifiers.clear();
    chain.minFees = { feePerDaGas: 1n, feePerL2Gas: 1n };
    rejectProofs = false;
  });
  const validate = async (wire: unknown, options?: unknown) =>
    (await node.call('node_isValidTx', options === undefined ? [wire] : [wire, options])).result;

  it('valid: a tx matching the node passes', async () => {
    assert.deepEqual(await validate(good().wire), { result: 'valid' });
  });

  it('metadata: a different chain id or rollup version is invalid', async () => {
    assert.deepEqual(await validate(good({ chainId: 1n }).wire), {
      result: 'invalid',
      reason: [TX_ERROR.INCORRECT_L1_CHAIN_ID],
    });
    assert.deepEqual(await validate(good({ version: 9n }).wire), {
      result: 'invalid',
      reason: [TX_ERROR.INCORRECT_ROLLUP_VERSION],
    });
  });

  it('expiration: expiring before the next block timestamp is invalid, at it is valid', async () => {
    const ts = chain.nextTimestamp;
    assert.deepEqual(await validate(good({ expirationTimestamp: ts - 1n }).wire), {
      result: 'invalid',
      reason: [TX_ERROR.INVALID_EXPIRATION_TIMESTAMP],
    });
    assert.deepEqual(await validate(good({ expirationTimestamp: ts }).wire), { result: 'valid' });
  });

  it('gas: below the fixed minimum or above the block maximum is invalid', async () => {
    assert.deepEqual(await validate(good({ gasLimits: { daGas: 1, l2Gas: 1 } }).wire), {
      result: 'invalid',
      reason: [TX_ERROR.INSUFFICIENT_GAS_LIMIT],
    });
    assert.deepEqual(await validate(good({ gasLimits: { daGas: 1000, l2Gas: 100_000_001 } }).wire), {
      result: 'invalid',
      reason: [TX_ERROR.GAS_LIMIT_TOO_HIGH],
    });
  });

  it('fees: max fees below the current minimum are invalid unless skipFeeEnforcement', async () => {
    chain.minFees = { feePerDaGas: 1n, feePerL2Gas: 6n };
    assert.deepEqual(await validate(good().wire), { result: 'invalid', reason: [TX_ERROR.INSUFFICIENT_FEE_PER_GAS] });
    assert.deepEqual(await validate(good().wire, { skipFeeEnforcement: true }), { result: 'valid' });
  });

  it('balance: a fee payer whose FeeJuice does not cover the fee limit is invalid unless skipFeeEnforcement', async () => {
    const feeLimit = 1000n * 1n + 1000n * 5n;
    chain.balances.set(PAYER, feeLimit - 1n);
    assert.deepEqual(await validate(good().wire), {
      result: 'invalid',
      reason: [TX_ERROR.INSUFFICIENT_FEE_PAYER_BALANCE],
    });
    assert.deepEqual(await validate(good().wire, { skipFeeEnforcement: true }), { result: 'valid' });
    chain.balances.set(PAYER, feeLimit);
    assert.deepEqual(await validate(good().wire), { result: 'valid' });
  });

  it('nullifiers: a duplicate inside the tx, or one already in the tree, is invalid', async () => {
    assert.deepEqual(await validate(good({ nullifiers: [7n, 7n] }).wire), {
      result: 'invalid',
      reason: [TX_ERROR.DUPLICATE_NULLIFIER_IN_TX],
    });
    chain.nullifiers.add(0xabcn);
    assert.deepEqual(await validate(good().wire), { result: 'invalid', reason: [TX_ERROR.EXISTING_NULLIFIER] });
  });

  it("anchor: a header that is none of this node's blocks is invalid", async () => {
    const other = structuredClone(good().tx.data.constants.anchorBlockHeader) as any;
    other.globalVariables.blockNumber = 99;
    assert.deepEqual(await validate(good({ anchorBlockHeader: other }).wire), {
      result: 'invalid',
      reason: [TX_ERROR.BLOCK_HEADER],
    });
  });

  it('proof: a proof the verifier rejects is invalid, unless isSimulation', async () => {
    rejectProofs = true;
    assert.deepEqual(await validate(good().wire), { result: 'invalid', reason: [TX_ERROR.INVALID_PROOF] });
    assert.deepEqual(await validate(good().wire, { isSimulation: true }), { result: 'valid' });
  });

  it('pure checks: every failing reason is listed', async () => {
    const r = await validate(good({ chainId: 1n, expirationTimestamp: 0n, gasLimits: { daGas: 1, l2Gas: 1 } }).wire);
    assert.equal(r.result, 'invalid');
    assert.deepEqual(
      new Set(r.reason),
      new Set([TX_ERROR.INCORRECT_L1_CHAIN_ID, TX_ERROR.INVALID_EXPIRATION_TIMESTAMP, TX_ERROR.INSUFFICIENT_GAS_LIMIT]),
    );
  });

  it('options and the tx: unknown members are ignored (a 4.1.2 Tx carries sizeCache once measured)', async () => {
    const plain = await node.call('node_isValidTx', [good().wire]);
    const extra = await node.call('node_isValidTx', [
      { ...good().wire, sizeCache: 12345, newerField: { a: 1 } },
      { skipProof: true },
    ]);
    assert.equal(plain.error, undefined);
    assert.deepEqual(extra.result, { result: 'valid' });
    assert.deepEqual(extra.result, plain.result);
  });

  it('decode: a tx that does not decode is -32602 naming params[0] (tx) and the path', async () => {
    const wire = { ...good().wire, data: 'AAAA' };
    const res = await node.call('node_isValidTx', [wire]);
    assert.equal(res.error?.code, -32602);
    assert.match(res.error!.message, /^params\[0\] \(tx\): data does not decode: /);
    assert.deepEqual({ index: res.error!.data.index, param: res.error!.data.param }, { index: 0, param: 'tx' });
  });
});

describe('node_isValidTx: size and setup allow-list', () => {
  it('size: a tx above the size limit is invalid', async () => {
    const chain = new FakeChain();
    chain.balances.set(PAYER, 10n ** 18n);
    const { tx, wire } = good();
    const node = await startTxNode({ chain, validator: { maxTxSizeBytes: getTxSizeBytes(tx) - 1 } });
    try {
      assert.deepEqual((await node.call('node_isValidTx', [wire])).result, {
        result: 'invalid',
        reason: [TX_ERROR.SIZE_ABOVE_LIMIT],
      });
    } finally {
      await node.close();
    }
  });

  it('setup: a setup call not on the allow-list is invalid; on it, valid', async () => {
    // public-02: chain id 0, version 0, one setup call; anchor = the empty header.
    const v = loadVector('public-02-one-setup-call');
    const tx = decodeTx(v.wire);
    const chain = new FakeChain();
    chain.chainId = 0n;
    chain.rollupVersion = 0n;
    chain.balances.set(tx.data.feePayer, 10n ** 18n);
    const [setup] = getPublicCallsWithCalldata(tx);
    const allowed = { address: setup!.request.contractAddress, selector: Number(setup!.calldata[0]) };
    const denied = await startTxNode({ chain, allowList: [] });
    const admitted = await startTxNode({ chain, allowList: [allowed] });
    try {
      assert.deepEqual((await denied.call('node_isValidTx', [v.wire])).result, {
        result: 'invalid',
        reason: [TX_ERROR.SETUP_FUNCTION_NOT_ALLOWED],
      });
      assert.deepEqual((await admitted.call('node_isValidTx', [v.wire])).result, { result: 'valid' });
    } finally {
      await denied.close();
      await admitted.close();
    }
  });
});

describe('node_sendTx: validation errors', () => {
  let chain: FakeChain;
  let node: TxNode;
  before(async () => {
    chain = new FakeChain();
    chain.balances.set(PAYER, 10n ** 18n);
    node = await startTxNode({ chain });
  });
  after(() => node.close());

  it('invalid: -32021 with `Invalid tx: ` + the reasons and data.reasons; nothing is pooled', async () => {
    const res = await node.call('node_sendTx', [good({ chainId: 1n, expirationTimestamp: 0n }).wire]);
    assert.deepEqual(res.error, {
      code: -32021,
      message: `Invalid tx: ${TX_ERROR.INVALID_EXPIRATION_TIMESTAMP}, ${TX_ERROR.INCORRECT_L1_CHAIN_ID}`,
      data: { reasons: [TX_ERROR.INVALID_EXPIRATION_TIMESTAMP, TX_ERROR.INCORRECT_L1_CHAIN_ID] },
    });
    assert.equal((await node.call('node_getPendingTxCount')).result, 0);
  });

  it("a fee payer that simply cannot pay: -32021 with 4.1.2's words, and data.code INSUFFICIENT_FEE_PAYER_BALANCE (SPEC §7)", async () => {
    const poor = 0x9999n;
    const res = await node.call('node_sendTx', [good({ feePayer: poor }).wire]);
    assert.deepEqual(res.error, {
      code: -32021,
      message: `Invalid tx: ${TX_ERROR.INSUFFICIENT_FEE_PAYER_BALANCE}`,
      data: { reasons: [TX_ERROR.INSUFFICIENT_FEE_PAYER_BALANCE], code: 'INSUFFICIENT_FEE_PAYER_BALANCE' },
    });
    const other = await node.call('node_sendTx', [good({ chainId: 1n }).wire]);
    assert.equal(other.error?.data.code, undefined, 'no code where none of the three conditions is the cause');
  });

  it('undecodable: -32602 naming params[0] (tx), with {index, param, rule}', async () => {
    const wire = { ...good().wire, chonkProof: 'AAAA' };
    const res = await node.call('node_sendTx', [wire]);
    assert.equal(res.error?.code, -32602);
    assert.equal(res.error!.message, `params[0] (tx): ${res.error!.data.rule}`);
    assert.match(res.error!.data.rule, /^chonkProof does not decode: /);
  });

  it('valid: accepted with result null and pending', async () => {
    const { wire } = good();
    const res = await node.call('node_sendTx', [wire]);
    assert.equal(res.error, undefined);
    assert.equal(res.result, null);
    assert.deepEqual((await node.call('node_getTxByHash', [wire.txHash])).result, wire);
  });
});
