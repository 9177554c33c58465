/**
 * Options and injected hooks of the p2p service: what the node passes in (config, validator,
 * block hooks) and the outcome type the hooks return.
 * @module
 */
import type { EngineLogger } from '../engine-logger.ts';
import type { BlockAnnouncement } from './gossip-messages.ts';
import type { CheckpointAttestation, CheckpointProposal } from './consensus-messages.ts';
import type { BlockRangeHandler } from './block-range-protocol.ts';
import type { CheckpointRangeHandler } from './checkpoint-range-protocol.ts';
import type { PeerScoringOptions } from './peer-scoring.ts';

/** Default of `redialIntervalMs`. */
export const DEFAULT_REDIAL_INTERVAL_MS = 5000;

/** A hook's verdict on a gossip message: relay it, drop it and penalise the sender, or just drop it. */
export type GossipVerdict = 'accept' | 'reject' | 'ignore';

/**
 * Validates an incoming tx, given as the parsed wire JSON (`decodeTx` input), and the sender's
 * peer id. The node implements it as decode + full validation + pool add: 'accept' only for a tx
 * newly added to the pool, 'ignore' for one already known, 'reject' for one that fails.
 */
export type TxGossipValidator = (wireTx: unknown, from: string) => Promise<GossipVerdict>;

/** Checks and takes in an announced block; 'accept' relays the announcement further. */
export type BlockGossipHandler = (block: BlockAnnouncement, from: string) => Promise<GossipVerdict>;

/** Judges a gossiped checkpoint proposal or attestation (signature, committee, slot, our chain). */
export type ConsensusGossipHandler<T> = (message: T, from: string) => Promise<GossipVerdict>;

/** Everything `P2PService` needs. */
export interface P2PServiceOptions {
  /** `--data-directory`; the peer key lives in `<dataDirectory>/p2p/peer-key`; '' = ephemeral key. */
  readonly dataDirectory: string;
  /** Listen host (`p2pHost`, default 127.0.0.1). */
  readonly host?: string;
  /** Listen TCP port (`p2pPort`, default 40400; 0 picks a free port). */
  readonly port?: number;
  /** IP put in the ENR when the listen host is a wildcard (default 127.0.0.1). */
  readonly announceHost?: string;
  /** Multiaddrs with /p2p/<id> or ENRs, dialled at start and re-dialled while disconnected. */
  readonly bootstrapPeers?: readonly string[];
  /** Network name inside topic and protocol ids, e.g. `${l1ChainId}-${rollupVersion}` (default 'dev'). */
  readonly network?: string;
  readonly txValidator: TxGossipValidator;
  /** Block announcement hook; without it, block announcements are ignored and not relayed. */
  readonly onBlock?: BlockGossipHandler;
  /** Checkpoint proposal hook; without it proposals are dropped unjudged (not relayed). */
  readonly onProposal?: ConsensusGossipHandler<CheckpointProposal>;
  /** Checkpoint attestation hook; without it attestations are dropped unjudged (not relayed). */
  readonly onAttestation?: ConsensusGossipHandler<CheckpointAttestation>;
  /** Serves block range requests; without it, such requests are answered "server error". */
  readonly blockRangeHandler?: BlockRangeHandler;
  /** Serves tips and checkpoints-by-range requests; without it, such requests are answered "server error". */
  readonly checkpointRangeHandler?: CheckpointRangeHandler;
  readonly scoring?: PeerScoringOptions;
  /** How often to re-dial bootstrap peers that are not connected (default DEFAULT_REDIAL_INTERVAL_MS, 5000 ms). */
  readonly redialIntervalMs?: number;
  readonly logger?: Pick<EngineLogger, 'debug' | 'info' | 'warn'>;
  readonly observer?: P2PObserver;
}

/** The gossip topics, as the metrics name them. */
export type GossipTopicKind = 'tx' | 'block' | 'proposal' | 'attestation';

/** Told of gossip in and out and of peer score drops (the node's metrics). */
export interface P2PObserver {
  gossipIn(topic: GossipTopicKind, verdict: GossipVerdict): void;
  gossipOut(topic: GossipTopicKind): void;
  /** A peer lost points for an invalid message or served data; `banned` when that crossed the threshold. */
  peerPenalized(banned: boolean): void;
}
