/**
 * Loads the shared tx vectors (test/vectors/tx) and converts decoded structures to the
 * plain `decoded` view those vectors use (TX-FORMAT §5), so a test can compare the whole view.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type {
  BlockHeader,
  GasFees,
  PrivateKernelTailCircuitPublicInputs,
  PrivateLog,
  PrivateToRollupAccumulatedData,
  PublicCallRequest,
  ScopedL2ToL1Message,
  ScopedLogHash,
  WireTx,
} from '../../../../src/impl/tx/types.ts';

/** Folder of the shared tx vectors. */
export const VECTOR_DIR = fileURLToPath(new URL('../../../../test/vectors/tx/', import.meta.url));

/** One vector file, with the keys the tests read. */
export interface TxVector {
  readonly name: string;
  readonly txHash: string;
  readonly kind: 'forPublic' | 'forRollup';
  readonly summary: Record<string, number | boolean>;
  readonly wire: WireTx;
  readonly decoded: unknown;
  readonly anchorBlockHeaderHash: string;
  readonly txHashComputation: {
    readonly fieldCount: number;
    readonly nonZeroFields: readonly (readonly [number, string])[];
    readonly domainSeparator: { readonly value: number };
  };
}

/** Names of all vector files (without index.json), sorted. */
export function vectorFiles(): string[] {
  return readdirSync(VECTOR_DIR)
    .filter((f) => f.endsWith('.json') && f !== 'index.json')
    .sort();
}

/** Reads one vector. */
export function loadVector(file: string): TxVector {
  return JSON.parse(readFileSync(VECTOR_DIR + file, 'utf8')) as TxVector;
}

const fr = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
const eth = (x: bigint) => '0x' + x.toString(16).padStart(40, '0');
const dec = (x: bigint) => x.toString(10);

/** `{declaredLength, nonEmptyCount, items}`; "empty" means an all-zero binary encoding (TX-FORMAT §5). */
function fixed<T>(items: readonly T[], isZero: (x: T) => boolean, view: (x: T) => unknown) {
  const kept = items.map((x, i) => [x, i] as const).filter(([x]) => !isZero(x));
  const out: Record<string, unknown> = {
    declaredLength: items.length,
    nonEmptyCount: kept.length,
    items: kept.map(([x]) => view(x)),
  };
  if (kept.some(([, i], k) => i !== k)) out.indices = kept.map(([, i]) => i);
  return out;
}

const zeroField = (x: bigint) => x === 0n;
const gasFees = (f: GasFees) => ({ feePerDaGas: dec(f.feePerDaGas), feePerL2Gas: dec(f.feePerL2Gas) });
const snapshot = (s: { root: bigint; nextAvailableLeafIndex: number }) => ({
  root: fr(s.root),
  nextAvailableLeafIndex: s.nextAvailableLeafIndex,
});

function header(h: BlockHeader) {
  const g = h.globalVariables;
  return {
    lastArchive: snapshot(h.lastArchive),
    state: {
      l1ToL2MessageTree: snapshot(h.state.l1ToL2MessageTree),
      partial: {
        noteHashTree: snapshot(h.state.partial.noteHashTree),
        nullifierTree: snapshot(h.state.partial.nullifierTree),
        publicDataTree: snapshot(h.state.partial.publicDataTree),
      },
    },
    spongeBlobHash: fr(h.spongeBlobHash),
    globalVariables: {
      chainId: fr(g.chainId),
      version: fr(g.version),
      blockNumber: g.blockNumber,
      slotNumber: g.slotNumber,
      timestamp: dec(g.timestamp),
      coinbase: eth(g.coinbase),
      feeRecipient: fr(g.feeRecipient),
      gasFees: gasFees(g.gasFees),
    },
    totalFees: fr(h.totalFees),
    totalManaUsed: fr(h.totalManaUsed),
  };
}

const callRequest = (c: PublicCallRequest) => ({
  msgSender: fr(c.msgSender),
  contractAddress: fr(c.contractAddress),
  isStaticCall: c.isStaticCall,
  calldataHash: fr(c.calldataHash),
});
const zeroCall = (c: PublicCallRequest) =>
  c.msgSender === 0n && c.contractAddress === 0n && !c.isStaticCall && c.calldataHash === 0n;
const zeroMsg = (m: ScopedL2ToL1Message) =>
  m.message.recipient === 0n && m.message.content === 0n && m.contractAddress === 0n;
const zeroLog = (l: PrivateLog) => l.emittedLength === 0 && l.fields.every(zeroField);
const zeroLogHash = (h: ScopedLogHash) => h.logHash.value === 0n && h.logHash.length === 0 && h.contractAddress === 0n;

function accumulated(d: PrivateToRollupAccumulatedData & { publicCallRequests?: readonly PublicCallRequest[] }) {
  const out: Record<string, unknown> = {
    noteHashes: fixed(d.noteHashes, zeroField, fr),
    nullifiers: fixed(d.nullifiers, zeroField, fr),
    l2ToL1Msgs: fixed(d.l2ToL1Msgs, zeroMsg, (m) => ({
      message: { recipient: eth(m.message.recipient), content: fr(m.message.content) },
      contractAddress: fr(m.contractAddress),
    })),
    privateLogs: fixed(d.privateLogs, zeroLog, (l) => ({
      fields: fixed(l.fields, zeroField, fr),
      emittedLength: l.emittedLength,
    })),
    contractClassLogsHashes: fixed(d.contractClassLogsHashes, zeroLogHash, (h) => ({
      logHash: { value: fr(h.logHash.value), length: h.logHash.length },
      contractAddress: fr(h.contractAddress),
    })),
  };
  if (d.publicCallRequests !== undefined) out.publicCallRequests = fixed(d.publicCallRequests, zeroCall, callRequest);
  return out;
}

/** Converts decoded `Tx.data` to the vectors' `decoded` view. */
export function toDecodedView(data: PrivateKernelTailCircuitPublicInputs): unknown {
  const s = data.constants.txContext.gasSettings;
  const common = {
    isForPublic: data.isForPublic,
    constants: {
      anchorBlockHeader: header(data.constants.anchorBlockHeader),
      txContext: {
        chainId: fr(data.constants.txContext.chainId),
        version: fr(data.constants.txContext.version),
        gasSettings: {
          gasLimits: { ...s.gasLimits },
          teardownGasLimits: { ...s.teardownGasLimits },
          maxFeesPerGas: gasFees(s.maxFeesPerGas),
          maxPriorityFeesPerGas: gasFees(s.maxPriorityFeesPerGas),
        },
      },
      vkTreeRoot: fr(data.constants.vkTreeRoot),
      protocolContractsHash: fr(data.constants.protocolContractsHash),
    },
    gasUsed: { ...data.gasUsed },
    feePayer: fr(data.feePayer),
    expirationTimestamp: dec(data.expirationTimestamp),
  };
  if (data.isForPublic) {
    const p = data.forPublic;
    return {
      ...common,
      forPublic: {
        nonRevertibleAccumulatedData: accumulated(p.nonRevertibleAccumulatedData),
        revertibleAccumulatedData: accumulated(p.revertibleAccumulatedData),
        publicTeardownCallRequest: callRequest(p.publicTeardownCallRequest),
      },
    };
  }
  return { ...common, forRollup: { end: accumulated(data.forRollup.end) } };
}
