/**
 * Builds real-format private-only txs (the `Tx` wire object `node_sendTx` takes) without a
 * prover: every kernel array zero padded to its declared length, an all-zero chonk proof (a node
 * with realProofs false accepts it). For tests, the docs' examples and the bot (the anchor header a
 * tx commits to: anchor-header.ts).
 * @module
 */
import { ACCUMULATED_DATA_LENGTHS as LENGTHS, CHONK_PROOF_LENGTH, PRIVATE_LOG_SIZE_IN_FIELDS } from './constants.ts';
import { computeTxHash } from './tx-hash.ts';
import { toWireTx } from './tx-wire.ts';
import type * as T from './types.ts';

/** What a built private-only tx carries; unset fields get small valid defaults. */
export interface PrivateTxOptions extends TxCommitmentOptions {
  /** At least one; the first makes the tx unique (its hash and its nullifier-tree entry). */
  readonly nullifiers: readonly bigint[];
  readonly noteHashes?: readonly bigint[];
  /** Private logs (each `PRIVATE_LOG_SIZE_IN_FIELDS` fields); default none. */
  readonly privateLogs?: readonly T.PrivateLog[];
  /** Default DA 1 000, L2 100 000 (above the node's fixed minimum for a private-only tx). */
  readonly gasLimits?: T.Gas;
  /** Default a tenth of the limits. */
  readonly gasUsed?: T.Gas;
}

/** A built tx: decoded form, wire JSON and hash (0x + 64 hex). */
export interface BuiltTx {
  readonly tx: T.Tx;
  readonly wire: T.WireTx;
  readonly hash: string;
}

const ZERO_FEES: T.GasFees = { feePerDaGas: 0n, feePerL2Gas: 0n };

/** `items` followed by `empty()` up to `length`; a RangeError naming `what` when there are more. */
export const pad = <I>(items: readonly I[], length: number, empty: () => I, what: string): I[] => {
  if (items.length > length) throw new RangeError(`at most ${length} ${what}, got ${items.length}`);
  return [...items, ...Array.from({ length: length - items.length }, empty)];
};

/** An empty private log (all fields zero). */
export const emptyPrivateLog = (): T.PrivateLog => ({
  fields: new Array<bigint>(PRIVATE_LOG_SIZE_IN_FIELDS).fill(0n),
  emittedLength: 0,
});

/** One phase's private side effects, each array zero padded to its declared length. */
export function paddedAccumulatedData(p: {
  readonly noteHashes?: readonly bigint[];
  readonly nullifiers?: readonly bigint[];
  readonly privateLogs?: readonly T.PrivateLog[];
  readonly contractClassLogsHashes?: readonly T.ScopedLogHash[];
}): T.PrivateToRollupAccumulatedData {
  return {
    noteHashes: pad(p.noteHashes ?? [], LENGTHS.noteHashes, () => 0n, 'note hashes'),
    nullifiers: pad(p.nullifiers ?? [], LENGTHS.nullifiers, () => 0n, 'nullifiers'),
    l2ToL1Msgs: pad(
      [],
      LENGTHS.l2ToL1Msgs,
      () => ({ message: { recipient: 0n, content: 0n }, contractAddress: 0n }),
      'messages',
    ),
    privateLogs: pad(p.privateLogs ?? [], LENGTHS.privateLogs, emptyPrivateLog, 'private logs'),
    contractClassLogsHashes: pad(
      p.contractClassLogsHashes ?? [],
      LENGTHS.contractClassLogsHashes,
      () => ({ logHash: { value: 0n, length: 0 }, contractAddress: 0n }),
      'contract class logs',
    ),
  };
}

/** The tx over `data` (hashed `txHash`) with an all-zero chonk proof (a node with realProofs false accepts it), its wire JSON and hash. */
export function unprovenTx(
  data: T.PrivateKernelTailCircuitPublicInputs,
  txHash: bigint,
  contractClassLogFields: readonly T.ContractClassLogFields[],
  publicFunctionCalldata: readonly T.HashedValues[],
): BuiltTx {
  const tx: T.Tx = {
    txHash,
    data,
    chonkProof: { fields: new Array<bigint>(CHONK_PROOF_LENGTH).fill(0n) },
    contractClassLogFields,
    publicFunctionCalldata,
  };
  const wire = toWireTx(tx);
  return { tx, wire, hash: wire.txHash };
}

/** What every built tx commits to besides its effects, private-only or public. */
export interface TxCommitmentOptions {
  readonly chainId: bigint;
  readonly rollupVersion: bigint;
  /** The header of a block the node knows (genesis included; see anchor-header.ts). */
  readonly anchorBlockHeader: T.BlockHeader;
  readonly feePayer: bigint;
  readonly maxFeesPerGas: T.GasFees;
  readonly maxPriorityFeesPerGas?: T.GasFees;
  /** Seconds; default one day from now (the genesis header's timestamp is 0, so not from the anchor). */
  readonly expirationTimestamp?: bigint;
}

/** The kernel output's constants, fee payer and expiration (default one day from now); no proof artefacts (vk tree root and protocol contracts hash 0). */
export function txCommitments(
  o: TxCommitmentOptions,
  gasLimits: T.Gas,
  teardownGasLimits: T.Gas,
): Pick<T.PrivateKernelTailCircuitPublicInputs, 'constants' | 'feePayer' | 'expirationTimestamp'> {
  return {
    constants: {
      anchorBlockHeader: o.anchorBlockHeader,
      txContext: {
        chainId: o.chainId,
        version: o.rollupVersion,
        gasSettings: {
          gasLimits,
          teardownGasLimits,
          maxFeesPerGas: o.maxFeesPerGas,
          maxPriorityFeesPerGas: o.maxPriorityFeesPerGas ?? ZERO_FEES,
        },
      },
      vkTreeRoot: 0n,
      protocolContractsHash: 0n,
    },
    feePayer: o.feePayer,
    expirationTimestamp: o.expirationTimestamp ?? BigInt(Math.floor(Date.now() / 1000)) + 86_400n,
  };
}

/** Builds a private-only tx (no public calls: the dev sequencer mines it without a VM). */
export function buildPrivateTx(o: PrivateTxOptions): BuiltTx {
  const data = privateTxData(o);
  return unprovenTx(data, computeTxHash(data), [], []);
}

/** The kernel output of a private-only tx (what its hash covers). */
export function privateTxData(o: PrivateTxOptions): T.PrivateKernelTailCircuitPublicInputs {
  if (o.nullifiers.length === 0 || o.nullifiers[0] === 0n)
    throw new RangeError('a tx needs a non-zero first nullifier');
  const gasLimits = o.gasLimits ?? { daGas: 1_000, l2Gas: 100_000 };
  const data: T.PrivateKernelTailCircuitPublicInputs = {
    isForPublic: false,
    ...txCommitments(o, gasLimits, { daGas: 0, l2Gas: 0 }),
    gasUsed: o.gasUsed ?? { daGas: Math.floor(gasLimits.daGas / 10), l2Gas: Math.floor(gasLimits.l2Gas / 10) },
    forRollup: {
      end: paddedAccumulatedData({
        nullifiers: o.nullifiers,
        ...(o.noteHashes ? { noteHashes: o.noteHashes } : {}),
        ...(o.privateLogs ? { privateLogs: o.privateLogs } : {}),
      }),
    },
  };
  return data;
}
