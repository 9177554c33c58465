/**
 * The node's side of tx gossip: a received tx goes through the same decode, validation and
 * pool admission as `node_sendTx`; an RPC tx newly admitted to the pool is published. The p2p
 * service itself (libp2p) stays ignorant of the pool.
 * @module
 */
import type { Logger } from '../server/types.ts';
import { P2PService } from './p2p/index.ts';
import type { GossipVerdict } from './p2p/index.ts';
import { decodeTx, TxDecodeError } from './tx/index.ts';
import type { Tx } from './tx/index.ts';
import { PoolNotRunning, PoolRejection } from './txpool/errors.ts';
import type { TxPool } from './txpool/tx-pool.ts';
import type { NodeTxValidator } from './txpool/tx-validator.ts';

/** The p2p settings of the node (from Config). */
export interface NodeP2PSettings {
  readonly dataDirectory: string;
  readonly host: string;
  readonly port: number;
  readonly bootstrapPeers: readonly string[];
  readonly network: string;
}

/** Creates (not starts) the p2p service with the node's tx gossip validator. */
export function createNodeP2P(settings: NodeP2PSettings, pool: Pick<TxPool, 'add'>, validateTx: NodeTxValidator, logger: Logger): P2PService {
  return new P2PService({
    dataDirectory: settings.dataDirectory, host: settings.host, port: settings.port, bootstrapPeers: settings.bootstrapPeers,
    network: settings.network, logger,
    txValidator: (wire) => admitGossipedTx(wire, pool, validateTx),
  });
}

/**
 * decode + validate + pool add. `accept` only for a tx newly in the pool (gossipsub relays it);
 * `reject` penalises the sender for a tx that cannot be valid; `ignore` for what is merely not
 * wanted now (already known, pool full or out-bid, node stopping).
 */
export async function admitGossipedTx(wire: unknown, pool: Pick<TxPool, 'add'>, validateTx: NodeTxValidator): Promise<GossipVerdict> {
  let tx: Tx;
  try {
    tx = decodeTx(wire);
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

/** The pool as `node_sendTx` sees it: an admitted tx is also gossiped (a failed publish is logged, not the caller's error). */
export function publishingPool(pool: TxPool, p2p: P2PService | undefined, logger: Logger): Pick<TxPool, 'add' | 'pendingCount' | 'getPendingTxs' | 'getTxByHash' | 'getTxsByHash' | 'getMaxPriorityFees'> {
  return {
    async add(tx, wire) {
      const outcome = await pool.add(tx, wire);
      if (outcome === 'added' && p2p?.isReady()) {
        p2p.publishTx(tx).catch((err: unknown) => logger.warn('p2p: publishing a tx failed', { err }));
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
