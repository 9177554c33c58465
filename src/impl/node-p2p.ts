/**
 * The node's side of gossip: a received tx goes through the same decode, validation and pool
 * admission as `node_sendTx`; an RPC tx newly admitted to the pool is published (or, on a node
 * following over RPC without p2p, forwarded to the followed node). Block announcements and
 * block- and checkpoint-range requests are handed to the hooks the node gives. The p2p service itself (libp2p)
 * stays ignorant of the pool and the chain.
 * @module
 */
import type { Logger } from '../server/types.ts';
import type { BlockRangeHandler } from './p2p/block-range-protocol.ts';
import type { CheckpointRangeHandler } from './p2p/checkpoint-range-protocol.ts';
import type { CheckpointAttestation, CheckpointProposal } from './p2p/consensus-messages.ts';
import type { GossipVerdict } from './p2p/index.ts';
import { P2PService } from './p2p/index.ts';
import type { BlockGossipHandler, ConsensusGossipHandler, P2PObserver } from './p2p/types.ts';
import { relayedSendTxError } from './rpc/public/transactions.ts';
import type { Tx } from './tx/index.ts';
import { decodeTxOffThread, TxDecodeError } from './tx/index.ts';
import { PoolNotRunning, PoolRejection } from './txpool/errors.ts';
import type { TxPool } from './txpool/tx-pool.ts';
import type { NodeTxValidator } from './txpool/tx-validator.ts';
import { createNodeClient } from '../generated/public/client.ts';

/** The p2p settings of the node (from Config). */
export interface NodeP2PSettings {
  readonly dataDirectory: string;
  readonly host: string;
  readonly port: number;
  readonly bootstrapPeers: readonly string[];
  readonly network: string;
  /** Gossip and peer-score metrics. */
  readonly observer?: P2PObserver;
}

/** The block side of p2p: announcements received, and the block and checkpoint range protocols served. */
export interface NodeBlockHooks {
  readonly onBlock: BlockGossipHandler;
  readonly blockRangeHandler: BlockRangeHandler;
  readonly checkpointRangeHandler: CheckpointRangeHandler;
}

/** The validators' side of p2p: checkpoint proposals and attestations received (validators/consensus-duties.ts). */
export interface NodeConsensusHooks {
  readonly onProposal: ConsensusGossipHandler<CheckpointProposal>;
  readonly onAttestation: ConsensusGossipHandler<CheckpointAttestation>;
}

/** Creates (not starts) the p2p service with the node's tx gossip validator, block and consensus hooks. */
export function createNodeP2P(
  settings: NodeP2PSettings,
  pool: Pick<TxPool, 'add'>,
  validateTx: NodeTxValidator,
  logger: Logger,
  blocks?: NodeBlockHooks,
  consensus?: NodeConsensusHooks,
): P2PService {
  return new P2PService({
    dataDirectory: settings.dataDirectory,
    host: settings.host,
    port: settings.port,
    bootstrapPeers: settings.bootstrapPeers,
    network: settings.network,
    logger,
    ...(settings.observer === undefined ? {} : { observer: settings.observer }),
    txValidator: (wire) => admitGossipedTx(wire, pool, validateTx),
    ...(blocks === undefined
      ? {}
      : {
          onBlock: blocks.onBlock,
          blockRangeHandler: blocks.blockRangeHandler,
          checkpointRangeHandler: blocks.checkpointRangeHandler,
        }),
    ...(consensus === undefined ? {} : { onProposal: consensus.onProposal, onAttestation: consensus.onAttestation }),
  });
}

/**
 * decode + validate + pool add. `accept` only for a tx newly in the pool (gossipsub relays it);
 * `reject` penalises the sender for a tx that cannot be valid; `ignore` for what is merely not
 * wanted now (already known, pool full or out-bid, node stopping).
 */
export async function admitGossipedTx(
  wire: unknown,
  pool: Pick<TxPool, 'add'>,
  validateTx: NodeTxValidator,
): Promise<GossipVerdict> {
  let tx: Tx;
  try {
    tx = await decodeTxOffThread(wire);
  } catch (err) {
    if (err instanceof TxDecodeError) return 'reject';
    throw err;
  }
  if ((await validateTx(tx)).result === 'invalid') return 'reject';
  try {
    return (await pool.add(tx, wire as object)) === 'added' ? 'accept' : 'ignore';
  } catch (err) {
    if (err instanceof PoolRejection || err instanceof PoolNotRunning) return 'ignore';
    throw err;
  }
}

/**
 * Sends a validated tx to another node (`node_sendTx` there: the followed node, or a reader's
 * writer); rejects with that node's error as this node's own (`relayedSendTxError`).
 */
export type TxForwarder = (wire: object) => Promise<void>;

/** node_sendTx on `url`, bounded in time (the client waits for our answer); `who` names that node in errors. */
export function txForwarder(url: string, who: string, timeoutMs = 10_000): TxForwarder {
  const client = createNodeClient(url, { batch: false });
  return async (wire) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from ${url} within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([client.sendTx(wire as Parameters<typeof client.sendTx>[0]), timeout]);
    } catch (err) {
      throw relayedSendTxError(err, who);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * The pool as `node_sendTx` sees it: an admitted tx is also gossiped (a failed publish is logged,
 * not the caller's error). With `forward` (a node following over RPC without p2p) the tx, once
 * admitted here, is sent on to the followed node before the caller gets its answer: the caller
 * gets that node's refusal as its own (the followed node's error, or -32002 when it cannot be
 * reached), and the tx leaves this pool again (dropped, with the reason).
 */
export function publishingPool(
  pool: TxPool,
  p2p: P2PService | undefined,
  logger: Logger,
  forward?: TxForwarder,
): Pick<TxPool, 'add' | 'pendingCount' | 'getPendingTxs' | 'getTxByHash' | 'getTxsByHash' | 'getMaxPriorityFees'> {
  return {
    async add(tx, wire) {
      const outcome = await pool.add(tx, wire);
      if (outcome === 'added' && p2p?.isReady()) {
        p2p.publishTx(tx).catch((err: unknown) => logger.warn('p2p: publishing a tx failed', { err }));
      }
      if (forward !== undefined) {
        try {
          await forward(wire);
        } catch (err) {
          const refusal = relayedSendTxError(err, 'the followed node');
          if (outcome === 'added')
            await pool.markDropped([tx.txHash], `not accepted by the followed node: ${refusal.message}`);
          throw refusal;
        }
      }
      return outcome;
    },
    get pendingCount() {
      return pool.pendingCount;
    },
    getPendingTxs: (limit, after) => pool.getPendingTxs(limit, after),
    getTxByHash: (h) => pool.getTxByHash(h),
    getTxsByHash: (hs) => pool.getTxsByHash(hs),
    getMaxPriorityFees: () => pool.getMaxPriorityFees(),
  };
}
