/**
 * The p2p layer's public surface: the service, its options and hooks, the gossip encodings,
 * ENR encode/decode and the blocks- and checkpoints-by-range protocol limits.
 * @module
 */
export { P2PService, DEFAULT_P2P_HOST, DEFAULT_P2P_PORT } from './p2p-service.ts';
export type * from './types.ts';
export type { BlockAnnouncement } from './gossip-messages.ts';
export {
  txTopic,
  blockTopic,
  blocksByRangeProtocol,
  checkpointsByRangeProtocol,
  encodeTxMessage,
  encodeBlockAnnouncement,
  decodeBlockAnnouncement,
} from './gossip-messages.ts';
export { encodeEnr, decodeEnr, enrNodeId } from './enr.ts';
export type { Enr, EnrEndpoint } from './enr.ts';
export { enrPeerId, parseBootstrapPeer } from './bootstrap-peers.ts';
export { MAX_BLOCKS_PER_REQUEST, MAX_RESPONSE_BYTES } from './block-range-protocol.ts';
export type { BlockRangeHandler } from './block-range-protocol.ts';
export { MAX_CHECKPOINTS_PER_REQUEST, MAX_CHECKPOINT_RESPONSE_BYTES } from './checkpoint-range-protocol.ts';
export type { CheckpointRangeAnswer, CheckpointRangeHandler } from './checkpoint-range-protocol.ts';
export { PEER_KEY_PATH, loadOrCreatePeerKey } from './peer-key.ts';
export type { PeerScoringOptions } from './peer-scoring.ts';
export type { CheckpointProposal, CheckpointAttestation } from './consensus-messages.ts';
export {
  proposalTopic,
  attestationTopic,
  encodeProposal,
  decodeProposal,
  encodeAttestation,
  decodeAttestation,
} from './consensus-messages.ts';
