/**
 * Block header hashing (reference §5.2): the 22 header fields in protocol order, hashed with
 * Poseidon2 under DomainSeparator.BLOCK_HEADER_HASH. The hash is the block's archive leaf.
 * @module
 */
import { poseidon2HashWithSeparator } from '../crypto/poseidon2.ts';
import type { BlockHeader, StateReference } from './types.ts';

/** DomainSeparator.BLOCK_HEADER_HASH (trees.json `domainSeparators`). */
export const BLOCK_HEADER_HASH_SEPARATOR = 4195546849;

/** The header as its 22 fields, in the order reference §5.2 gives. */
export function blockHeaderToFields(h: BlockHeader): bigint[] {
  const s = h.state;
  const g = h.globalVariables;
  return [
    h.lastArchive.root, BigInt(h.lastArchive.nextAvailableLeafIndex),
    s.l1ToL2MessageTree.root, BigInt(s.l1ToL2MessageTree.nextAvailableLeafIndex),
    s.noteHashTree.root, BigInt(s.noteHashTree.nextAvailableLeafIndex),
    s.nullifierTree.root, BigInt(s.nullifierTree.nextAvailableLeafIndex),
    s.publicDataTree.root, BigInt(s.publicDataTree.nextAvailableLeafIndex),
    h.spongeBlobHash,
    g.chainId, g.version, BigInt(g.blockNumber), BigInt(g.slotNumber), g.timestamp,
    g.coinbase, g.feeRecipient, g.gasFees.feePerDaGas, g.gasFees.feePerL2Gas,
    h.totalFees, h.totalManaUsed,
  ];
}

/** The block hash: poseidon2HashWithSeparator(fields, BLOCK_HEADER_HASH). */
export function hashBlockHeader(h: BlockHeader): bigint {
  return poseidon2HashWithSeparator(blockHeaderToFields(h), BLOCK_HEADER_HASH_SEPARATOR);
}

/** The genesis header: everything zero except the initial state (BlockHeader.empty({state})). */
export function genesisBlockHeader(state: StateReference): BlockHeader {
  return {
    lastArchive: { root: 0n, nextAvailableLeafIndex: 0 },
    state,
    spongeBlobHash: 0n,
    globalVariables: {
      chainId: 0n, version: 0n, blockNumber: 0, slotNumber: 0, timestamp: 0n,
      coinbase: 0n, feeRecipient: 0n, gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n },
    },
    totalFees: 0n,
    totalManaUsed: 0n,
  };
}
