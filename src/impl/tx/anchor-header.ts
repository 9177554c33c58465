/**
 * A tx's anchor header (the kernel's `BlockHeader`, state.partial nested) from the chain's header
 * or from its wire JSON. Its fields, buffer and hash are the tx codec's (kernel-fields.ts,
 * kernel-encode.ts, tx-hash.ts), so the chain hashes its own headers through them too
 * (world-state/block-header.ts): one layout for both.
 * @module
 */
import type * as Wire from '../../generated/public/types.ts';
import type * as C from '../chain/types.ts';
import { fromWireBlockHeader } from '../encoding/wire/headers.ts';
import type { BlockHeader } from './types.ts';

/** A block header as `node_getBlockHeader` answers it. */
export type WireBlockHeaderLike = Wire.BlockHeader;

/** The chain's header in the kernel's shape (same values; the three partial trees nested). */
export function anchorHeaderOf(h: C.BlockHeader): BlockHeader {
  const s = h.state;
  return {
    lastArchive: h.lastArchive,
    state: {
      l1ToL2MessageTree: s.l1ToL2MessageTree,
      partial: { noteHashTree: s.noteHashTree, nullifierTree: s.nullifierTree, publicDataTree: s.publicDataTree },
    },
    spongeBlobHash: h.spongeBlobHash,
    globalVariables: h.globalVariables,
    totalFees: h.totalFees,
    totalManaUsed: h.totalManaUsed,
  };
}

/** Converts a wire block header to the anchor header a tx carries (its hash is the block hash). */
export function anchorHeaderFromWire(h: WireBlockHeaderLike): BlockHeader {
  return anchorHeaderOf(fromWireBlockHeader(h));
}
