/**
 * Chain engine values → wire JSON (test/wire/examples): Fr as 0x+64 hex, bigint amounts and
 * timestamps as decimal strings, numbers as numbers, GlobalVariables.slotNumber/chainId/version
 * as Fr hex, EthAddress as 0x+40 hex, absent optional fields omitted.
 * @module
 */
import type * as C from '../../chain/types.ts';

const fr = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
const eth = (x: bigint) => '0x' + x.toString(16).padStart(40, '0');
const snap = (s: C.Snapshot) => ({ root: fr(s.root), nextAvailableLeafIndex: s.nextAvailableLeafIndex });
const fees = (g: C.GasFees) => ({ feePerDaGas: g.feePerDaGas.toString(), feePerL2Gas: g.feePerL2Gas.toString() });

/** BlockHeader → wire. */
export function toWireBlockHeader(h: C.BlockHeader) {
  const g = h.globalVariables;
  return {
    lastArchive: snap(h.lastArchive),
    state: { l1ToL2MessageTree: snap(h.state.l1ToL2MessageTree), partial: { noteHashTree: snap(h.state.noteHashTree), nullifierTree: snap(h.state.nullifierTree), publicDataTree: snap(h.state.publicDataTree) } },
    spongeBlobHash: fr(h.spongeBlobHash),
    globalVariables: {
      chainId: fr(g.chainId), version: fr(g.version), blockNumber: g.blockNumber, slotNumber: fr(BigInt(g.slotNumber)),
      timestamp: g.timestamp.toString(), coinbase: eth(g.coinbase), feeRecipient: fr(g.feeRecipient), gasFees: fees(g.gasFees),
    },
    totalFees: fr(h.totalFees),
    totalManaUsed: fr(h.totalManaUsed),
  };
}

/** TxEffect → wire (arrays unpadded; transactionFee as Fr hex). */
export function toWireTxEffect(e: C.TxEffect) {
  return {
    revertCode: e.revertCode, txHash: fr(e.txHash), transactionFee: fr(e.transactionFee),
    noteHashes: e.noteHashes.map(fr), nullifiers: e.nullifiers.map(fr), l2ToL1Msgs: e.l2ToL1Msgs.map(fr),
    publicDataWrites: e.publicDataWrites.map((w) => ({ leafSlot: fr(w.leafSlot), value: fr(w.value) })),
    privateLogs: e.privateLogs.map((l) => ({ fields: l.fields.map(fr), emittedLength: l.emittedLength })),
    publicLogs: e.publicLogs.map((l) => ({ contractAddress: fr(l.contractAddress), fields: l.fields.map(fr) })),
    contractClassLogs: e.contractClassLogs.map((l) => ({ contractAddress: fr(l.contractAddress), fields: { fields: l.fields.map(fr) }, emittedLength: l.emittedLength })),
  };
}

/** L2Block → wire. */
export function toWireBlock(b: C.L2Block) {
  return { archive: snap(b.archive), header: toWireBlockHeader(b.header), body: { txEffects: b.body.txEffects.map(toWireTxEffect) }, checkpointNumber: b.checkpointNumber, indexWithinCheckpoint: b.indexWithinCheckpoint };
}

const tip = (t: C.BlockTip) => ({ number: t.number, hash: fr(t.hash) });
const cpTip = (t: C.CheckpointedTip) => ({ block: tip(t.block), checkpoint: tip(t.checkpoint) });

/** L2Tips → wire (v4 shape). */
export function toWireL2Tips(t: C.L2Tips) {
  return { proposed: tip(t.proposed), checkpointed: cpTip(t.checkpointed), proven: cpTip(t.proven), finalized: cpTip(t.finalized) };
}

/** TxReceipt → wire; transactionFee as a decimal string; absent fields omitted. */
export function toWireTxReceipt(r: C.TxReceipt) {
  return {
    txHash: fr(r.txHash), status: r.status,
    ...(r.executionResult !== undefined && { executionResult: r.executionResult }),
    ...(r.error !== undefined && { error: r.error }),
    ...(r.transactionFee !== undefined && { transactionFee: r.transactionFee.toString() }),
    ...(r.blockHash !== undefined && { blockHash: fr(r.blockHash) }),
    ...(r.blockNumber !== undefined && { blockNumber: r.blockNumber }),
    ...(r.epochNumber !== undefined && { epochNumber: r.epochNumber }),
  };
}

/** IndexedTxEffect → wire. */
export function toWireIndexedTxEffect(e: C.IndexedTxEffect) {
  return { l2BlockNumber: e.l2BlockNumber, l2BlockHash: fr(e.l2BlockHash), data: toWireTxEffect(e.data), txIndexInBlock: e.txIndexInBlock };
}
