/**
 * The composition root: `createNode` picks the role factory a `Config` asks for and builds the
 * node with it. Each factory builds its parts once, in order, over one engine builder (engine.ts):
 *
 * - `--role full` (the default): full-node.ts — sequencer, follower (over RPC or p2p) or standalone;
 * - `--role rpc`: reader/reader-node.ts — read-only beside a writer on the same database;
 * - `--import-chain <file>`: chain-import-file.ts — a full node loaded with a chain file's blocks.
 *
 * main.ts adds the servers and signals; tests build a whole node in-process with `createNode`.
 * @module
 */
import { importChainFile } from './chain-import-file.ts';
import { createFullNode } from './full-node.ts';
import type { L2Node, NodeOptions } from './node-types.ts';
import { createReaderNode } from './reader/reader-node.ts';

/** Opens storage and builds every part of the node `o.config` describes; nothing runs until `start()`. */
export async function createNode(o: NodeOptions): Promise<L2Node> {
  if (o.config.importChain !== undefined) return importChainFile(o);
  if (o.config.role !== undefined && o.config.role !== 'full') return createReaderNode(o);
  return createFullNode(o);
}
