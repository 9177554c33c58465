/**
 * Log values ↔ wire JSON: private, public and contract class logs both ways (each as a tx effect
 * carries it), tx-scoped logs found by tag (timestamp as a decimal string), public and contract
 * class log pages with their LogIds, and the LogFilter parameter into the chain's filter.
 * @module
 */
import type * as C from '../../chain/types.ts';
import type * as Wire from '../../../generated/public/types.ts';
import { hex32 } from '../hex.ts';

/** PrivateLog → wire. */
export function toWirePrivateLog(l: C.PrivateLog): Wire.PrivateLog {
  return { fields: l.fields.map(hex32), emittedLength: l.emittedLength };
}

/** Wire PrivateLog → PrivateLog. */
export function fromWirePrivateLog(l: Wire.PrivateLog): C.PrivateLog {
  return { fields: l.fields.map(BigInt), emittedLength: l.emittedLength };
}

/** PublicLog → wire (fields unpadded). */
export function toWirePublicLog(l: C.PublicLog): Wire.PublicLog {
  return { contractAddress: hex32(l.contractAddress), fields: l.fields.map(hex32) };
}

/** Wire PublicLog → PublicLog. */
export function fromWirePublicLog(l: Wire.PublicLog): C.PublicLog {
  return { contractAddress: BigInt(l.contractAddress), fields: l.fields.map(BigInt) };
}

/** ContractClassLog → wire: fields wrapped in `{fields}`, as 4.1 sends them. */
export function toWireContractClassLog(l: C.ContractClassLog): Wire.ContractClassLog {
  return {
    contractAddress: hex32(l.contractAddress),
    fields: { fields: l.fields.map(hex32) },
    emittedLength: l.emittedLength,
  };
}

/** Wire ContractClassLog → ContractClassLog. */
export function fromWireContractClassLog(l: Wire.ContractClassLog): C.ContractClassLog {
  return {
    contractAddress: BigInt(l.contractAddress),
    fields: l.fields.fields.map(BigInt),
    emittedLength: l.emittedLength,
  };
}

/** TxScopedL2Log → wire. */
export function toWireTxScopedLog(l: C.TxScopedL2Log): Wire.TxScopedL2Log {
  return {
    txHash: hex32(l.txHash),
    blockNumber: l.blockNumber,
    blockTimestamp: l.blockTimestamp.toString(),
    logData: l.logData.map(hex32),
    noteHashes: l.noteHashes.map(hex32),
    firstNullifier: hex32(l.firstNullifier),
  };
}

/** LogId → wire. */
export function toWireLogId(id: C.LogId): Wire.LogId {
  return {
    blockNumber: id.blockNumber,
    blockHash: hex32(id.blockHash),
    txHash: hex32(id.txHash),
    txIndex: id.txIndex,
    logIndex: id.logIndex,
  };
}

/** A page of public logs → GetPublicLogsResponse. */
export function toWirePublicLogsPage(page: C.LogsPage<C.PublicLog>): Wire.GetPublicLogsResponse {
  return {
    logs: page.logs.map(({ id, log }) => ({ id: toWireLogId(id), log: toWirePublicLog(log) })),
    maxLogsHit: page.maxLogsHit,
  };
}

/** A page of contract class logs → GetContractClassLogsResponse. */
export function toWireContractClassLogsPage(page: C.LogsPage<C.ContractClassLog>): Wire.GetContractClassLogsResponse {
  return {
    logs: page.logs.map(({ id, log }) => ({ id: toWireLogId(id), log: toWireContractClassLog(log) })),
    maxLogsHit: page.maxLogsHit,
  };
}

/** LogFilter (validated wire param) → the chain's filter. */
export function fromWireLogFilter(f: Wire.LogFilter): C.LogFilter {
  const id = f.afterLog;
  return {
    ...(f.txHash !== undefined && { txHash: BigInt(f.txHash) }),
    ...(f.fromBlock !== undefined && { fromBlock: f.fromBlock }),
    ...(f.toBlock !== undefined && { toBlock: f.toBlock }),
    ...(id !== undefined && {
      afterLog: {
        blockNumber: id.blockNumber,
        blockHash: BigInt(id.blockHash),
        txHash: BigInt(id.txHash),
        txIndex: id.txIndex,
        logIndex: id.logIndex,
      },
    }),
    ...(f.contractAddress !== undefined && { contractAddress: BigInt(f.contractAddress) }),
    ...(f.tag !== undefined && { tag: BigInt(f.tag) }),
  };
}
