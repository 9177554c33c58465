/**
 * Following over p2p: blocks come from the peers' blocks-by-range protocol (64 per request),
 * tips and checkpoints from their checkpoints-by-range protocol, and block announcements wake
 * the follower, so it keeps up without waiting for the next poll. Each step follows the peer
 * whose tips are furthest ahead: its tips bound the blocks asked for, its checkpoints are
 * imported (verified over our own blocks, as over RPC) and its proven/finalized numbers become
 * ours, capped at our latest checkpoint. Without the checkpoint protocol (not given, or no peer
 * answers it) the follower reads blocks until a short answer and imports blocks only.
 * A peer whose answer is malformed or does not verify loses points like the sender of a bad
 * gossip message; an announcement whose bytes do not match its number and hash is rejected
 * (the sender is penalised), a valid one is relayed.
 * @module
 */
import type { BlockImportError } from '../chain/block-import.ts';
import type { L2Block, L2Tips } from '../chain/types.ts';
import { decodeAnnouncement, decodeBlockFromPeer } from '../p2p/block-sync.ts';
import { decodeCheckpointFromPeer, decodeTipsFromPeer } from '../p2p/checkpoint-sync.ts';
import type { BlockAnnouncement } from '../p2p/gossip-messages.ts';
import { MAX_BLOCKS_PER_REQUEST } from '../p2p/block-range-protocol.ts';
import { MAX_CHECKPOINTS_PER_REQUEST } from '../p2p/checkpoint-range-protocol.ts';
import type { CheckpointRangeAnswer } from '../p2p/checkpoint-range-protocol.ts';
import type { GossipVerdict } from '../p2p/types.ts';
import { WireDecodeError } from '../encoding/wire/blocks-decode.ts';
import type { DecodedCheckpoint } from '../encoding/wire/blocks-decode.ts';
import type { BlockSource } from './block-source.ts';

/** The P2PService members used. */
export interface BlockPeers {
  getPeers(): string[];
  requestBlocks(peerId: string, from: number, limit: number): Promise<Uint8Array[]>;
  /** Tips and checkpoints (checkpoints-by-range); without it the source serves blocks only. */
  requestCheckpoints?(peerId: string, from: number, limit: number): Promise<CheckpointRangeAnswer>;
  /** Penalises a peer that served something malformed or that does not verify. */
  reportInvalid?(peerId: string, reason: string): void;
}

/** A BlockSource over peers. */
export class P2pBlockSource implements BlockSource {
  readonly name = 'p2p';
  readonly maxBlocksPerRequest = MAX_BLOCKS_PER_REQUEST;
  readonly #peers: BlockPeers;
  readonly #preferred: string | undefined;
  #next = 0;
  /** The peer whose tips this step follows (its checkpoints are the ones imported). */
  #tipsPeer: string | undefined;
  /** The peer whose blocks this step imported. */
  #blocksPeer: string | undefined;
  /** Called after a valid announcement (Follower.wake). */
  onNewBlock: (() => void) | undefined;

  constructor(peers: BlockPeers, preferredPeer?: string) {
    this.#peers = peers;
    this.#preferred = preferredPeer;
  }

  /**
   * The tips of the peer furthest ahead (highest proposed block, then highest checkpoint), asked
   * of every peer at once; undefined without the checkpoint protocol or when no peer answered
   * it (the step then runs on blocks alone). A peer sending malformed tips is penalised.
   */
  async getTips(): Promise<L2Tips | undefined> {
    this.#tipsPeer = undefined;
    this.#blocksPeer = undefined;
    const request = this.#peers.requestCheckpoints?.bind(this.#peers);
    if (request === undefined) return undefined;
    const answers = await Promise.all(
      this.#candidates().map(async (peer) => {
        let answer: CheckpointRangeAnswer;
        try {
          answer = await request(peer, 0, 0);
        } catch {
          return undefined; // down, or a node without the protocol
        }
        return { peer, tips: this.#decoded(peer, () => decodeTipsFromPeer(answer.tips), 'tips') };
      }),
    );
    let best: { peer: string; tips: L2Tips } | undefined;
    for (const a of answers) {
      if (a?.tips === undefined) continue;
      const ahead =
        best === undefined ||
        a.tips.proposed.number > best.tips.proposed.number ||
        (a.tips.proposed.number === best.tips.proposed.number &&
          a.tips.checkpointed.checkpoint.number > best.tips.checkpointed.checkpoint.number);
      if (ahead) best = { peer: a.peer, tips: a.tips };
    }
    this.#tipsPeer = best?.peer;
    return best?.tips;
  }

  /**
   * Asks the peers in turn (the peer whose tips we follow first; the preferred one only, when
   * set) until one has blocks from `from`: a peer that is behind answers short or empty, and
   * another may hold the block that was just announced. Empty when every peer that answered
   * had nothing; throws when none answered. Blocks are decoded, not yet verified; a peer whose
   * bytes do not decode is penalised and the WireDecodeError thrown.
   */
  async getBlocks(from: number, limit: number): Promise<L2Block[]> {
    const peers = this.#candidates();
    if (peers.length === 0) throw new Error('p2p: no peer to sync from');
    const start = this.#next++;
    const ordered = peers.map((_, i) => peers[(start + i) % peers.length]!);
    if (this.#tipsPeer !== undefined && ordered.includes(this.#tipsPeer))
      ordered.unshift(...ordered.splice(ordered.indexOf(this.#tipsPeer), 1));
    let answered = false;
    let failure: unknown;
    for (const peer of ordered) {
      let bytes: Uint8Array[];
      try {
        bytes = await this.#peers.requestBlocks(peer, from, Math.min(limit, this.maxBlocksPerRequest));
      } catch (err) {
        failure = err;
        continue;
      }
      answered = true;
      if (bytes.length === 0) continue;
      this.#blocksPeer = peer;
      return this.#decoded(peer, () => bytes.map(decodeBlockFromPeer), 'block', true)!;
    }
    if (!answered) throw failure;
    return [];
  }

  /** Checkpoints from `from` with their blocks, from the peer whose tips this step follows (none without one). */
  async getCheckpoints(from: number, limit: number): Promise<DecodedCheckpoint[]> {
    const peer = this.#tipsPeer;
    const request = this.#peers.requestCheckpoints?.bind(this.#peers);
    if (peer === undefined || request === undefined) return [];
    const answer = await request(peer, from, Math.min(limit, MAX_CHECKPOINTS_PER_REQUEST));
    return this.#decoded(peer, () => answer.checkpoints.map(decodeCheckpointFromPeer), 'checkpoint', true)!;
  }

  /** The follower's verdict on what this step imported: the peer that served the refused block or checkpoint loses points. */
  refused(error: BlockImportError): void {
    const peer = error.kind === 'checkpoint' ? this.#tipsPeer : (this.#blocksPeer ?? this.#tipsPeer);
    if (peer !== undefined) this.#peers.reportInvalid?.(peer, error.message);
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

  #candidates(): string[] {
    return this.#preferred !== undefined ? [this.#preferred] : this.#peers.getPeers();
  }

  /**
   * Runs a decoder over a peer's bytes; a WireDecodeError penalises the peer, then is thrown
   * (`rethrow`: the follower stops on it) or turned into undefined (the answer is passed over).
   */
  #decoded<T>(peer: string, decode: () => T, what: string, rethrow = false): T | undefined {
    try {
      return decode();
    } catch (err) {
      if (!(err instanceof WireDecodeError)) throw err;
      this.#peers.reportInvalid?.(peer, `malformed ${what}: ${err.message}`);
      if (rethrow) throw err;
      return undefined;
    }
  }
}
