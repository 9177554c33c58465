/**
 * The node's peer-to-peer service on libp2p (TCP, noise, yamux, identify, gossipsub): tx gossip
 * through an injected validator, block announcements, checkpoint proposals and attestations
 * (validated by injected hooks), the blocks- and checkpoints-by-range protocols, peer scoring with
 * disconnect-and-ban, bootstrap dialling and this node's ENR.
 * @module
 */
import { isIPv6 } from 'node:net';
import { createLibp2p } from 'libp2p';
import type { Libp2p } from 'libp2p';
import { tcp } from '@libp2p/tcp';
import { noise } from '@libp2p/noise';
import { yamux } from '@libp2p/yamux';
import { identify } from '@libp2p/identify';
import { gossipsub, TopicValidatorResult } from '@libp2p/gossipsub';
import type { GossipSub } from '@libp2p/gossipsub';
import { peerIdFromString } from '@libp2p/peer-id';
import type { Multiaddr } from '@multiformats/multiaddr';
import type { Stream } from '@libp2p/interface';
import type { Tx } from '../tx/types.ts';
import { loadOrCreatePeerKey } from './peer-key.ts';
import type { PeerKey } from './peer-key.ts';
import { encodeEnr } from './enr.ts';
import { PeerScoring } from './peer-scoring.ts';
import { parseBootstrapPeer } from './bootstrap-peers.ts';
import { requestBlockRange, serveBlockRange } from './block-range-protocol.ts';
import { requestCheckpointRange, serveCheckpointRange } from './checkpoint-range-protocol.ts';
import type { CheckpointRangeAnswer } from './checkpoint-range-protocol.ts';
import { gossipsubScoring } from './gossip-scoring.ts';
import {
  blockTopic,
  blocksByRangeProtocol,
  checkpointsByRangeProtocol,
  contentMessageId,
  decodeBlockAnnouncement,
  encodeBlockAnnouncement,
  encodeTxMessage,
  parseTxMessage,
  txTopic,
} from './gossip-messages.ts';
import type { BlockAnnouncement } from './gossip-messages.ts';
import {
  attestationTopic,
  decodeAttestation,
  decodeProposal,
  encodeAttestation,
  encodeProposal,
  proposalTopic,
} from './consensus-messages.ts';
import type { CheckpointAttestation, CheckpointProposal } from './consensus-messages.ts';
import {
  DEFAULT_REDIAL_INTERVAL_MS,
  type GossipTopicKind,
  type GossipVerdict,
  type P2PServiceOptions,
} from './types.ts';

/** Default `p2pPort`. */
export const DEFAULT_P2P_PORT = 40400;
/** Default `p2pHost`. */
export const DEFAULT_P2P_HOST = '127.0.0.1';
const REQUEST_TIMEOUT_MS = 10_000;

type Node = Libp2p<{ pubsub: GossipSub; identify: unknown }>;
type State = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped';

const VERDICT: Record<GossipVerdict, TopicValidatorResult> = {
  accept: TopicValidatorResult.Accept,
  reject: TopicValidatorResult.Reject,
  ignore: TopicValidatorResult.Ignore,
};

/** The p2p layer a node starts once and stops once. */
export class P2PService {
  readonly #opts: P2PServiceOptions;
  readonly #scoring: PeerScoring;
  readonly #txTopic: string;
  readonly #blockTopic: string;
  readonly #proposalTopic: string;
  readonly #attestationTopic: string;
  #state: State = 'idle';
  #node: Node | undefined;
  #key: PeerKey | undefined;
  #enr: string | null = null;
  #bootstrap: Multiaddr[] = [];
  #redial: NodeJS.Timeout | undefined;

  constructor(options: P2PServiceOptions) {
    this.#opts = options;
    this.#scoring = new PeerScoring(options.scoring);
    const network = options.network ?? 'dev';
    this.#txTopic = txTopic(network);
    this.#blockTopic = blockTopic(network);
    this.#proposalTopic = proposalTopic(network);
    this.#attestationTopic = attestationTopic(network);
    // Parse now so that a bad bootstrap entry fails at startup, naming the entry.
    this.#bootstrap = (options.bootstrapPeers ?? []).map(parseBootstrapPeer);
  }

  /** Loads or creates the peer key, listens, subscribes to the topics and dials bootstrap peers. */
  async start(): Promise<void> {
    if (this.#state !== 'idle') throw new Error(`p2p: cannot start from state ${this.#state}`);
    this.#state = 'starting';
    try {
      await this.#start();
    } catch (err) {
      // e.g. the port is taken: release whatever was opened, and stay unusable rather than half up.
      await Promise.resolve(this.#node?.stop()).catch(() => {});
      this.#state = 'stopped';
      throw err;
    }
    this.#opts.logger?.info('p2p started', { peerId: this.getPeerId(), addresses: this.getListenAddresses() });
    this.#dialBootstrap();
    this.#redial = setInterval(() => this.#dialBootstrap(), this.#opts.redialIntervalMs ?? DEFAULT_REDIAL_INTERVAL_MS);
    this.#redial.unref();
  }

  async #start(): Promise<void> {
    const host = this.#opts.host ?? DEFAULT_P2P_HOST;
    const port = this.#opts.port ?? DEFAULT_P2P_PORT;
    this.#key = await loadOrCreatePeerKey(this.#opts.dataDirectory);
    const topics = [this.#txTopic, this.#blockTopic, this.#proposalTopic, this.#attestationTopic];
    const node: Node = await createLibp2p({
      privateKey: this.#key.privateKey,
      addresses: { listen: [`/${isIPv6(host) ? 'ip6' : 'ip4'}/${host}/tcp/${port}`] },
      transports: [tcp()],
      connectionEncrypters: [noise()],
      streamMuxers: [yamux()],
      connectionGater: this.#scoring.connectionGater(),
      services: {
        identify: identify(),
        pubsub: gossipsub({
          // No author or signature: the msg id is a content hash, so a tx is one message wherever it enters.
          globalSignaturePolicy: 'StrictNoSign',
          msgIdFn: (msg) => contentMessageId(msg.topic, msg.data),
          allowPublishToZeroTopicPeers: true,
          emitSelf: false,
          ...gossipsubScoring(topics, (peer) => this.#scoring.score(peer)),
        }),
      },
    });
    this.#node = node;
    const pubsub = node.services.pubsub;
    pubsub.topicValidators.set(this.#txTopic, (peer, msg) =>
      this.#observed('tx', this.#validateTx(peer.toString(), msg.data)),
    );
    pubsub.topicValidators.set(this.#blockTopic, (peer, msg) =>
      this.#observed('block', this.#validateBlock(peer.toString(), msg.data)),
    );
    pubsub.topicValidators.set(this.#proposalTopic, (peer, msg) =>
      this.#observed(
        'proposal',
        this.#validateConsensus(peer.toString(), decodeProposal(msg.data), this.#opts.onProposal),
      ),
    );
    pubsub.topicValidators.set(this.#attestationTopic, (peer, msg) =>
      this.#observed(
        'attestation',
        this.#validateConsensus(peer.toString(), decodeAttestation(msg.data), this.#opts.onAttestation),
      ),
    );
    const network = this.#opts.network ?? 'dev';
    await serveProtocol(node, blocksByRangeProtocol(network), (stream) =>
      serveBlockRange(stream, this.#opts.blockRangeHandler ?? (() => Promise.reject(new Error('no block source')))),
    );
    await serveProtocol(node, checkpointsByRangeProtocol(network), (stream) =>
      serveCheckpointRange(
        stream,
        this.#opts.checkpointRangeHandler ?? (() => Promise.reject(new Error('no checkpoint source'))),
      ),
    );
    await node.start();
    for (const topic of topics) pubsub.subscribe(topic);
    this.#enr = this.#buildEnr(node);
    this.#state = 'running';
  }

  /** Stops listening and closes every connection; idempotent. */
  async stop(): Promise<void> {
    if (this.#state === 'stopped' || this.#state === 'idle') {
      this.#state = 'stopped';
      return;
    }
    this.#state = 'stopping';
    clearInterval(this.#redial);
    await this.#node?.stop();
    this.#state = 'stopped';
  }

  /** True once started and until stopped (`node_isReady` consults it). */
  isReady(): boolean {
    return this.#state === 'running';
  }

  /** This node's signed ENR text, or null when not running. */
  getEncodedEnr(): string | null {
    return this.#state === 'running' ? this.#enr : null;
  }

  /** This node's libp2p peer id (needs start()). */
  getPeerId(): string {
    return this.#running().peerId.toString();
  }

  /** Addresses with /p2p/<id> that other nodes can put in their bootstrap list. */
  getListenAddresses(): string[] {
    return this.#running()
      .getMultiaddrs()
      .map((ma) => ma.toString());
  }

  /** Peer ids of connected peers. */
  getPeers(): string[] {
    return this.#running()
      .getPeers()
      .map((p) => p.toString());
  }

  /** Connected peers subscribed to the tx topic (gossip reaches them). */
  getTxTopicPeers(): string[] {
    return this.#running()
      .services.pubsub.getSubscribers(this.#txTopic)
      .map((p) => p.toString());
  }

  /** Peer ids currently banned for sending invalid messages. */
  getBannedPeers(): string[] {
    return this.#scoring.bannedPeers();
  }

  /** Gossips a tx (the node calls this after adding an RPC tx to its pool); resolves to the peers reached. */
  async publishTx(tx: Tx): Promise<number> {
    return this.publishEncodedTx(encodeTxMessage(tx));
  }

  /** Gossips tx-topic bytes as they are (e.g. the wire JSON received over RPC, not re-encoded). */
  async publishEncodedTx(data: Uint8Array): Promise<number> {
    this.#opts.observer?.gossipOut('tx');
    return (await this.#running().services.pubsub.publish(this.#txTopic, data)).recipients.length;
  }

  /** Announces a new block to peers; resolves to the peers reached. */
  async publishBlock(block: BlockAnnouncement): Promise<number> {
    const data = encodeBlockAnnouncement(block);
    this.#opts.observer?.gossipOut('block');
    return (await this.#running().services.pubsub.publish(this.#blockTopic, data)).recipients.length;
  }

  /** Gossips this node's checkpoint proposal; resolves to the peers reached. */
  async publishProposal(proposal: CheckpointProposal): Promise<number> {
    this.#opts.observer?.gossipOut('proposal');
    return (await this.#running().services.pubsub.publish(this.#proposalTopic, encodeProposal(proposal))).recipients
      .length;
  }

  /** Gossips an attestation by one of this node's validators; resolves to the peers reached. */
  async publishAttestation(attestation: CheckpointAttestation): Promise<number> {
    this.#opts.observer?.gossipOut('attestation');
    return (await this.#running().services.pubsub.publish(this.#attestationTopic, encodeAttestation(attestation)))
      .recipients.length;
  }

  /** Asks one peer for up to `limit` blocks from number `from` (chain codec bytes, in order). */
  async requestBlocks(peerId: string, from: number, limit: number): Promise<Uint8Array[]> {
    return this.#request(peerId, blocksByRangeProtocol(this.#opts.network ?? 'dev'), 'block range', (stream) =>
      requestBlockRange(stream, from, limit),
    );
  }

  /** Asks one peer for its tips and up to `limit` checkpoints from number `from` (0 = the tips alone; bytes unverified). */
  async requestCheckpoints(peerId: string, from: number, limit: number): Promise<CheckpointRangeAnswer> {
    return this.#request(
      peerId,
      checkpointsByRangeProtocol(this.#opts.network ?? 'dev'),
      'checkpoint range',
      (stream) => requestCheckpointRange(stream, from, limit),
    );
  }

  /**
   * Counts something a peer served that did not verify (a block or checkpoint fetched by range)
   * like a rejected gossip message: the peer loses points and is banned at the threshold.
   */
  reportInvalid(peerId: string, reason: string): void {
    this.#opts.logger?.info('p2p: peer served data that does not verify', { peerId, reason });
    this.#apply(peerId, 'reject');
  }

  /** Opens a stream for `protocol` to one peer and runs `exchange` on it, bounded by the request timeout. */
  async #request<T>(
    peerId: string,
    protocol: string,
    what: string,
    exchange: (stream: Stream) => Promise<T>,
  ): Promise<T> {
    const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const stream = await this.#running().dialProtocol(peerIdFromString(peerId), protocol, { signal });
    const onAbort = () => stream.abort(new Error(`p2p: ${what} request timed out`));
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await exchange(stream);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  async #validateTx(from: string, data: Uint8Array): Promise<TopicValidatorResult> {
    const wire = parseTxMessage(data);
    const verdict = wire === undefined ? 'reject' : await this.#askHook(() => this.#opts.txValidator(wire, from));
    return this.#apply(from, verdict);
  }

  async #validateBlock(from: string, data: Uint8Array): Promise<TopicValidatorResult> {
    const block = decodeBlockAnnouncement(data);
    const hook = this.#opts.onBlock;
    let verdict: GossipVerdict = 'ignore';
    if (block === undefined) verdict = 'reject';
    else if (hook !== undefined) verdict = await this.#askHook(() => hook(block, from));
    return this.#apply(from, verdict);
  }

  /** A malformed frame is refused; without a hook (no validators wired yet) the message is dropped unjudged. */
  async #validateConsensus<T>(
    from: string,
    message: T | undefined,
    hook: ((m: T, from: string) => Promise<GossipVerdict>) | undefined,
  ): Promise<TopicValidatorResult> {
    let verdict: GossipVerdict = 'ignore';
    if (message === undefined) verdict = 'reject';
    else if (hook !== undefined) verdict = await this.#askHook(() => hook(message, from));
    return this.#apply(from, verdict);
  }

  /** A throwing hook is our fault, not the sender's: ignore the message, do not penalise. */
  async #askHook(hook: () => Promise<GossipVerdict>): Promise<GossipVerdict> {
    try {
      return await hook();
    } catch (err) {
      this.#opts.logger?.warn('p2p: gossip hook failed', { err });
      return 'ignore';
    }
  }

  /** Tells the observer (metrics) the verdict on a received message. */
  async #observed(topic: GossipTopicKind, result: Promise<TopicValidatorResult>): Promise<TopicValidatorResult> {
    const observer = this.#opts.observer;
    if (observer === undefined) return result;
    const r = await result;
    observer.gossipIn(
      topic,
      r === TopicValidatorResult.Accept ? 'accept' : r === TopicValidatorResult.Reject ? 'reject' : 'ignore',
    );
    return r;
  }

  #apply(from: string, verdict: GossipVerdict): TopicValidatorResult {
    if (verdict !== 'reject') return VERDICT[verdict];
    const banned = this.#scoring.penalize(from);
    this.#opts.observer?.peerPenalized(banned);
    if (banned) {
      this.#opts.logger?.info('p2p: banning peer for invalid messages', { peerId: from });
      void this.#node?.hangUp(peerIdFromString(from)).catch(() => {});
    }
    return VERDICT[verdict];
  }

  #dialBootstrap(): void {
    const node = this.#node;
    if (node === undefined || this.#state !== 'running') return;
    const connected = new Set(node.getPeers().map((p) => p.toString()));
    for (const ma of this.#bootstrap) {
      const id = ma.getComponents().find((c) => c.name === 'p2p')?.value;
      if (id === undefined || connected.has(id) || id === node.peerId.toString() || this.#scoring.isBanned(id))
        continue;
      node.dial(ma, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).catch((err: Error) => {
        this.#opts.logger?.debug('p2p: bootstrap dial failed', { peer: ma.toString(), err: err.message });
      });
    }
  }

  #buildEnr(node: Node): string {
    const tcpAddr = node.getMultiaddrs()[0];
    const parts = tcpAddr?.getComponents() ?? [];
    const tcpPort = Number(parts.find((c) => c.name === 'tcp')?.value);
    const host = this.#opts.host ?? DEFAULT_P2P_HOST;
    const wildcard = host === '0.0.0.0' || host === '::';
    const ip = wildcard ? (this.#opts.announceHost ?? '127.0.0.1') : host;
    // The ENR's udp entry names the discovery port; we run no discv5 yet, so it equals the TCP port.
    return encodeEnr(this.#key!.secret, { seq: BigInt(Math.floor(Date.now() / 1000)), ip, tcp: tcpPort, udp: tcpPort });
  }

  #running(): Node {
    if (this.#node === undefined || this.#state !== 'running') throw new Error('p2p: service not running');
    return this.#node;
  }
}

/** Answers streams of `protocol` with `serve`; a stream it fails on is aborted with the error. */
async function serveProtocol(node: Node, protocol: string, serve: (stream: Stream) => Promise<void>): Promise<void> {
  await node.handle(protocol, async (stream) => {
    try {
      await serve(stream);
    } catch (err) {
      stream.abort(err as Error);
    }
  });
}
