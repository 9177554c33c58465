/**
 * Headers ↔ wire JSON, each mapping once for every reader and writer: the RPC answers, the block
 * and checkpoint codecs of p2p and sync, the world state's stored header (the real node's
 * BlockHeader JSON, reference §1.3) and a tx's anchor header. Fr as 0x+64 hex (GlobalVariables'
 * chainId, version and slotNumber too), EthAddress as 0x+40 hex, amounts and timestamps as decimal
 * strings. Decoding reads a number in any spelling BigInt takes (a client's header may carry
 * `'0'`; a received block's format is its schema's business) and checks each field element's range.
 * @module
 */
import type * as Wire from '../../../generated/public/types.ts';
import type * as C from '../../chain/types.ts';
import { assertField } from '../../crypto/field.ts';
import { hex20, hex32 } from '../hex.ts';

/** A field element from its wire spelling. */
const fr = (s: string): bigint => assertField(BigInt(s));

/** Snapshot → wire. */
export const toWireSnapshot = (s: C.Snapshot) => ({
  root: hex32(s.root),
  nextAvailableLeafIndex: s.nextAvailableLeafIndex,
});
/** Wire snapshot → Snapshot. */
export const fromWireSnapshot = (s: Wire.AppendOnlyTreeSnapshot): C.Snapshot => ({
  root: fr(s.root),
  nextAvailableLeafIndex: Number(s.nextAvailableLeafIndex),
});

/** GasFees → wire (decimal strings). */
export const toWireGasFees = (g: C.GasFees): Wire.GasFees => ({
  feePerDaGas: g.feePerDaGas.toString(),
  feePerL2Gas: g.feePerL2Gas.toString(),
});
/** Wire GasFees → GasFees. */
export const fromWireGasFees = (g: Wire.GasFees): C.GasFees => ({
  feePerDaGas: BigInt(g.feePerDaGas),
  feePerL2Gas: BigInt(g.feePerL2Gas),
});

/** GlobalVariables → wire. */
export function toWireGlobalVariables(g: C.GlobalVariables): Wire.GlobalVariables {
  return {
    chainId: hex32(g.chainId),
    version: hex32(g.version),
    blockNumber: g.blockNumber,
    slotNumber: hex32(BigInt(g.slotNumber)),
    timestamp: g.timestamp.toString(),
    coinbase: hex20(g.coinbase),
    feeRecipient: hex32(g.feeRecipient),
    gasFees: toWireGasFees(g.gasFees),
  };
}

/** Wire GlobalVariables → GlobalVariables. */
export function fromWireGlobalVariables(g: Wire.GlobalVariables): C.GlobalVariables {
  return {
    chainId: fr(g.chainId),
    version: fr(g.version),
    blockNumber: Number(g.blockNumber),
    slotNumber: Number(BigInt(g.slotNumber)),
    timestamp: BigInt(g.timestamp),
    coinbase: BigInt(g.coinbase),
    feeRecipient: fr(g.feeRecipient),
    gasFees: fromWireGasFees(g.gasFees),
  };
}

/** BlockHeader → wire (the real node's JSON without `_cachedHash`). */
export function toWireBlockHeader(h: C.BlockHeader): Wire.BlockHeader {
  const s = h.state;
  return {
    lastArchive: toWireSnapshot(h.lastArchive),
    state: {
      l1ToL2MessageTree: toWireSnapshot(s.l1ToL2MessageTree),
      partial: {
        noteHashTree: toWireSnapshot(s.noteHashTree),
        nullifierTree: toWireSnapshot(s.nullifierTree),
        publicDataTree: toWireSnapshot(s.publicDataTree),
      },
    },
    spongeBlobHash: hex32(h.spongeBlobHash),
    globalVariables: toWireGlobalVariables(h.globalVariables),
    totalFees: hex32(h.totalFees),
    totalManaUsed: hex32(h.totalManaUsed),
  };
}

/** Wire BlockHeader → BlockHeader (a `_cachedHash` beside the fields is ignored). */
export function fromWireBlockHeader(h: Wire.BlockHeader): C.BlockHeader {
  const { partial } = h.state;
  return {
    lastArchive: fromWireSnapshot(h.lastArchive),
    state: {
      l1ToL2MessageTree: fromWireSnapshot(h.state.l1ToL2MessageTree),
      noteHashTree: fromWireSnapshot(partial.noteHashTree),
      nullifierTree: fromWireSnapshot(partial.nullifierTree),
      publicDataTree: fromWireSnapshot(partial.publicDataTree),
    },
    spongeBlobHash: fr(h.spongeBlobHash),
    globalVariables: fromWireGlobalVariables(h.globalVariables),
    totalFees: fr(h.totalFees),
    totalManaUsed: fr(h.totalManaUsed),
  };
}

/** CheckpointHeader → wire; slotNumber is a JSON number here (unlike GlobalVariables.slotNumber). */
export function toWireCheckpointHeader(h: C.CheckpointHeader): Wire.CheckpointHeader {
  return {
    lastArchiveRoot: hex32(h.lastArchiveRoot),
    blockHeadersHash: hex32(h.blockHeadersHash),
    blobsHash: hex32(h.blobsHash),
    inHash: hex32(h.inHash),
    epochOutHash: hex32(h.epochOutHash),
    slotNumber: h.slotNumber,
    timestamp: h.timestamp.toString(),
    coinbase: hex20(h.coinbase),
    feeRecipient: hex32(h.feeRecipient),
    gasFees: toWireGasFees(h.gasFees),
    totalManaUsed: hex32(h.totalManaUsed),
  };
}

/** Wire CheckpointHeader → CheckpointHeader. */
export function fromWireCheckpointHeader(h: Wire.CheckpointHeader): C.CheckpointHeader {
  return {
    lastArchiveRoot: fr(h.lastArchiveRoot),
    blockHeadersHash: fr(h.blockHeadersHash),
    blobsHash: fr(h.blobsHash),
    inHash: fr(h.inHash),
    epochOutHash: fr(h.epochOutHash),
    slotNumber: Number(h.slotNumber),
    timestamp: BigInt(h.timestamp),
    coinbase: BigInt(h.coinbase),
    feeRecipient: fr(h.feeRecipient),
    gasFees: fromWireGasFees(h.gasFees),
    totalManaUsed: fr(h.totalManaUsed),
  };
}
