/**
 * `@l2node/client/tx`: builds real-format private-only txs a dev node accepts, without a prover
 * (`node_getNodeInfo` says `realProofs: false`): anchor header from `node_getBlockHeader`, fees from
 * `node_getCurrentMinFees`, a funded fee payer, nullifiers, note hashes, private logs and the tx
 * hash. `buildDevTx(node)` does it all; `buildPrivateTx` is the builder underneath.
 * @module
 */
import type { NodeClient } from '../generated/public/client.ts';
import type { Tx as WireTxParam } from '../generated/public/types.ts';
import { anchorHeaderFromWire, type WireBlockHeaderLike } from '../impl/tx/anchor-header.ts';
import { buildPrivateTx, type BuiltTx } from '../impl/tx/tx-builder.ts';
import type { GasFees, PrivateLog } from '../impl/tx/types.ts';

export { anchorHeaderFromWire, type WireBlockHeaderLike } from '../impl/tx/anchor-header.ts';
export {
  buildPrivateTx,
  type BuiltTx,
  type PrivateTxOptions,
  type TxCommitmentOptions,
} from '../impl/tx/tx-builder.ts';
export type { BlockHeader, Gas, GasFees, PrivateLog, Tx as DecodedTx, WireTx } from '../impl/tx/types.ts';
export {
  MAX_NOTE_HASHES_PER_TX,
  MAX_NULLIFIERS_PER_TX,
  MAX_PRIVATE_LOGS_PER_TX,
  PRIVATE_LOG_SIZE_IN_FIELDS,
} from '../impl/tx/constants.ts';

/** The accounts a dev node funds with FeeJuice at genesis (src/impl/engine.ts DEV_FUNDED_ACCOUNTS). */
export const DEV_FEE_PAYERS: readonly bigint[] = [0x1001n, 0x1002n, 0x1003n];

/** What `buildDevTx` puts in the tx; everything has a default. */
export interface DevTxOptions {
  /** Default the first dev account (0x1001). */
  readonly feePayer?: bigint;
  /** Default one random nullifier (the first one makes the tx unique). */
  readonly nullifiers?: readonly bigint[];
  readonly noteHashes?: readonly bigint[];
  readonly privateLogs?: readonly PrivateLog[];
  /** Max fees per gas offered, as a multiple of the current minimum (default 2: room for a fee rise before the tx is mined). */
  readonly feeMultiplier?: number;
}

/** A built tx, with `wire` typed as `node_sendTx` takes it: `await node.sendTx(tx.wire)`. */
export interface DevTx extends Omit<BuiltTx, 'wire'> {
  readonly wire: WireTxParam;
}

/** Builds a private-only tx for the node `node` talks to, anchored at its latest block. */
export async function buildDevTx(node: NodeClient, options: DevTxOptions = {}): Promise<DevTx> {
  const [chainId, version, header, minFees] = await Promise.all([
    node.getChainId(),
    node.getVersion(),
    node.getBlockHeader('latest'),
    node.getCurrentMinFees(),
  ]);
  if (header === null) throw new Error('the node has no latest block header');
  const built = buildPrivateTx({
    chainId: BigInt(chainId),
    rollupVersion: BigInt(version),
    anchorBlockHeader: anchorHeaderFromWire(header as WireBlockHeaderLike),
    feePayer: options.feePayer ?? DEV_FEE_PAYERS[0]!,
    maxFeesPerGas: scaleFees(minFees, options.feeMultiplier ?? 2),
    nullifiers: options.nullifiers ?? [randomField()],
    ...(options.noteHashes === undefined ? {} : { noteHashes: options.noteHashes }),
    ...(options.privateLogs === undefined ? {} : { privateLogs: options.privateLogs }),
  });
  return { ...built, wire: built.wire as unknown as WireTxParam };
}

/** Each minimum fee × `multiplier`, rounded up, at least 1. */
function scaleFees(min: { readonly feePerDaGas: string; readonly feePerL2Gas: string }, multiplier: number): GasFees {
  if (!Number.isFinite(multiplier) || multiplier < 1)
    throw new RangeError(`feeMultiplier must be a finite number >= 1, got ${multiplier}`);
  const millionths = BigInt(Math.round(multiplier * 1_000_000));
  const scale = (fee: string): bigint => {
    const v = (BigInt(fee) * millionths + 999_999n) / 1_000_000n;
    return v > 0n ? v : 1n;
  };
  return { feePerDaGas: scale(min.feePerDaGas), feePerL2Gas: scale(min.feePerL2Gas) };
}

/** A random non-zero 248-bit value (below the field modulus). */
function randomField(): bigint {
  const bytes = new Uint8Array(31);
  globalThis.crypto.getRandomValues(bytes);
  const v = bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
  return v === 0n ? 1n : v;
}
