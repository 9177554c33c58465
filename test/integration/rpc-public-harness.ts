/**
 * Harness for the public-handler integration tests: a dev engine on an in-memory database driven
 * by a ManualClock, the generated public method table with the real handlers over HTTP, and
 * call helpers that check every result against the generated result validator.
 * @module
 */
import assert from 'node:assert/strict';
import { publicMethods } from '../../src/generated/public/methods.ts';
import { createEngine } from '../../src/impl/engine.ts';
import type { Engine } from '../../src/impl/engine.ts';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { FunctionSignatureRegistry } from '../../src/impl/contracts/function-selector.ts';
import type { AllowedElement } from '../../src/impl/execution/allow-list.ts';
import { answerCachesOver, withAnswerCache } from '../../src/impl/rpc/public/answer-cache.ts';
import { createPublicHandlers } from '../../src/impl/rpc/public/index.ts';
import { createValidatorHandlers } from '../../src/impl/validators/handlers.ts';
import { SlotRecordStore } from '../../src/impl/validators/slot-record.ts';
import { InMemoryTxSource } from '../../src/impl/sequencer/tx-source.ts';
import type { MinableTx } from '../../src/impl/sequencer/tx-source.ts';
import { createRpcServer } from '../../src/server/http.ts';
import type { RpcServer } from '../../src/server/http.ts';
import { silentLogger } from '../../src/server/logger.ts';
import { post } from './server-harness.ts';

export const GENESIS = 1_800_000_000n;
export const PAYER = 0x1001n;
export const SLOT_MS = 4000;
/** Receives the fees (not the payer, so the payer's balance moves). */
export const FEE_RECIPIENT = 0xfee5n;

/** A tx the dev sequencer can mine (no public calls). */
export function minableTx(seed: number, overrides: Partial<MinableTx> = {}): MinableTx {
  const s = BigInt(seed);
  return {
    txHash: 0xabc000n + s,
    feePayer: PAYER,
    gasSettings: {
      gasLimits: { daGas: 1000, l2Gas: 100000 },
      teardownGasLimits: { daGas: 0, l2Gas: 0 },
      maxFeesPerGas: { feePerDaGas: 10n ** 18n, feePerL2Gas: 10n ** 18n },
      maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: s },
    },
    gasUsed: { daGas: 100, l2Gas: 5000 },
    noteHashes: [0x100n + s, 0x200n + s],
    nullifiers: [0x300n + s, 0x400n + s],
    l2ToL1Msgs: [{ sender: 0xabcdn, recipient: 0x1111111111111111111111111111111111111111n, content: 7n + s }],
    privateLogs: [{ fields: [0x7a9n, ...Array.from({ length: 15 }, (_, i) => BigInt(i) + s)], emittedLength: 16 }],
    contractClassLogs: [],
    publicCallCount: 0,
    ...overrides,
  };
}

/** A running node: engine, HTTP server and the injected parts the test can observe or steer. */
export interface RpcNode {
  readonly engine: Engine;
  readonly clock: ManualClock;
  readonly txSource: InMemoryTxSource;
  readonly signatures: FunctionSignatureRegistry;
  readonly allowList: AllowedElement[];
  readiness: boolean;
  readonly url: string;
  close(): Promise<void>;
}

/** Starts an engine (in-memory database) and the public server with every handler of this package. */
export async function startRpcNode(): Promise<RpcNode> {
  const clock = new ManualClock(Number(GENESIS) * 1000);
  const txSource = new InMemoryTxSource();
  const engine = await createEngine({
    dataDirectory: '',
    clock,
    genesisTime: GENESIS,
    slotDurationSeconds: SLOT_MS / 1000,
    slotsPerEpoch: 2,
    l1BlockSeconds: 4,
    proofDelaySeconds: 4,
    finalityDepth: 1,
    buildEmptyBlocks: true,
    feeRecipient: FEE_RECIPIENT,
    fundedAccounts: [{ address: PAYER, amount: 10n ** 30n }],
    txSource,
  });
  const node = {
    engine,
    clock,
    txSource,
    signatures: new FunctionSignatureRegistry(),
    allowList: [] as AllowedElement[],
    readiness: true,
    url: '',
    close: async () => {},
  };
  const handlers = createPublicHandlers({
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
      isReady: () => node.readiness,
      getEncodedEnr: () => undefined,
      signatures: node.signatures,
      allowList: () => node.allowList,
    },
  });
  // As main.ts adds them: the validator stats over the slot record (empty here: no validator runs).
  const validatorStats = createValidatorHandlers({
    store: await SlotRecordStore.open(engine.db),
    slotStart: (slot) => engine.time.slotStart(slot),
    slotsPerEpoch: 2,
  });
  // As main.ts serves them: immutable answers through the answer cache.
  const server: RpcServer = createRpcServer({
    methods: publicMethods,
    handlers: withAnswerCache({ ...handlers, ...validatorStats }, answerCachesOver(engine.chain)),
    limits: { maxBodyBytes: 16_000_000, maxBatchSize: 100 },
    logger: silentLogger,
  });
  const { port } = await server.listen(0, '127.0.0.1');
  node.url = `http://127.0.0.1:${port}`;
  node.close = async () => {
    await server.close();
    await engine.stop();
  };
  return node;
}

/** Advances the clock by `slots` slots and runs one sequencer step. */
export async function nextSlot(node: RpcNode, slots = 1): Promise<void> {
  node.clock.advance(SLOT_MS * slots);
  await node.engine.tick();
}

let id = 0;

/** Sends one call; returns the raw JSON-RPC response element. */
export async function rpc(
  node: RpcNode,
  method: string,
  params: unknown[],
): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const res = await post(node.url, { jsonrpc: '2.0', id: id++, method, params });
  return res.json();
}

/** Calls a method that must succeed; the result must pass the generated result validator. */
export async function ok<T = any>(node: RpcNode, method: string, ...params: unknown[]): Promise<T> {
  const r = await rpc(node, method, params);
  assert.equal(r.error, undefined, `${method}: ${JSON.stringify(r.error)}`);
  assert.equal(publicMethods[method]!.validateResult(r.result), null, `${method} result fails its schema`);
  return r.result as T;
}

/** Calls a method that must fail; returns the error. */
export async function fails(
  node: RpcNode,
  method: string,
  ...params: unknown[]
): Promise<{ code: number; message: string; data?: any }> {
  const r = await rpc(node, method, params);
  assert.ok(r.error, `${method} should fail, got ${JSON.stringify(r.result)}`);
  return r.error;
}

/** 0x + 64 hex. */
export const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');

/** Decodes a SiblingPath base64 ([u32 count][count × 32 bytes]) into fields. */
export function decodeSiblingPath(b64: string): bigint[] {
  const buf = Buffer.from(b64, 'base64');
  const n = buf.readUInt32BE(0);
  assert.equal(buf.length, 4 + 32 * n);
  return Array.from({ length: n }, (_, i) => BigInt('0x' + buf.subarray(4 + 32 * i, 36 + 32 * i).toString('hex')));
}

/** Decodes a MembershipWitness base64 ([32-byte index][N × 32 bytes]). */
export function decodeMembershipWitness(b64: string): { index: bigint; path: bigint[] } {
  const buf = Buffer.from(b64, 'base64');
  const words = Array.from({ length: buf.length / 32 }, (_, i) =>
    BigInt('0x' + buf.subarray(32 * i, 32 * i + 32).toString('hex')),
  );
  return { index: words[0]!, path: words.slice(1) };
}
