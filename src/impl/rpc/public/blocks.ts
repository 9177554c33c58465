/**
 * Block reads of the public API (tag `blocks`, SPEC §4.1, plus the 4.1 extensions by hash and by
 * archive): numbers, tips, blocks and headers. An unknown block is `null`, never an error.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import { toWireBlock, toWireL2Tips } from '../../encoding/wire/blocks.ts';
import { toWireBlockHeader } from '../../encoding/wire/headers.ts';
import { findBlockByParam } from './block-param.ts';
import type { ChainReader } from './block-param.ts';

/** The handler members this module serves. */
export type BlockHandlers = Pick<
  PublicHandlers,
  | 'getBlockNumber'
  | 'getProvenBlockNumber'
  | 'getL2Tips'
  | 'getBlock'
  | 'getBlocks'
  | 'getBlockHeader'
  | 'getBlockByHash'
  | 'getBlockByArchive'
  | 'getBlockHeaderByArchive'
>;

/** What the block handlers read: `engine.chain`. */
export interface BlockDeps {
  readonly chain: ChainReader;
}

/** Creates the block handlers over the chain. */
export function createBlockHandlers({ chain }: BlockDeps): BlockHandlers {
  return {
    /** Handler for `node_getBlockNumber`: the proposed tip (the chain's promise as is: no extra async layer on the cheapest call). */
    getBlockNumber() {
      return chain.getBlockNumber();
    },

    /** Handler for `node_getProvenBlockNumber`. */
    async getProvenBlockNumber() {
      return chain.getProvenBlockNumber();
    },

    /** Handler for `node_getL2Tips`: the v4 tips object. */
    async getL2Tips() {
      return toWireL2Tips(await chain.getL2Tips());
    },

    /** Handler for `node_getBlock`: number, `latest` or hash; `null` when the node has no such block. */
    async getBlock(blockNumber) {
      const block = await findBlockByParam(chain, blockNumber);
      return block === undefined ? null : toWireBlock(block);
    },

    /** Handler for `node_getBlocks`: only the blocks that exist (the schema bounds `from` and `limit`). */
    async getBlocks(from, limit) {
      return (await chain.blocksFrom(from, limit)).map(toWireBlock);
    },

    /** Handler for `node_getBlockHeader`: omitted means `latest`. */
    async getBlockHeader(blockNumber) {
      const block = await findBlockByParam(chain, blockNumber ?? 'latest');
      return block === undefined ? null : toWireBlockHeader(block.header);
    },

    /** Handler for `node_getBlockByHash`. */
    async getBlockByHash(blockHash) {
      const block = await chain.findBlockBy('hash', BigInt(blockHash));
      return block === undefined ? null : toWireBlock(block);
    },

    /** Handler for `node_getBlockByArchive`: by the archive root after the block. */
    async getBlockByArchive(archive) {
      const block = await chain.findBlockBy('archive', BigInt(archive));
      return block === undefined ? null : toWireBlock(block);
    },

    /** Handler for `node_getBlockHeaderByArchive`. */
    async getBlockHeaderByArchive(archive) {
      const block = await chain.findBlockBy('archive', BigInt(archive));
      return block === undefined ? null : toWireBlockHeader(block.header);
    },
  };
}
