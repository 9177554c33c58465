/**
 * Builds the conformance suite's deterministic chain and writes it as a chain file
 * (test/conformance/chain/chain.json; format: docs/CONFORMANCE.md, loader:
 * src/impl/chain-import-file.ts). The node runs in process on a ManualClock with the default
 * dev genesis (2025-01-01T00:00:00Z, 12 s slots, 32-slot epochs, three funded dev accounts); a
 * fixed script of real-format txs (tx-builder) goes through node_sendTx's own path and the dev
 * sequencer at chosen times, so that the chain has multi-block and single-block checkpoints,
 * note hashes, nullifiers, tagged private logs, L2→L1 messages, a contract class log, an L1→L2
 * message, finalized < proven < checkpointed < proposed tips and three txs left pending.
 *
 * `node src/conformance/chain/build.ts [--check] [--out <file>]`; the bytes are deterministic.
 * @module
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CHAIN_FILE } from './paths.ts';
import { parseCommand } from '../../config/parse.ts';
import { ManualClock } from '../../impl/chain/time.ts';
import { CHAIN_FILE_FORMAT } from '../../impl/chain-import-file.ts';
import type { ChainFile } from '../../impl/chain-import-file.ts';
import { createNode } from '../../impl/node.ts';
import type { L2Node } from '../../impl/node-types.ts';
import { toWireBlock, toWireL2Tips } from '../../impl/encoding/wire/blocks.ts';
import { toWireBlockHeader } from '../../impl/encoding/wire/headers.ts';
import { toWirePublishedCheckpoint } from '../../impl/encoding/wire/checkpoints.ts';
import { silentLogger } from '../../server/logger.ts';
import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, PRIVATE_LOG_SIZE_IN_FIELDS } from '../../impl/tx/constants.ts';
import { anchorHeaderFromWire } from '../../impl/tx/anchor-header.ts';
import { buildPrivateTx } from '../../impl/tx/tx-builder.ts';
import { computeContractClassLogHash, computeTxHash } from '../../impl/tx/tx-hash.ts';
import { toWireTx } from '../../impl/tx/tx-wire.ts';
import type { BlockHeader, Tx, WireTx } from '../../impl/tx/types.ts';
import { hex32 } from '../../impl/encoding/hex.ts';

/** Genesis time of the chain (the dev default): 2025-01-01T00:00:00Z. */
export const GENESIS_TIME = 1_735_689_600;
const SLOT = 12;

/** Values the scripted txs use; the fill cases refer to them. */
export const SCRIPT = {
  /** The dev accounts (fee payers). */
  payers: [0x1001n, 0x1002n, 0x1003n] as const,
  /** Private log tags: TAG_A has three logs (blocks 1 and 4), TAG_B one, TAG_C one. */
  tags: { a: 0x7a6a00n, b: 0x7a6b00n, c: 0x7a6c00n },
  /** The L1→L2 message sent before slot 2 (inserted by block 3). */
  l1ToL2Message: 0x11a2000000000000000000000000000000000000000000000000000000000001n,
  /** The L1 recipient of the L2→L1 messages. */
  l1Recipient: 0x1111111111111111111111111111111111111111n,
  /** The contract that emits the contract class log. */
  classLogContract: 0x2222n,
  /** Expiration of every scripted tx: 30 days after genesis. */
  expiration: BigInt(GENESIS_TIME + 30 * 86_400),
} as const;

/** One scripted tx: what it carries besides its nullifiers. */
export interface TxSpec {
  readonly seed: number;
  readonly payer: bigint;
  readonly priority: bigint;
  readonly noteHashes?: number;
  readonly nullifiers?: number;
  readonly logs?: readonly bigint[];
  readonly l2ToL1?: number;
  readonly classLog?: boolean;
  /** Explicit nullifiers (conflict cases); default two derived from the seed. */
  readonly nullifierValues?: readonly bigint[];
  readonly expiration?: bigint;
  readonly maxFeesPerGas?: { readonly feePerDaGas: bigint; readonly feePerL2Gas: bigint };
  readonly gasLimits?: { readonly daGas: number; readonly l2Gas: number };
}

/** A real-format private-only tx from the tx builder, with logs, messages and a class log patched in (hash recomputed). */
export function scriptedTx(
  anchor: BlockHeader,
  s: TxSpec,
  chainId = 31337n,
  rollupVersion = 1n,
): { tx: Tx; wire: WireTx; hash: string } {
  const base = 0x5eed0000n + BigInt(s.seed) * 0x100n;
  const nullifiers = s.nullifierValues ?? Array.from({ length: s.nullifiers ?? 2 }, (_, i) => base + 0x10n + BigInt(i));
  const noteHashes = Array.from({ length: s.noteHashes ?? 2 }, (_, i) => base + 0x20n + BigInt(i));
  const gasLimits =
    s.gasLimits ?? (s.classLog ? { daGas: 1_000_000, l2Gas: 1_000_000 } : { daGas: 10_000, l2Gas: 200_000 });
  const built = buildPrivateTx({
    chainId,
    rollupVersion,
    feePayer: s.payer,
    anchorBlockHeader: anchor,
    nullifiers,
    noteHashes,
    gasLimits,
    maxFeesPerGas: s.maxFeesPerGas ?? { feePerDaGas: 1_000_000n, feePerL2Gas: 1_000_000_000_000n },
    maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: s.priority },
    expirationTimestamp: s.expiration ?? SCRIPT.expiration,
  });
  const kernel = built.tx.data;
  if (kernel.isForPublic) throw new Error('unreachable: the tx builder builds private-only txs');
  const end = kernel.forRollup.end;
  const privateLogs = end.privateLogs.map((l, i) => {
    const tag = s.logs?.[i];
    if (tag === undefined) return l;
    const fields = [
      tag,
      ...Array.from({ length: PRIVATE_LOG_SIZE_IN_FIELDS - 1 }, (_, k) =>
        k < 6 ? base + 0x30n + BigInt(i * 8 + k) : 0n,
      ),
    ];
    return { fields, emittedLength: 7 };
  });
  const l2ToL1Msgs = end.l2ToL1Msgs.map((m, i) =>
    i < (s.l2ToL1 ?? 0)
      ? { message: { recipient: SCRIPT.l1Recipient, content: base + 0x40n + BigInt(i) }, contractAddress: 0xc0de01n }
      : m,
  );
  const classFields = s.classLog
    ? Array.from({ length: CONTRACT_CLASS_LOG_SIZE_IN_FIELDS }, (_, k) => (k < 8 ? base + 0x50n + BigInt(k) : 0n))
    : undefined;
  const contractClassLogsHashes = end.contractClassLogsHashes.map((h, i) =>
    i === 0 && classFields !== undefined
      ? {
          logHash: { value: computeContractClassLogHash(classFields), length: 8 },
          contractAddress: SCRIPT.classLogContract,
        }
      : h,
  );
  const data = {
    ...kernel,
    forRollup: { ...kernel.forRollup, end: { ...end, privateLogs, l2ToL1Msgs, contractClassLogsHashes } },
  };
  const tx: Tx = {
    ...built.tx,
    data,
    txHash: computeTxHash(data),
    contractClassLogFields: classFields === undefined ? [] : [{ fields: classFields }],
  };
  const wire = toWireTx(tx);
  return { tx, wire, hash: wire.txHash };
}

/** Builds the chain in process and returns the chain file. */
export async function buildChain(): Promise<ChainFile> {
  const parsed = parseCommand(['--data-directory', '', '--log-level', 'silent'], {});
  if (parsed.kind !== 'run') throw new Error('unreachable');
  const config = { ...parsed.config, sequencer: true, genesisTime: BigInt(GENESIS_TIME) };
  const clock = new ManualClock(GENESIS_TIME * 1000);
  const node = await createNode({ config, logger: silentLogger, nodeVersion: 'chain-build', clock });
  try {
    return await script(node, clock, config);
  } finally {
    await node.stop();
  }
}

async function script(
  node: L2Node,
  clock: ManualClock,
  config: {
    l1ChainId: number;
    rollupVersion: number;
    slotDurationSeconds: number;
    slotsPerEpoch: number;
    proofDelaySeconds: number;
    finalityDepth: number;
    initialEthPerFeeAsset: bigint;
  },
): Promise<ChainFile> {
  const { engine } = node;
  const [a, b, c] = SCRIPT.payers;
  const at = (slot: number, second = 0) => clock.set((GENESIS_TIME + slot * SLOT + second) * 1000);
  const anchorAt = async (n: number) =>
    anchorHeaderFromWire(toWireBlockHeader((await engine.chain.findBlock(n))!.header) as never);
  const send = async (anchor: BlockHeader, spec: TxSpec) => {
    const t = scriptedTx(anchor, spec, BigInt(config.l1ChainId), BigInt(config.rollupVersion));
    await node.publicHandlers.sendTx!(t.wire as never);
    return t;
  };
  const step = () => node.step();
  const expectBlock = async (n: number) => {
    const got = await engine.chain.getBlockNumber();
    if (got !== n) throw new Error(`chain script: expected block ${n}, chain is at ${got}`);
  };
  const g = await anchorAt(0);

  // Epoch 0. Slot 1: checkpoint 1 with two blocks (two txs, then a tx with a contract class log).
  at(1, 1);
  await send(g, { seed: 1, payer: a, priority: 3n, logs: [SCRIPT.tags.a, SCRIPT.tags.b], l2ToL1: 2 });
  await send(g, { seed: 2, payer: b, priority: 2n, logs: [SCRIPT.tags.a], noteHashes: 3, nullifiers: 1 });
  await step();
  await expectBlock(1);
  at(1, 5);
  await send(await anchorAt(1), { seed: 3, payer: c, priority: 1n, classLog: true });
  await step();
  await expectBlock(2);
  // Slot 2: an L1→L2 message, consumed by block 3 (first block of checkpoint 2).
  at(2, 1);
  await engine.l1.sendL1ToL2Message(SCRIPT.l1ToL2Message);
  await send(await anchorAt(2), { seed: 4, payer: a, priority: 1n, l2ToL1: 1 });
  await step();
  await expectBlock(3);
  // Slot 3: checkpoint 3.
  at(3, 1);
  await send(g, { seed: 5, payer: b, priority: 1n, logs: [SCRIPT.tags.a, SCRIPT.tags.c] });
  await step();
  await expectBlock(4);
  // Epoch 1: checkpoints 4 and 5.
  at(33, 1);
  await send(await anchorAt(4), { seed: 6, payer: c, priority: 1n, noteHashes: 1 });
  await step();
  at(34, 1);
  await send(await anchorAt(5), { seed: 7, payer: a, priority: 1n, l2ToL1: 1, logs: [SCRIPT.tags.b] });
  await step();
  await expectBlock(6);
  // Epoch 2: checkpoint 6 (slot 65), then block 8 in slot 66, proposed but not checkpointed.
  at(65, 1);
  await send(await anchorAt(6), { seed: 8, payer: b, priority: 1n });
  await step();
  at(66, 1);
  await send(await anchorAt(7), { seed: 9, payer: c, priority: 1n, noteHashes: 0 });
  await step();
  await expectBlock(8);
  // Now: slot 66 + 6 s. Epoch 1 is proven, epoch 0 finalized. Three txs stay pending.
  at(66, 6);
  const anchor8 = await anchorAt(8);
  for (const [i, payer] of [a, b, c].entries())
    await send(anchor8, { seed: 20 + i, payer, priority: BigInt(10 * (i + 1)), logs: [SCRIPT.tags.c] });

  const tip = await engine.chain.getBlockNumber();
  const blocks = await engine.chain.blocksFrom(1, tip);
  const checkpoints = await engine.checkpoints.checkpointsFrom(1, 1000);
  const messages: { message: string; blockNumber: number }[] = [];
  for (const blk of blocks) {
    const n = blk.header.globalVariables.blockNumber;
    if (blk.indexWithinCheckpoint !== 0) continue;
    for (const m of await engine.chain.l1ToL2MessagesOfBlock(n)) messages.push({ message: hex32(m), blockNumber: n });
  }
  const pending = await node.pool.getPendingTxs(100);
  if (pending.length !== 3) throw new Error(`chain script: ${pending.length} pending txs, expected 3`);
  const genesis = engine.chain.genesisBlock;
  return {
    format: CHAIN_FILE_FORMAT,
    description:
      'The l2node conformance chain: 8 blocks in 6 checkpoints plus one proposed block, over three epochs; built by src/conformance/chain/build.ts.',
    genesis: {
      l1ChainId: config.l1ChainId,
      rollupVersion: config.rollupVersion,
      genesisTime: String(GENESIS_TIME),
      slotDurationSeconds: config.slotDurationSeconds,
      slotsPerEpoch: config.slotsPerEpoch,
      proofDelaySeconds: config.proofDelaySeconds,
      finalityDepth: config.finalityDepth,
      initialEthPerFeeAsset: config.initialEthPerFeeAsset.toString(),
      fundedAccounts: engine.fundedAccounts.map((f) => ({ address: hex32(f.address), amount: f.amount.toString() })),
      blockHash: hex32(genesis.hash),
      archiveRoot: hex32(genesis.archive.root),
    },
    now: String(Math.floor(clock.nowMs() / 1000)),
    l1ToL2Messages: messages,
    blocks: blocks.map(toWireBlock),
    checkpoints: await Promise.all(
      checkpoints.map(async (cp) => {
        const published = toWirePublishedCheckpoint(cp, []);
        return {
          ...published,
          checkpoint: {
            ...published.checkpoint,
            blocks: Array.from({ length: cp.blockCount }, (_, i) => cp.startBlock + i),
          },
        };
      }),
    ),
    tips: toWireL2Tips(await engine.chain.getL2Tips()),
    pendingTxs: pending,
  };
}

/** The file's bytes: one top-level key per line, one array element per line (diffable, deterministic). */
export function renderChainFile(file: ChainFile): string {
  const lines = Object.entries(file).map(([k, v]) => {
    if (Array.isArray(v) && v.length > 0)
      return `  ${JSON.stringify(k)}: [\n${v.map((e) => `    ${JSON.stringify(e)}`).join(',\n')}\n  ]`;
    return `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`;
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}

async function cli(argv: readonly string[]): Promise<number> {
  const out = argv.includes('--out') ? argv[argv.indexOf('--out') + 1]! : CHAIN_FILE;
  const text = renderChainFile(await buildChain());
  if (argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(out, 'utf8');
    } catch {
      /* missing: differs */
    }
    console.log(
      committed === text ? `${out} is up to date` : `${out} differs from a fresh build: run npm run conformance:chain`,
    );
    return committed === text ? 0 : 1;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, text);
  console.log(`wrote ${out} (${text.length} bytes)`);
  return 0;
}

if (import.meta.main) process.exitCode = await cli(process.argv.slice(2));
