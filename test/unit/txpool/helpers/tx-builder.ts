/**
 * Test txs: a real vector, decoded, with chosen fields changed (fee payer, fees, nullifiers,
 * chain id, version, expiration, gas limits, anchor header) and re-encoded with the tx codec,
 * which recomputes the hash.
 * @module
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { computeTxHash, decodeTx, toWireTx } from '../../../../src/impl/tx/index.ts';
import type {
  BlockHeader,
  Gas,
  PrivateKernelTailCircuitPublicInputs,
  Tx,
  WireTx,
} from '../../../../src/impl/tx/index.ts';

/** Folder of the shared tx vectors. */
export const VECTOR_DIR = fileURLToPath(new URL('../../../../test/vectors/tx/', import.meta.url));

/** A vector file as the tests read it. */
export interface Vector {
  readonly name: string;
  readonly txHash: string;
  readonly kind: 'forPublic' | 'forRollup';
  readonly summary: { readonly nonRevertiblePublicCalls: number; readonly nullifiers: number };
  readonly anchorBlockHeaderHash: string;
  readonly wire: WireTx;
}

/** Reads a vector by file name (with or without `.json`). */
export function loadVector(name: string): Vector {
  return JSON.parse(readFileSync(VECTOR_DIR + (name.endsWith('.json') ? name : `${name}.json`), 'utf8')) as Vector;
}

/** A built tx: decoded and its wire JSON. */
export interface BuiltTx {
  readonly tx: Tx;
  readonly wire: WireTx;
  readonly hash: string;
}

/** What a test may change. */
export interface TxPatch {
  readonly feePayer?: bigint;
  /** L2 max fee per gas (DA max fee is set to `maxFeeDa`, default 1). */
  readonly maxFeeL2?: bigint;
  readonly maxFeeDa?: bigint;
  readonly priorityFeeL2?: bigint;
  readonly priorityFeeDa?: bigint;
  /** Non-empty nullifiers, replacing all; the first one makes the tx unique. */
  readonly nullifiers?: readonly bigint[];
  readonly chainId?: bigint;
  readonly version?: bigint;
  readonly expirationTimestamp?: bigint;
  readonly gasLimits?: Gas;
  readonly anchorBlockHeader?: BlockHeader;
}

/** The decoded rollup-01 vector every built tx starts from. */
export const BASE_TX = decodeTx(loadVector('rollup-01-minimal').wire);

/** Builds a private-only tx from rollup-01 with `patch` applied (or from `base`). */
export function buildTx(patch: TxPatch, base: Tx = BASE_TX): BuiltTx {
  const data = structuredClone(base.data) as any;
  const ctx = data.constants.txContext;
  if (patch.feePayer !== undefined) data.feePayer = patch.feePayer;
  if (patch.chainId !== undefined) ctx.chainId = patch.chainId;
  if (patch.version !== undefined) ctx.version = patch.version;
  if (patch.expirationTimestamp !== undefined) data.expirationTimestamp = patch.expirationTimestamp;
  if (patch.gasLimits !== undefined) ctx.gasSettings.gasLimits = patch.gasLimits;
  if (patch.anchorBlockHeader !== undefined) data.constants.anchorBlockHeader = patch.anchorBlockHeader;
  const g = ctx.gasSettings;
  if (patch.maxFeeL2 !== undefined)
    g.maxFeesPerGas = { feePerDaGas: patch.maxFeeDa ?? 1n, feePerL2Gas: patch.maxFeeL2 };
  if (patch.priorityFeeL2 !== undefined)
    g.maxPriorityFeesPerGas = { feePerDaGas: patch.priorityFeeDa ?? 0n, feePerL2Gas: patch.priorityFeeL2 };
  if (patch.nullifiers !== undefined) {
    const blocks = data.isForPublic
      ? [data.forPublic.nonRevertibleAccumulatedData, data.forPublic.revertibleAccumulatedData]
      : [data.forRollup.end];
    for (const b of blocks) b.nullifiers = b.nullifiers.map(() => 0n);
    blocks[0].nullifiers = blocks[0].nullifiers.map((_: bigint, i: number) => patch.nullifiers![i] ?? 0n);
  }
  const d = data as PrivateKernelTailCircuitPublicInputs;
  const tx: Tx = { ...base, data: d, txHash: computeTxHash(d) };
  const wire = toWireTx(tx);
  return { tx, wire, hash: wire.txHash };
}
