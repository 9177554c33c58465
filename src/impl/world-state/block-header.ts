/**
 * BlockHeader hashing (reference §5.2): the 22 header fields, their 440-byte buffer and
 * `poseidon2HashWithSeparator(fields, BLOCK_HEADER_HASH)`, plus the JSON form the world state
 * stores and the empty (genesis) header.
 * @module
 */
import type { BlockHeader, StateReference } from '../chain/types.ts';
import { fieldToBytes, parseFieldHex, toFieldHex } from '../crypto/field.ts';
import { poseidon2HashWithSeparator } from '../crypto/poseidon2.ts';
import { BLOCK_HEADER_HASH_SEPARATOR } from './constants.ts';
import { hex20 } from '../encoding/hex.ts';

/** The 22 fields of a header in hashing order. */
export function blockHeaderToFields(h: BlockHeader): bigint[] {
  const s = h.state;
  const g = h.globalVariables;
  return [
    h.lastArchive.root,
    BigInt(h.lastArchive.nextAvailableLeafIndex),
    s.l1ToL2MessageTree.root,
    BigInt(s.l1ToL2MessageTree.nextAvailableLeafIndex),
    s.noteHashTree.root,
    BigInt(s.noteHashTree.nextAvailableLeafIndex),
    s.nullifierTree.root,
    BigInt(s.nullifierTree.nextAvailableLeafIndex),
    s.publicDataTree.root,
    BigInt(s.publicDataTree.nextAvailableLeafIndex),
    h.spongeBlobHash,
    g.chainId,
    g.version,
    BigInt(g.blockNumber),
    BigInt(g.slotNumber),
    g.timestamp,
    g.coinbase,
    g.feeRecipient,
    g.gasFees.feePerDaGas,
    g.gasFees.feePerL2Gas,
    h.totalFees,
    h.totalManaUsed,
  ];
}

/** BlockHeader.toBuffer(): 440 bytes (snapshots carry a u32 size; blockNumber and slot u32, timestamp u64, coinbase 20 bytes, gas fees u128). */
export function blockHeaderToBuffer(h: BlockHeader): Uint8Array {
  const out = new Uint8Array(BLOCK_HEADER_BUFFER_BYTES);
  const view = new DataView(out.buffer);
  let o = 0;
  const field = (x: bigint) => {
    fieldToBytes(x, out, o);
    o += 32;
  };
  const uint = (x: bigint, bytes: number) => {
    for (let i = bytes - 1; i >= 0; i--) {
      out[o + i] = Number(x & 0xffn);
      x >>= 8n;
    }
    o += bytes;
  };
  const snapshot = (s: { root: bigint; nextAvailableLeafIndex: number }) => {
    field(s.root);
    view.setUint32(o, s.nextAvailableLeafIndex);
    o += 4;
  };
  const s = h.state;
  const g = h.globalVariables;
  snapshot(h.lastArchive);
  snapshot(s.l1ToL2MessageTree);
  snapshot(s.noteHashTree);
  snapshot(s.nullifierTree);
  snapshot(s.publicDataTree);
  field(h.spongeBlobHash);
  field(g.chainId);
  field(g.version);
  uint(BigInt(g.blockNumber), 4);
  uint(BigInt(g.slotNumber), 4);
  uint(g.timestamp, 8);
  uint(g.coinbase, 20);
  field(g.feeRecipient);
  uint(g.gasFees.feePerDaGas, 16);
  uint(g.gasFees.feePerL2Gas, 16);
  field(h.totalFees);
  field(h.totalManaUsed);
  return out;
}

/** Byte length of BlockHeader.toBuffer(). */
export const BLOCK_HEADER_BUFFER_BYTES = 440;

/** BlockHeader.hash(): the block hash, the archive leaf of this block. */
export function hashBlockHeader(h: BlockHeader): bigint {
  return poseidon2HashWithSeparator(blockHeaderToFields(h), BLOCK_HEADER_HASH_SEPARATOR);
}

/** BlockHeader.empty({state}): everything zero except the state (the genesis header). */
export function emptyBlockHeader(state: StateReference): BlockHeader {
  return {
    lastArchive: { root: 0n, nextAvailableLeafIndex: 0 },
    state,
    spongeBlobHash: 0n,
    globalVariables: {
      chainId: 0n,
      version: 0n,
      blockNumber: 0,
      slotNumber: 0,
      timestamp: 0n,
      coinbase: 0n,
      feeRecipient: 0n,
      gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n },
    },
    totalFees: 0n,
    totalManaUsed: 0n,
  };
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const snap = (s: Json) => ({ root: parseFieldHex(s.root), nextAvailableLeafIndex: Number(s.nextAvailableLeafIndex) });
const snapJson = (s: { root: bigint; nextAvailableLeafIndex: number }) => ({
  root: toFieldHex(s.root),
  nextAvailableLeafIndex: s.nextAvailableLeafIndex,
});

/** Parses the real node's BlockHeader JSON (reference §1.3). */
export function blockHeaderFromJson(j: Json): BlockHeader {
  const g = j.globalVariables;
  return {
    lastArchive: snap(j.lastArchive),
    state: {
      l1ToL2MessageTree: snap(j.state.l1ToL2MessageTree),
      noteHashTree: snap(j.state.partial.noteHashTree),
      nullifierTree: snap(j.state.partial.nullifierTree),
      publicDataTree: snap(j.state.partial.publicDataTree),
    },
    spongeBlobHash: parseFieldHex(j.spongeBlobHash),
    globalVariables: {
      chainId: parseFieldHex(g.chainId),
      version: parseFieldHex(g.version),
      blockNumber: Number(g.blockNumber),
      slotNumber: Number(BigInt(g.slotNumber)),
      timestamp: BigInt(g.timestamp),
      coinbase: BigInt(g.coinbase),
      feeRecipient: parseFieldHex(g.feeRecipient),
      gasFees: { feePerDaGas: BigInt(g.gasFees.feePerDaGas), feePerL2Gas: BigInt(g.gasFees.feePerL2Gas) },
    },
    totalFees: parseFieldHex(j.totalFees),
    totalManaUsed: parseFieldHex(j.totalManaUsed),
  };
}

/** The real node's BlockHeader JSON (without `_cachedHash`). */
export function blockHeaderToJson(h: BlockHeader): Json {
  const g = h.globalVariables;
  return {
    lastArchive: snapJson(h.lastArchive),
    state: {
      l1ToL2MessageTree: snapJson(h.state.l1ToL2MessageTree),
      partial: {
        noteHashTree: snapJson(h.state.noteHashTree),
        nullifierTree: snapJson(h.state.nullifierTree),
        publicDataTree: snapJson(h.state.publicDataTree),
      },
    },
    spongeBlobHash: toFieldHex(h.spongeBlobHash),
    globalVariables: {
      chainId: toFieldHex(g.chainId),
      version: toFieldHex(g.version),
      blockNumber: g.blockNumber,
      slotNumber: toFieldHex(BigInt(g.slotNumber)),
      timestamp: g.timestamp.toString(),
      coinbase: hex20(g.coinbase),
      feeRecipient: toFieldHex(g.feeRecipient),
      gasFees: { feePerDaGas: g.gasFees.feePerDaGas.toString(), feePerL2Gas: g.gasFees.feePerL2Gas.toString() },
    },
    totalFees: toFieldHex(h.totalFees),
    totalManaUsed: toFieldHex(h.totalManaUsed),
  };
}
