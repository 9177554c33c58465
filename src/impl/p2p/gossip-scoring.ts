/**
 * gossipsub peer-score parameters: invalid messages cost score on each topic, the application
 * score (our penalty book) is added, and the defaults that would punish a quiet network
 * (mesh delivery deficits) or many peers on one host (IP colocation, e.g. loopback) are off.
 * @module
 */
import type { GossipsubOpts } from '@libp2p/gossipsub';

/** Score options for `gossipsub()`, given the topics and the app-specific score of a peer. */
export function gossipsubScoring(
  topics: readonly string[],
  appScore: (peerId: string) => number,
): Pick<GossipsubOpts, 'scoreParams' | 'scoreThresholds'> {
  const topicParams = {
    topicWeight: 1,
    // A small positive reward for time in mesh and first deliveries, capped, as in the spec's examples.
    timeInMeshWeight: 0.01,
    timeInMeshQuantum: 1000,
    timeInMeshCap: 300,
    firstMessageDeliveriesWeight: 0.1,
    firstMessageDeliveriesDecay: 0.9,
    firstMessageDeliveriesCap: 50,
    // Txs and blocks arrive at the rate users and the sequencer make them, so an idle mesh peer is no fault.
    meshMessageDeliveriesWeight: 0,
    meshFailurePenaltyWeight: 0,
    // Each invalid message counts squared; with weight -1 the 5th costs -25, before the -80 graylist.
    invalidMessageDeliveriesWeight: -1,
    invalidMessageDeliveriesDecay: 0.9,
  };
  return {
    scoreParams: {
      topics: Object.fromEntries(topics.map((t) => [t, topicParams])) as never,
      topicScoreCap: 10,
      appSpecificScore: appScore,
      appSpecificWeight: 1,
      IPColocationFactorWeight: 0,
      decayInterval: 1000,
      decayToZero: 0.01,
    },
    scoreThresholds: {
      gossipThreshold: -20,
      publishThreshold: -40,
      graylistThreshold: -80,
      acceptPXThreshold: 10,
      opportunisticGraftThreshold: 5,
    },
  };
}
