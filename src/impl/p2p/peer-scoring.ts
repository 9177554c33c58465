/**
 * Application-level peer scores: each message a validator rejects costs its sender a penalty;
 * scores decay back towards zero; a peer whose score falls to the ban threshold is disconnected
 * and banned for a while (the connection gater refuses it both ways). The same score is fed to
 * gossipsub as its app-specific score, so a misbehaving peer is also de-prioritised in the mesh
 * before it is dropped.
 * @module
 */
import type { ConnectionGater, PeerId } from '@libp2p/interface';

/** Tuning of the penalty book; all optional. */
export interface PeerScoringOptions {
  /** Score lost per rejected message (default 10). */
  readonly rejectPenalty?: number;
  /** Disconnect and ban at or below this score (default -50, i.e. the fifth invalid message). */
  readonly banThreshold?: number;
  /** How long a ban lasts (default 10 minutes). */
  readonly banDurationMs?: number;
  /** Fraction of the score kept per minute, so old offences fade (default 0.5). */
  readonly decayPerMinute?: number;
  /** Clock, for tests. */
  readonly now?: () => number;
}

interface Entry {
  score: number;
  at: number;
}

/** Scores and bans keyed by peer id string. */
export class PeerScoring {
  readonly #penalty: number;
  readonly #threshold: number;
  readonly #banMs: number;
  readonly #decay: number;
  readonly #now: () => number;
  readonly #scores = new Map<string, Entry>();
  readonly #bans = new Map<string, number>();

  constructor(options: PeerScoringOptions = {}) {
    this.#penalty = options.rejectPenalty ?? 10;
    this.#threshold = options.banThreshold ?? -50;
    this.#banMs = options.banDurationMs ?? 10 * 60_000;
    this.#decay = options.decayPerMinute ?? 0.5;
    this.#now = options.now ?? Date.now;
  }

  /** The peer's current (decayed) score; 0 for unknown peers. */
  score(peer: string): number {
    const e = this.#scores.get(peer);
    if (e === undefined) return 0;
    // Whole-minute steps, so that offences within one minute add up exactly (5 x -10 = -50).
    const minutes = Math.floor((this.#now() - e.at) / 60_000);
    e.score *= this.#decay ** minutes;
    e.at += minutes * 60_000;
    if (e.score > -0.01) {
      this.#scores.delete(peer);
      return 0;
    }
    return e.score;
  }

  /** Records a rejected message; returns true when the peer must now be disconnected and banned. */
  penalize(peer: string): boolean {
    const score = this.score(peer) - this.#penalty;
    const e = this.#scores.get(peer);
    if (e === undefined) this.#scores.set(peer, { score, at: this.#now() });
    else e.score = score;
    if (score > this.#threshold) return false;
    this.#bans.set(peer, this.#now() + this.#banMs);
    this.#scores.delete(peer); // a fresh start once the ban has run out
    return true;
  }

  /** Whether the peer is banned right now. */
  isBanned(peer: string): boolean {
    const until = this.#bans.get(peer);
    if (until === undefined) return false;
    if (until > this.#now()) return true;
    this.#bans.delete(peer);
    return false;
  }

  /** Peers banned right now. */
  bannedPeers(): string[] {
    return [...this.#bans.keys()].filter((p) => this.isBanned(p));
  }

  /** A libp2p connection gater refusing banned peers on dial and after the handshake. */
  connectionGater(): ConnectionGater {
    const denied = (peerId: PeerId) => this.isBanned(peerId.toString());
    return {
      denyDialPeer: denied,
      denyInboundEncryptedConnection: denied,
      denyOutboundEncryptedConnection: denied,
    };
  }
}
