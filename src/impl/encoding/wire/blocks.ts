/**
 * Chain engine values → wire JSON (test/wire/examples): Fr as 0x+64 hex, bigint amounts and
 * timestamps as decimal strings, numbers as numbers, GlobalVariables.slotNumber/chainId/version
 * as Fr hex, EthAddress as 0x+40 hex, absent optional fields omitted.
 * @module
 */
import type * as C from '../../chain/types.ts';
import { hex20, hex32 } from '../../encoding/hex.ts';

const snap = (s: C.Snapshot) => ({ root: hex32(s.root), nextAvailableLeafIndex: s.nextAvailableLeafIndex });
const fees = (g: C.GasFees) => ({ feePerDaGas: g.feePerDaGas.toString(), feePerL2Gas: g.feePerL2Gas.toString() });

/** GlobalVariables → wire: chainId, version and slotNumber as Fr hex, the timestamp as a decimal string. */
export function toWireGlobalVariables(g: C.GlobalVariables) {
  return {
    chainId: hex32(g.chainId),
    version: hex32(g.version),
    blockNumber: g.blockNumber,
    slotNumber: hex32(BigInt(g.slotNumber)),
    timestamp: g.timestamp.toString(),
    coinbase: hex20(g.coinbase),
    feeRecipient: hex32(g.feeRecipient),
    gasFees: fees(g.gasFees),
  };
}

/** BlockHeader → wire. */
export function toWireBlockHeader(h: C.BlockHeader) {
  return {
    lastArchive: snap(h.lastArchive),
    state: {
      l1ToL2MessageTree: snap(h.state.l1ToL2MessageTree),
      partial: {
        noteHashTree: snap(h.state.noteHashTree),
        nullifierTree: snap(h.state.nullifierTree),
        publicDataTree: snap(h.state.publicDataTree),
      },
    },
    spongeBlobHash: hex32(h.spongeBlobHash),
    globalVariables: toWireGlobalVariables(h.globalVariables),
    totalFees: hex32(h.totalFees),
    totalManaUsed: hex32(h.totalManaUsed),
  };
}

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
    privateLogs: e.privateLogs.map((l) => ({ fields: l.fields.map(hex32), emittedLength: l.emittedLength })),
    publicLogs: e.publicLogs.map((l) => ({ contractAddress: hex32(l.contractAddress), fields: l.fields.map(hex32) })),
    contractClassLogs: e.contractClassLogs.map((l) => ({
      contractAddress: hex32(l.contractAddress),
      fields: { fields: l.fields.map(hex32) },
      emittedLength: l.emittedLength,
    })),
  };
}

/** L2Block → wire. */
export function toWireBlock(b: C.L2Block) {
  return {
    archive: snap(b.archive),
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
