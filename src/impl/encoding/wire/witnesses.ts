/**
 * Wire mappers for tree results: SiblingPath and MembershipWitness base64, the
 * NullifierMembershipWitness / PublicDataWitness JSON, findLeavesIndexes elements and
 * WorldStateSyncStatus — byte for byte as the real node sends them — and the SPEC-only forms:
 * sibling paths as 0x-hex lists and the L1→L2 witness tuple that carries one.
 * @module
 */
import { fieldToBytes, toFieldHex } from '../../crypto/field.ts';
import type {
  IndexedLeafWitness,
  LeafLocation,
  MembershipWitness,
  WorldStateSyncStatus,
} from '../../world-state/types.ts';

/** SiblingPath: base64 of [uint32 BE count][count × 32-byte BE field]. */
export function siblingPathToWire(path: readonly bigint[]): string {
  const buf = new Uint8Array(4 + 32 * path.length);
  new DataView(buf.buffer).setUint32(0, path.length);
  path.forEach((p, i) => {
    fieldToBytes(p, buf, 4 + 32 * i);
  });
  return Buffer.from(buf).toString('base64');
}

/** The SPEC's string[] form of a sibling path (0x-hex per node, leaf level first). */
export function siblingPathToHexList(path: readonly bigint[]): string[] {
  return path.map(toFieldHex);
}

/** MembershipWitness: base64 of [32-byte BE leafIndex][N × 32-byte field], no length prefix. */
export function membershipWitnessToWire(w: MembershipWitness): string {
  const buf = new Uint8Array(32 + 32 * w.siblingPath.length);
  fieldToBytes(w.leafIndex, buf, 0);
  w.siblingPath.forEach((p, i) => {
    fieldToBytes(p, buf, 32 + 32 * i);
  });
  return Buffer.from(buf).toString('base64');
}

/** NullifierMembershipWitness JSON. */
export function nullifierWitnessToWire(w: IndexedLeafWitness): {
  index: string;
  leafPreimage: { leaf: { nullifier: string }; nextKey: string; nextIndex: string };
  siblingPath: string;
} {
  return {
    index: w.index.toString(),
    leafPreimage: {
      leaf: { nullifier: toFieldHex(w.leaf.key) },
      nextKey: toFieldHex(w.leaf.nextKey),
      nextIndex: String(w.leaf.nextIndex),
    },
    siblingPath: siblingPathToWire(w.siblingPath),
  };
}

/** PublicDataWitness JSON. */
export function publicDataWitnessToWire(w: IndexedLeafWitness): {
  index: string;
  leafPreimage: { leaf: { slot: string; value: string }; nextKey: string; nextIndex: string };
  siblingPath: string;
} {
  return {
    index: w.index.toString(),
    leafPreimage: {
      leaf: { slot: toFieldHex(w.leaf.key), value: toFieldHex(w.leaf.value) },
      nextKey: toFieldHex(w.leaf.nextKey),
      nextIndex: String(w.leaf.nextIndex),
    },
    siblingPath: siblingPathToWire(w.siblingPath),
  };
}

/**
 * getL1ToL2MessageMembershipWitness tuple: ["<dec index>", [0x-hex node, ...]] — the path in the
 * SPEC's string[] form of the `node_get*SiblingPath` methods (SPEC §4.6), not 4.1.2's base64
 * SiblingPath (docs/COMPATIBILITY.md).
 */
export function l1ToL2WitnessToWire(w: MembershipWitness): [string, string[]] {
  return [w.leafIndex.toString(), siblingPathToHexList(w.siblingPath)];
}

/** findLeavesIndexes element: {l2BlockNumber, l2BlockHash, data: "<dec index>"} or null. */
export function leafLocationToWire(
  l: LeafLocation | null,
): { l2BlockNumber: number; l2BlockHash: string; data: string } | null {
  return l
    ? { l2BlockNumber: l.blockNumber, l2BlockHash: toFieldHex(l.blockHash), data: l.leafIndex.toString() }
    : null;
}

/** WorldStateSyncStatus JSON. */
export function syncStatusToWire(s: WorldStateSyncStatus): {
  latestBlockNumber: number;
  latestBlockHash: string;
  finalizedBlockNumber: number;
  oldestHistoricBlockNumber: number;
  treesAreSynched: boolean;
} {
  return {
    latestBlockNumber: s.latestBlockNumber,
    latestBlockHash: toFieldHex(s.latestBlockHash),
    finalizedBlockNumber: s.finalizedBlockNumber,
    oldestHistoricBlockNumber: s.oldestHistoricBlockNumber,
    treesAreSynched: s.treesAreSynched,
  };
}
