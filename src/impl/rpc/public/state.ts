/**
 * Public state reads (tag `state`, SPEC §4.3): public storage at a block and the world state's
 * sync status, both from the real world state.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import { toFieldHex } from '../../crypto/field.ts';
import { syncStatusToWire } from '../../encoding/wire/witnesses.ts';
import { resolveStateBlock } from './block-param.ts';
import type { ChainReader, WorldStateReader } from './block-param.ts';

/** The handler members this module serves. */
export type StateHandlers = Pick<PublicHandlers, 'getPublicStorageAt' | 'getWorldStateSyncStatus'>;

/** What the state handlers read: the world state and `engine.chain` (block hashes, finality). */
export interface StateDeps {
  readonly worldState: WorldStateReader;
  readonly chain: Pick<ChainReader, 'findBlockBy' | 'getL2Tips'>;
}

/** Creates the state handlers. */
export function createStateHandlers({ worldState, chain }: StateDeps): StateHandlers {
  return {
    /** Handler for `node_getPublicStorageAt`: 0 for a slot never written; -32010 above the world-state tip. */
    async getPublicStorageAt(blockNumber, contract, slot) {
      const block = await resolveStateBlock(worldState, chain, blockNumber);
      return toFieldHex(await worldState.getPublicStorageAt(block, BigInt(contract), BigInt(slot)));
    },

    /** Handler for `node_getWorldStateSyncStatus`: finality comes from the chain's L1 view, capped at the world-state tip. */
    async getWorldStateSyncStatus() {
      const [status, tips] = await Promise.all([worldState.getSyncStatus(), chain.getL2Tips()]);
      return syncStatusToWire({
        ...status,
        finalizedBlockNumber: Math.min(tips.finalized.block.number, status.latestBlockNumber),
      });
    },
  };
}
