/**
 * Transaction handlers of the public API (SPEC §4.2, tag `transactions`, plus the 4.1
 * extensions `node_getTxsByHash` and `node_getMaxPriorityFees`): submit, validate and read the
 * mempool (its domain errors reach the wire through ../wire-errors.ts; an undecodable tx is -32602
 * naming the param), and the relay of another node's `node_sendTx` errors (a reader, a follower).
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import { publicMethods } from '../../../generated/public/methods.ts';
import type * as Wire from '../../../generated/public/types.ts';
import { toWireGasFees } from '../../encoding/wire/headers.ts';
import { decodeTxOffThread, TX_ERROR, TxDecodeError } from '../../tx/index.ts';
import type { Tx } from '../../tx/index.ts';
import type { GasFees } from '../../chain/types.ts';
import type { TxPool } from '../../txpool/tx-pool.ts';
import type { NodeTxValidator } from '../../txpool/tx-validator.ts';
import { InvalidParamsError, NodeNotReadyError, RpcError, TxInvalidError } from '../errors.ts';

/** The handler members this module serves. */
export type TransactionHandlers = Pick<
  PublicHandlers,
  'sendTx' | 'isValidTx' | 'getPendingTxs' | 'getPendingTxCount' | 'getTxByHash' | 'getTxsByHash' | 'getMaxPriorityFees'
>;

/**
 * The pending-tx reads the handlers answer from: the node's own mempool (txpool/tx-pool.ts), or a
 * reader's view of its writer's pool, read from the database on every call (reader/pool-view.ts).
 */
export interface PendingTxReads {
  getPendingTxs(limit: number, after?: bigint): Promise<unknown[]>;
  getTxByHash(txHash: bigint): Promise<unknown>;
  getTxsByHash(txHashes: readonly bigint[]): Promise<unknown[]>;
  getMaxPriorityFees(): GasFees | Promise<GasFees>;
}

/** What the transaction handlers are built from. */
export interface TransactionDeps {
  readonly pool: PendingTxReads;
  readonly pendingTxCount: () => number | Promise<number>;
  /**
   * What `node_sendTx` does with a decoded tx: a node with a mempool validates and adds it
   * (`poolTransactions`); a reader forwards it to its writer.
   */
  readonly admit: (tx: Tx, wire: Wire.Tx) => Promise<void>;
  readonly validateTx: NodeTxValidator;
}

/** The transaction handlers' parts over a mempool: a sent tx is validated here, then added. */
export function poolTransactions(
  pool: PendingTxReads & Pick<TxPool, 'add' | 'pendingCount'>,
  validateTx: NodeTxValidator,
): TransactionDeps {
  return {
    pool,
    pendingTxCount: () => pool.pendingCount,
    async admit(tx, wire) {
      const validation = await validateTx(tx);
      if (validation.result === 'invalid') throw txInvalid(validation.reason);
      await pool.add(tx, wire);
    },
    validateTx,
  };
}

/** `node_getPendingTxs` default page size (SPEC §8). */
export const DEFAULT_PENDING_TXS_LIMIT = 100;

/** Creates the transaction handlers over the pool and the node validator. */
export function createTransactionHandlers({
  pool,
  pendingTxCount,
  admit,
  validateTx,
}: TransactionDeps): TransactionHandlers {
  return {
    /** Handler for `node_sendTx`: decode, then admit (validated and written to the pool before we answer). */
    async sendTx(wire) {
      await admit(await decodeParamTx(wire), wire);
    },

    /** Handler for `node_isValidTx`: an invalid tx is a result, not an error. */
    async isValidTx(wire, options) {
      const result = await validateTx(await decodeParamTx(wire), options ?? {});
      return result.result === 'valid' ? { result: 'valid' } : { result: result.result, reason: [...result.reason] };
    },

    /** Handler for `node_getPendingTxs`: priority order, `after` a pending tx's hash. */
    async getPendingTxs(limit, after) {
      return (await pool.getPendingTxs(
        limit ?? DEFAULT_PENDING_TXS_LIMIT,
        after === undefined ? undefined : BigInt(after),
      )) as Wire.Tx[];
    },

    /** Handler for `node_getPendingTxCount`. */
    async getPendingTxCount() {
      return pendingTxCount();
    },

    /** Handler for `node_getTxByHash`: the Tx JSON as it was sent, or null. */
    async getTxByHash(txHash) {
      return ((await pool.getTxByHash(BigInt(txHash))) ?? null) as Wire.Tx | null;
    },

    /** Handler for `node_getTxsByHash`: the pending ones, in request order. */
    async getTxsByHash(txHashes) {
      return (await pool.getTxsByHash(txHashes.map((h) => BigInt(h)))) as Wire.Tx[];
    },

    /** Handler for `node_getMaxPriorityFees`: the highest-priority pending tx's priority fees, zero when empty. */
    async getMaxPriorityFees() {
      return toWireGasFees(await pool.getMaxPriorityFees());
    },
  };
}

/**
 * Decodes the `tx` param, hashing on the tx-hash worker (a caller's tx must not hold other clients); a
 * tx that does not decode is -32602 naming the param and where it breaks.
 */
export async function decodeParamTx(wire: Wire.Tx, index = 0, name = 'tx'): Promise<Tx> {
  try {
    return await decodeTxOffThread(wire, name);
  } catch (err) {
    if (!(err instanceof TxDecodeError)) throw err;
    const where = err.path.startsWith(`${name}.`) ? err.path.slice(name.length + 1) : err.path;
    const rule = `${where} does not decode: ${err.detail}`;
    throw new InvalidParamsError(index, name, rule);
  }
}

/**
 * TX_INVALID as the document states it: message `Invalid tx: ` + reasons joined by `, `; a fee payer
 * that cannot pay is also named by its SPEC §7 code in `data.code`, as a pool rejection is.
 */
export function txInvalid(reasons: readonly string[]): RpcError {
  const cannotPay = reasons.includes(TX_ERROR.INSUFFICIENT_FEE_PAYER_BALANCE);
  return new TxInvalidError(reasons, cannotPay ? 'INSUFFICIENT_FEE_PAYER_BALANCE' : undefined);
}

/** The errors `node_sendTx` declares (TX_POOL_REJECTED, TX_INVALID, INVALID_PARAMS, NODE_NOT_READY). */
const SEND_TX_ERRORS: ReadonlySet<number> = new Set(publicMethods.node_sendTx!.errors);

/**
 * Another node's `node_sendTx` error as this node's own (same code, message and data) when it is one
 * the method declares; anything else (unreachable, timed out, an undeclared code) is NODE_NOT_READY
 * saying that `who` did not take the tx.
 */
export function relayedSendTxError(err: unknown, who: string): RpcError {
  const e = err as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  if (typeof e?.code === 'number' && SEND_TX_ERRORS.has(e.code) && typeof e.message === 'string')
    return new RpcError(e.code, e.message, e.data);
  return new NodeNotReadyError(`${who} did not take the tx (${(err as Error)?.message ?? String(err)})`);
}
