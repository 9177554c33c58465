/**
 * Following over p2p: blocks come from the peers' blocks-by-range protocol (64 per request) and
 * block announcements wake the follower, so it keeps up without waiting for the next poll. Peers
 * serve no tips and no checkpoints: the follower reads until a short answer and imports blocks
 * only (checkpoints and proof tips need an RPC source). An announcement whose bytes do not match
 * its number and hash is rejected (the sender is penalised); a valid one is relayed.
 * @module
 */
import type { L2Block, L2Tips } from '../chain/types.ts';
import { decodeAnnouncement, decodeBlockFromPeer } from '../p2p/block-sync.ts';
import type { BlockAnnouncement } from '../p2p/gossip-messages.ts';
import { MAX_BLOCKS_PER_REQUEST } from '../p2p/block-range-protocol.ts';
import type { GossipVerdict } from '../p2p/types.ts';
import type { BlockSource } from './block-source.ts';

/** The P2PService members used. */
export interface BlockPeers {
  getPeers(): string[];
  requestBlocks(peerId: string, from: number, limit: number): Promise<Uint8Array[]>;
}

/** A BlockSource over peers. */
export class P2pBlockSource implements BlockSource {
  readonly name = 'p2p';
  readonly maxBlocksPerRequest = MAX_BLOCKS_PER_REQUEST;
  readonly #peers: BlockPeers;
  readonly #preferred: string | undefined;
  #next = 0;
  /** Called after a valid announcement (Follower.wake). */
  onNewBlock: (() => void) | undefined;

  constructor(peers: BlockPeers, preferredPeer?: string) {
    this.#peers = peers;
    this.#preferred = preferredPeer;
  }

  async getTips(): Promise<L2Tips | undefined> {
    return undefined;
  }

  /**
   * Asks the peers in turn (the preferred one only, when set) until one has blocks from `from`:
   * a peer that is behind answers short or empty, and another may hold the block that was just
   * announced. Empty when every peer that answered had nothing; throws when none answered.
   * Blocks are decoded, not yet verified.
   */
  async getBlocks(from: number, limit: number): Promise<L2Block[]> {
    const peers = this.#preferred !== undefined ? [this.#preferred] : this.#peers.getPeers();
    if (peers.length === 0) throw new Error('p2p: no peer to sync from');
    const start = this.#next++;
    let answered = false;
    let failure: unknown;
    for (let i = 0; i < peers.length; i++) {
      const peer = peers[(start + i) % peers.length]!;
      let bytes: Uint8Array[];
      try {
        bytes = await this.#peers.requestBlocks(peer, from, Math.min(limit, this.maxBlocksPerRequest));
      } catch (err) {
        failure = err;
        continue;
      }
      answered = true;
      if (bytes.length > 0) return bytes.map(decodeBlockFromPeer);
    }
    if (!answered) throw failure;
    return [];
  }

  /** The P2PService `onBlock` hook: checks the announcement and wakes the follower. */
  onAnnouncement = async (a: BlockAnnouncement): Promise<GossipVerdict> => {
    try {
      decodeAnnouncement(a);
    } catch {
      return 'reject';
    }
    this.onNewBlock?.();
    return 'accept';
  };
}
