/**
 * Builds real-format txs with public calls (the `Tx` wire object `node_sendTx` takes) without a
 * prover, the public counterpart of tx-builder.ts: a `forPublic` kernel with every array zero
 * padded to its declared length, enqueued setup / app-logic / teardown call requests with their
 * calldata, and optionally a contract deployment in the tx's private part (the class registry's
 * contract class log, the instance registry's private log and the deployment nullifier), all
 * anchored on a header the node knows and committed by the recomputed tx hash.
 * @module
 */
import { functionSelectorFromSignature } from '../contracts/function-selector.ts';
import {
  deploymentNullifier,
  encodeClassPublishedLog,
  encodeInstancePublishedLog,
} from '../contracts/registry-events.ts';
import type { ContractClass, ContractInstance } from '../contracts/registry-events.ts';
import {
  ACCUMULATED_DATA_LENGTHS as LENGTHS,
  CONTRACT_CLASS_LOG_SIZE_IN_FIELDS,
  PRIVATE_LOG_SIZE_IN_FIELDS,
} from './constants.ts';
import {
  pad,
  paddedAccumulatedData,
  txCommitments,
  unprovenTx,
  type BuiltTx,
  type TxCommitmentOptions,
} from './tx-builder.ts';
import { computeCalldataHash, computeContractClassLogHash, computeTxHash } from './tx-hash.ts';
import { decodeTx } from './tx-wire.ts';
import type * as T from './types.ts';

/** The class registry: the contract a class publication's contract class log comes from. */
export const CLASS_REGISTRY_ADDRESS = 3n;

/** One enqueued public call; `calldata[0]` is the function selector (see `calldata`). */
export interface PublicCall {
  readonly to: bigint;
  /** The msg sender the call runs with (the account contract in a real tx). */
  readonly from: bigint;
  readonly calldata: readonly bigint[];
  readonly isStaticCall?: boolean;
}

/** What a built public tx carries (besides the chain, anchor, payer and fees); unset fields get small valid defaults. */
export interface PublicTxOptions extends TxCommitmentOptions {
  /** The first, non-revertible nullifier: makes the tx unique (its hash and its nullifier-tree entry). Non-zero. */
  readonly txNullifier: bigint;
  /** Setup-phase calls (non-revertible; each must be on the node's allow-list). */
  readonly setupCalls?: readonly PublicCall[];
  /** App-logic calls (revertible). */
  readonly appCalls?: readonly PublicCall[];
  readonly teardownCall?: PublicCall;
  /** Publish this class: the class registry's contract class log (revertible side). */
  readonly publishClass?: ContractClass;
  /** Publish this instance: the instance registry's private log and the deployment nullifier (revertible side). */
  readonly publishInstance?: ContractInstance;
  /** Default DA 100 000, L2 2 000 000 (above the node's fixed minimum for a public tx). */
  readonly gasLimits?: T.Gas;
  /** Default zero (no teardown call) or DA 0, L2 100 000 with one. */
  readonly teardownGasLimits?: T.Gas;
  /** The private kernel's gasUsed; includes the teardown limits, as Aztec's does. Default teardown limits + L2 20 000. */
  readonly gasUsed?: T.Gas;
}

/** Calldata for `signature` applied to `args`: the selector first, then the arguments. */
export const calldata = (signature: string, ...args: bigint[]): bigint[] => [
  BigInt(functionSelectorFromSignature(signature)),
  ...args,
];

const EMPTY_CALL: T.PublicCallRequest = { msgSender: 0n, contractAddress: 0n, isStaticCall: false, calldataHash: 0n };
const padFields = (fields: readonly bigint[], length: number, what: string): bigint[] =>
  pad(fields, length, () => 0n, `fields in ${what}`);

/** The side effects of one phase with its enqueued calls, zero padded. */
function accumulated(
  p: Parameters<typeof paddedAccumulatedData>[0] & { readonly calls?: readonly T.PublicCallRequest[] },
): T.PrivateToPublicAccumulatedData {
  return {
    ...paddedAccumulatedData(p),
    publicCallRequests: pad(p.calls ?? [], LENGTHS.publicCallRequests, () => EMPTY_CALL, 'enqueued calls per phase'),
  };
}

/** Builds a `forPublic` tx per `o`; the result round-trips through the decoder's consistency checks. */
export function buildPublicTx(o: PublicTxOptions): BuiltTx {
  if (o.txNullifier === 0n) throw new RangeError('a tx needs a non-zero first nullifier (txNullifier)');
  const calldataEntries: T.HashedValues[] = [];
  const request = (c: PublicCall): T.PublicCallRequest => {
    const values = [...c.calldata];
    const hash = computeCalldataHash(values);
    calldataEntries.push({ values, hash });
    return { msgSender: c.from, contractAddress: c.to, isStaticCall: c.isStaticCall ?? false, calldataHash: hash };
  };
  const setup = (o.setupCalls ?? []).map(request);
  const app = (o.appCalls ?? []).map(request);
  const teardown = o.teardownCall === undefined ? EMPTY_CALL : request(o.teardownCall);
  if (setup.length + app.length === 0 && o.teardownCall === undefined)
    throw new RangeError('a public tx needs at least one call (setupCalls, appCalls or teardownCall)');

  // The deployment goes on the revertible side, as a deploy-and-initialize tx's private part puts it.
  const classLogs: T.ContractClassLogFields[] = [];
  const classLogHashes: T.ScopedLogHash[] = [];
  if (o.publishClass) {
    const emitted = encodeClassPublishedLog(o.publishClass);
    const fields = padFields(emitted, CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, 'the class publication log');
    classLogs.push({ fields });
    classLogHashes.push({
      logHash: { value: computeContractClassLogHash(fields), length: emitted.length },
      contractAddress: CLASS_REGISTRY_ADDRESS,
    });
  }
  const revertibleLogs: T.PrivateLog[] = [];
  const revertibleNullifiers: bigint[] = [];
  if (o.publishInstance) {
    const emitted = encodeInstancePublishedLog(o.publishInstance);
    revertibleLogs.push({
      fields: padFields(emitted, PRIVATE_LOG_SIZE_IN_FIELDS, 'the instance publication log'),
      emittedLength: emitted.length,
    });
    revertibleNullifiers.push(deploymentNullifier(o.publishInstance.address));
  }

  const teardownGasLimits =
    o.teardownGasLimits ?? (o.teardownCall === undefined ? { daGas: 0, l2Gas: 0 } : { daGas: 0, l2Gas: 100_000 });
  const gasLimits = o.gasLimits ?? { daGas: 100_000, l2Gas: 2_000_000 };
  const data: T.PrivateKernelTailCircuitPublicInputs = {
    isForPublic: true,
    ...txCommitments(o, gasLimits, teardownGasLimits),
    gasUsed: o.gasUsed ?? { daGas: teardownGasLimits.daGas, l2Gas: teardownGasLimits.l2Gas + 20_000 },
    forPublic: {
      nonRevertibleAccumulatedData: accumulated({ nullifiers: [o.txNullifier], calls: setup }),
      revertibleAccumulatedData: accumulated({
        nullifiers: revertibleNullifiers,
        privateLogs: revertibleLogs,
        contractClassLogsHashes: classLogHashes,
        calls: app,
      }),
      publicTeardownCallRequest: teardown,
    },
  };
  const { wire } = unprovenTx(data, computeTxHash(data), classLogs, calldataEntries);
  // Decode what we send: the built tx passes the same consistency checks (calldata and class log hashes) as any sent tx.
  return { tx: decodeTx(wire), wire, hash: wire.txHash };
}
