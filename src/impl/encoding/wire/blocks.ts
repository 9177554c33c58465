/**
 * Chain engine values → wire JSON (test/wire/examples): blocks, tx effects, tips, receipts. Fr as
 * 0x+64 hex, bigint amounts as decimal strings, numbers as numbers, absent optional fields
 * omitted; the header is headers.ts's.
 * @module
 */
import type * as C from '../../chain/types.ts';
import { hex32 } from '../hex.ts';
import { toWireBlockHeader, toWireSnapshot } from './headers.ts';
import { toWireContractClassLog, toWirePrivateLog, toWirePublicLog } from './logs.ts';

/** TxEffect → wire (arrays unpadded; transactionFee as Fr hex). */
export function toWireTxEffect(e: C.TxEffect) {
  return {
    revertCode: e.revertCode,
    txHash: hex32(e.txHash),
    transactionFee: hex32(e.transactionFee),
    noteHashes: e.noteHashes.map(hex32),
    nullifiers: e.nullifiers.map(hex32),
    l2ToL1Msgs: e.l2ToL1Msgs.map(hex32),
    publicDataWrites: e.publicDataWrites.map((w) => ({ leafSlot: hex32(w.leafSlot), value: hex32(w.value) })),
    privateLogs: e.privateLogs.map(toWirePrivateLog),
    publicLogs: e.publicLogs.map(toWirePublicLog),
    contractClassLogs: e.contractClassLogs.map(toWireContractClassLog),
  };
}

/** L2Block → wire. */
export function toWireBlock(b: C.L2Block) {
  return {
    archive: toWireSnapshot(b.archive),
    header: toWireBlockHeader(b.header),
    body: { txEffects: b.body.txEffects.map(toWireTxEffect) },
    checkpointNumber: b.checkpointNumber,
    indexWithinCheckpoint: b.indexWithinCheckpoint,
  };
}

const tip = (t: C.BlockTip) => ({ number: t.number, hash: hex32(t.hash) });
const cpTip = (t: C.CheckpointedTip) => ({ block: tip(t.block), checkpoint: tip(t.checkpoint) });

/** L2Tips → wire (v4 shape). */
export function toWireL2Tips(t: C.L2Tips) {
  return {
    proposed: tip(t.proposed),
    checkpointed: cpTip(t.checkpointed),
    proven: cpTip(t.proven),
    finalized: cpTip(t.finalized),
  };
}

/** TxReceipt → wire; transactionFee as a decimal string; absent fields omitted. */
export function toWireTxReceipt(r: C.TxReceipt) {
  return {
    txHash: hex32(r.txHash),
    status: r.status,
    ...(r.executionResult !== undefined && { executionResult: r.executionResult }),
    ...(r.error !== undefined && { error: r.error }),
    ...(r.transactionFee !== undefined && { transactionFee: r.transactionFee.toString() }),
    ...(r.blockHash !== undefined && { blockHash: hex32(r.blockHash) }),
    ...(r.blockNumber !== undefined && { blockNumber: r.blockNumber }),
    ...(r.epochNumber !== undefined && { epochNumber: r.epochNumber }),
  };
}

/** IndexedTxEffect → wire. */
export function toWireIndexedTxEffect(e: C.IndexedTxEffect) {
  return {
    l2BlockNumber: e.l2BlockNumber,
    l2BlockHash: hex32(e.l2BlockHash),
    data: toWireTxEffect(e.data),
    txIndexInBlock: e.txIndexInBlock,
  };
}
