/**
 * Cross-chain message reads of the public API (tag `messages`, SPEC §4.5): L1→L2 message
 * witnesses (world state) and placement (chain), and a block's L2→L1 messages.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import { toFieldHex } from '../../crypto/field.ts';
import { l1ToL2WitnessToWire } from '../../encoding/wire/witnesses.ts';
import { findBlockByParam, resolveStateBlock } from './block-param.ts';
import type { ChainReader, WorldStateReader } from './block-param.ts';

/** The handler members this module serves. */
export type MessageHandlers = Pick<
  PublicHandlers,
  | 'getL1ToL2MessageMembershipWitness'
  | 'getL1ToL2MessageBlock'
  | 'isL1ToL2MessageSynced'
  | 'getL2ToL1Messages'
  | 'getL1ToL2MessageCheckpoint'
>;

/** What the message handlers read: the world state and `engine.chain`. */
export interface MessageDeps {
  readonly worldState: WorldStateReader;
  readonly chain: Pick<ChainReader, 'findBlock' | 'findBlockBy' | 'getL1ToL2MessageBlock'>;
}

/** Creates the message handlers. */
export function createMessageHandlers({ worldState, chain }: MessageDeps): MessageHandlers {
  const messageBlock = async (message: string) => (await chain.getL1ToL2MessageBlock(BigInt(message))) ?? null;
  return {
    /** Handler for `node_getL1ToL2MessageMembershipWitness`: `[index, sibling path as 0x-hex list]`, `null` when not in the tree at that block. */
    async getL1ToL2MessageMembershipWitness(blockNumber, l1ToL2Message) {
      const block = await resolveStateBlock(worldState, chain, blockNumber);
      const w = await worldState.getL1ToL2MessageMembershipWitness(block, BigInt(l1ToL2Message));
      return w === null ? null : l1ToL2WitnessToWire(w);
    },

    /** Handler for `node_getL1ToL2MessageBlock`: the block that inserted the message. */
    async getL1ToL2MessageBlock(l1ToL2Message) {
      return messageBlock(l1ToL2Message);
    },

    /** Handler for `node_isL1ToL2MessageSynced` (deprecated): true once a block holds the message. */
    async isL1ToL2MessageSynced(l1ToL2Message) {
      return (await messageBlock(l1ToL2Message)) !== null;
    },

    /** Handler for `node_getL2ToL1Messages`: one array per tx of the block; `null` for an unknown block. */
    async getL2ToL1Messages(blockNumber) {
      const block = await findBlockByParam(chain, blockNumber);
      return block === undefined ? null : block.body.txEffects.map((e) => e.l2ToL1Msgs.map(toFieldHex));
    },

    /** Handler for `node_getL1ToL2MessageCheckpoint`: the checkpoint of the block that inserted the message. */
    async getL1ToL2MessageCheckpoint(l1ToL2Message) {
      const n = await messageBlock(l1ToL2Message);
      return n === null ? null : ((await chain.findBlock(n))?.checkpointNumber ?? null);
    },
  };
}
