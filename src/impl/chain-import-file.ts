/**
 * `l2node --import-chain <file>`: starts the node on a chain file (the conformance suite's
 * deterministic chain, test/conformance/chain/chain.json; format in docs/CONFORMANCE.md). The
 * file's genesis parameters replace the chain flags, the clock is frozen at the file's `now`,
 * the sequencer is off, and on an empty data directory every block and checkpoint goes through
 * the verified import path (`importBlock` / `importCheckpoint`: world state recomputed from the
 * tx effects, hashes, archive and checkpoint headers checked), the L1→L2 messages go into the
 * in-process L1's inbox, the pending txs are sent again through `node_sendTx`'s own path, and the
 * resulting tips must equal the file's. A data directory that already holds the same chain is
 * served as it is; any other chain is refused.
 *
 * createNode (node.ts) picks this role when `config.importChain` is set.
 * @module
 */
import { readFileSync } from 'node:fs';
import type { Config } from '../config/options.ts';
import { ManualClock } from './chain/time.ts';
import { fromWireBlock, fromWirePublishedCheckpoint } from './encoding/wire/blocks-decode.ts';
import { toWireL2Tips } from './encoding/wire/blocks.ts';
import { Progress } from './progress.ts';
import { hex32 } from './encoding/hex.ts';
import { createFullNode, type FullNode } from './full-node.ts';
import type { NodeOptions } from './node-types.ts';

/** The format tag of version 1 of the chain file. */
export const CHAIN_FILE_FORMAT = 'l2node-chain/1';

/** The chain file (all numbers above 2^53 and all fields are strings, as on the wire). */
export interface ChainFile {
  readonly format: typeof CHAIN_FILE_FORMAT;
  readonly description: string;
  readonly genesis: {
    readonly l1ChainId: number;
    readonly rollupVersion: number;
    /** Unix seconds of slot 0. */
    readonly genesisTime: string;
    readonly slotDurationSeconds: number;
    readonly slotsPerEpoch: number;
    /** Seconds after an epoch ends until the dev prover proves it. */
    readonly proofDelaySeconds: number;
    /** L1 blocks (one per slot) on top of a proof before it is final. */
    readonly finalityDepth: number;
    readonly initialEthPerFeeAsset: string;
    /** FeeJuice balances written into the genesis public data tree. */
    readonly fundedAccounts: readonly { readonly address: string; readonly amount: string }[];
    /** Hash and archive root of block 0 (follow from the above; a check). */
    readonly blockHash: string;
    readonly archiveRoot: string;
  };
  /** Unix seconds the node's clock reads while it serves the chain (frozen). */
  readonly now: string;
  /** Every L1→L2 message sent to the inbox, in inbox order, with the block that inserted it. */
  readonly l1ToL2Messages: readonly { readonly message: string; readonly blockNumber: number }[];
  /** Every block from 1, as node_getBlock answers. */
  readonly blocks: readonly unknown[];
  /** Every checkpoint, as node_getCheckpoints answers, except that `checkpoint.blocks` holds block numbers. */
  readonly checkpoints: readonly ChainFileCheckpoint[];
  /** node_getL2Tips of the chain as served at `now`. */
  readonly tips: unknown;
  /** The txs left pending in the mempool, as sent to node_sendTx, in the order they were sent. */
  readonly pendingTxs: readonly unknown[];
}

/** A PublishedCheckpoint whose `checkpoint.blocks` holds block numbers. */
export interface ChainFileCheckpoint {
  readonly checkpoint: { readonly blocks: readonly number[]; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

/** Reads and shape-checks a chain file. */
export function readChainFile(path: string): ChainFile {
  const file = JSON.parse(readFileSync(path, 'utf8')) as ChainFile;
  if (file.format !== CHAIN_FILE_FORMAT)
    throw new Error(`${path}: not a chain file (format ${JSON.stringify(file.format)}, expected ${CHAIN_FILE_FORMAT})`);
  return file;
}

/** The configuration the file's chain runs with: its genesis parameters, no sequencer. */
export function chainFileConfig(config: Config, file: ChainFile): Config {
  const g = file.genesis;
  return {
    ...config,
    importChain: undefined,
    sequencer: false,
    l1ChainId: g.l1ChainId,
    rollupVersion: g.rollupVersion,
    genesisTime: BigInt(g.genesisTime),
    slotDurationSeconds: g.slotDurationSeconds,
    slotsPerEpoch: g.slotsPerEpoch,
    proofDelaySeconds: g.proofDelaySeconds,
    finalityDepth: g.finalityDepth,
    initialEthPerFeeAsset: BigInt(g.initialEthPerFeeAsset),
  };
}

/** Builds a full node on the chain file named by `o.config.importChain`. */
export async function importChainFile(o: NodeOptions): Promise<FullNode> {
  const path = o.config.importChain!;
  const file = readChainFile(path);
  const node = await createFullNode({
    ...o,
    config: chainFileConfig(o.config, file),
    clock: new ManualClock(Number(file.now) * 1000),
  });
  try {
    await loadInto(node, file, o.logger, (o.config.progressIntervalSeconds ?? 10) * 1000);
    return node;
  } catch (err) {
    await node.stop();
    throw new Error(`--import-chain ${path}: ${(err as Error).message}`, { cause: err });
  }
}

async function loadInto(
  node: FullNode,
  file: ChainFile,
  logger: NodeOptions['logger'],
  progressIntervalMs: number,
): Promise<void> {
  const { engine } = node;
  const genesis = engine.chain.genesisBlock;
  if (genesis.hash !== BigInt(file.genesis.blockHash) || genesis.archive.root !== BigInt(file.genesis.archiveRoot)) {
    throw new Error(
      `genesis block ${hex32(genesis.hash)} differs from the file's ${file.genesis.blockHash} (funded accounts or genesis state differ)`,
    );
  }
  const funded = engine.fundedAccounts.map((a) => ({ address: hex32(a.address), amount: a.amount.toString() }));
  if (
    JSON.stringify(funded) !==
    JSON.stringify(
      file.genesis.fundedAccounts.map((a) => ({
        address: hex32(BigInt(a.address)),
        amount: BigInt(a.amount).toString(),
      })),
    )
  ) {
    throw new Error("the funded accounts differ from the file's");
  }
  const blocks = file.blocks.map(fromWireBlock);
  const last = blocks[blocks.length - 1];
  const ours = await engine.chain.getBlockNumber();
  if (ours !== 0) {
    const held = await engine.chain.findBlock(ours);
    if (last === undefined || ours !== last.header.globalVariables.blockNumber || held?.hash !== last.hash) {
      throw new Error(`the data directory holds another chain (block ${ours}); start on an empty data directory`);
    }
    logger.info('chain file already imported', { blocks: ours });
  } else {
    for (const m of file.l1ToL2Messages) await engine.l1.sendL1ToL2Message(BigInt(m.message));
    const byLastBlock = new Map(file.checkpoints.map((c) => [c.checkpoint.blocks[c.checkpoint.blocks.length - 1]!, c]));
    // A large file takes a while: a line every interval (done/target, blocks per second, ETA).
    const progress = new Progress({
      message: 'chain file: importing blocks',
      unit: 'blocks',
      target: blocks.length,
      intervalMs: progressIntervalMs,
      logger,
    });
    for (const block of blocks) {
      const n = block.header.globalVariables.blockNumber;
      const messages = file.l1ToL2Messages.filter((m) => m.blockNumber === n).map((m) => BigInt(m.message));
      await engine.importBlock(block, messages);
      const cp = byLastBlock.get(n);
      if (cp !== undefined) {
        const wire = {
          ...cp,
          checkpoint: { ...cp.checkpoint, blocks: cp.checkpoint.blocks.map((b) => file.blocks[b - 1]) },
        };
        const decoded = fromWirePublishedCheckpoint(wire);
        await engine.importCheckpoint(decoded.checkpoint, decoded.blocks);
      }
      progress.update(n);
    }
    for (const tx of file.pendingTxs) await node.publicHandlers.sendTx!(tx as never);
    logger.info('chain file imported', {
      blocks: blocks.length,
      checkpoints: file.checkpoints.length,
      pendingTxs: file.pendingTxs.length,
    });
  }
  const tips = await engine.chain.getL2Tips();
  engine.worldState.finalizedBlockNumber = tips.finalized.block.number;
  if (JSON.stringify(toWireL2Tips(tips)) !== JSON.stringify(file.tips)) {
    throw new Error(
      `tips after import ${JSON.stringify(toWireL2Tips(tips))} differ from the file's ${JSON.stringify(file.tips)}`,
    );
  }
}
