/**
 * Builds real `Tx`s with public parts for the public VM tests: starts from the decoded
 * public-05 vector, empties every side-effect array, then fills in app-logic (and optional setup)
 * call requests with their calldata, nullifiers, a contract class log (class publication) and a
 * private log (instance publication) with the deployment nullifier; the tx codec re-encodes and
 * recomputes the hash. Also the example token's deployment preimage.
 * @module
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { functionSelectorFromSignature } from '../../src/impl/contracts/function-selector.ts';
import { GRUMPKIN_INFINITY } from '../../src/impl/contracts/grumpkin.ts';
import { computeContractAddress } from '../../src/impl/contracts/contract-address.ts';
import { deploymentNullifier, encodeClassPublishedLog, encodeInstancePublishedLog, makeContractClass } from '../../src/impl/contracts/registry-events.ts';
import type { ContractClass, ContractInstance } from '../../src/impl/contracts/registry-events.ts';
import { assembleToken } from '../../src/impl/contracts/examples/token.ts';
import { computeCalldataHash, computeContractClassLogHash, computeTxHash, decodeTx, toWireTx } from '../../src/impl/tx/index.ts';
import type { Gas, PrivateKernelTailCircuitPublicInputs, Tx, WireTx } from '../../src/impl/tx/index.ts';
import { CONTRACT_CLASS_LOG_SIZE_IN_FIELDS, PRIVATE_LOG_SIZE_IN_FIELDS } from '../../src/impl/tx/constants.ts';

const VECTOR = fileURLToPath(new URL('../../../shared/vectors/tx/public-05-setup-app-teardown.json', import.meta.url));
const BASE = decodeTx(JSON.parse(readFileSync(VECTOR, 'utf8')).wire);

/** One enqueued call: calldata[0] is the selector. */
export interface CallSpec {
  readonly to: bigint;
  readonly from: bigint;
  readonly calldata: readonly bigint[];
  readonly isStaticCall?: boolean;
}

/** What a built public tx contains. */
export interface PublicTxSpec {
  /** The first (non-revertible) nullifier; makes the tx unique. */
  readonly txNullifier: bigint;
  readonly feePayer: bigint;
  readonly appCalls?: readonly CallSpec[];
  readonly setupCalls?: readonly CallSpec[];
  /** Publish this class (contract class log of the class registry, revertible). */
  readonly publishClass?: ContractClass;
  /** Publish this instance (instance registry private log + deployment nullifier, revertible). */
  readonly publishInstance?: ContractInstance;
  readonly gasLimits?: Gas;
  readonly teardownGasLimits?: Gas;
  /** The private kernel's gasUsed (includes the teardown limits, as Aztec's does). */
  readonly gasUsed?: Gas;
  readonly maxFeePerGas?: bigint;
  /** L2 priority fee: orders txs in the dev tx source (higher first). */
  readonly priorityFee?: bigint;
}

/** A built tx: decoded and its wire JSON. */
export interface BuiltPublicTx {
  readonly tx: Tx;
  readonly wire: WireTx;
}

/** Calldata for `signature` with `args`. */
export const calldata = (signature: string, ...args: bigint[]): bigint[] => [BigInt(functionSelectorFromSignature(signature)), ...args];

const EMPTY_CALL = { msgSender: 0n, contractAddress: 0n, isStaticCall: false, calldataHash: 0n };

/** Builds a forPublic tx per `spec`. */
export function buildPublicTx(spec: PublicTxSpec): BuiltPublicTx {
  const data = structuredClone(BASE.data) as any;
  const fp = data.forPublic;
  for (const d of [fp.nonRevertibleAccumulatedData, fp.revertibleAccumulatedData]) {
    d.noteHashes = d.noteHashes.map(() => 0n);
    d.nullifiers = d.nullifiers.map(() => 0n);
    d.l2ToL1Msgs = d.l2ToL1Msgs.map(() => ({ message: { recipient: 0n, content: 0n }, contractAddress: 0n }));
    d.privateLogs = d.privateLogs.map(() => ({ fields: Array(PRIVATE_LOG_SIZE_IN_FIELDS).fill(0n), emittedLength: 0 }));
    d.contractClassLogsHashes = d.contractClassLogsHashes.map(() => ({ logHash: { value: 0n, length: 0 }, contractAddress: 0n }));
    d.publicCallRequests = d.publicCallRequests.map(() => EMPTY_CALL);
  }
  fp.publicTeardownCallRequest = EMPTY_CALL;
  const nonRev = fp.nonRevertibleAccumulatedData, rev = fp.revertibleAccumulatedData;
  nonRev.nullifiers[0] = spec.txNullifier;
  const calldataEntries: { values: bigint[]; hash: bigint }[] = [];
  const request = (c: CallSpec) => {
    const values = [...c.calldata];
    const hash = computeCalldataHash(values);
    calldataEntries.push({ values, hash });
    return { msgSender: c.from, contractAddress: c.to, isStaticCall: c.isStaticCall ?? false, calldataHash: hash };
  };
  (spec.setupCalls ?? []).forEach((c, i) => { nonRev.publicCallRequests[i] = request(c); });
  (spec.appCalls ?? []).forEach((c, i) => { rev.publicCallRequests[i] = request(c); });
  const logs: { fields: bigint[] }[] = [];
  if (spec.publishClass) {
    const emitted = encodeClassPublishedLog(spec.publishClass);
    const fields = [...emitted, ...Array(CONTRACT_CLASS_LOG_SIZE_IN_FIELDS - emitted.length).fill(0n)];
    rev.contractClassLogsHashes[0] = { logHash: { value: computeContractClassLogHash(fields), length: emitted.length }, contractAddress: 3n };
    logs.push({ fields });
  }
  if (spec.publishInstance) {
    const emitted = encodeInstancePublishedLog(spec.publishInstance);
    rev.privateLogs[0] = { fields: [...emitted, ...Array(PRIVATE_LOG_SIZE_IN_FIELDS - emitted.length).fill(0n)], emittedLength: emitted.length };
    rev.nullifiers[0] = deploymentNullifier(spec.publishInstance.address);
  }
  data.feePayer = spec.feePayer;
  data.gasUsed = spec.gasUsed ?? { daGas: 0, l2Gas: 20_000 };
  const g = data.constants.txContext.gasSettings;
  g.gasLimits = spec.gasLimits ?? { daGas: 100_000, l2Gas: 2_000_000 };
  g.teardownGasLimits = spec.teardownGasLimits ?? { daGas: 0, l2Gas: 0 };
  const maxFee = spec.maxFeePerGas ?? 10n ** 15n;
  g.maxFeesPerGas = { feePerDaGas: maxFee, feePerL2Gas: maxFee };
  g.maxPriorityFeesPerGas = { feePerDaGas: 0n, feePerL2Gas: spec.priorityFee ?? 0n };
  const d = data as PrivateKernelTailCircuitPublicInputs;
  const tx: Tx = { ...BASE, data: d, txHash: computeTxHash(d), contractClassLogFields: logs, publicFunctionCalldata: calldataEntries };
  const wire = toWireTx(tx);
  // Round trip through the decoder: the built tx passes the same consistency checks as any sent tx.
  return { tx: decodeTx(wire), wire };
}

/** The example token as a class and an instance with infinite public keys (deployer 0). */
export function exampleTokenDeployment(salt = 0x5a17n): { contractClass: ContractClass; instance: ContractInstance; signatures: readonly string[] } {
  const program = assembleToken();
  const contractClass = makeContractClass({ artifactHash: 0xa57n, privateFunctionsRoot: 0n, packedBytecode: program.bytecode });
  const publicKeys = { masterNullifierPublicKey: GRUMPKIN_INFINITY, masterIncomingViewingPublicKey: GRUMPKIN_INFINITY, masterOutgoingViewingPublicKey: GRUMPKIN_INFINITY, masterTaggingPublicKey: GRUMPKIN_INFINITY };
  const preimage = { salt, deployer: 0n, originalContractClassId: contractClass.id, initializationHash: 0n, publicKeys };
  const instance: ContractInstance = { ...preimage, address: computeContractAddress(preimage), version: 1, currentContractClassId: contractClass.id };
  return { contractClass, instance, signatures: program.signatures };
}
