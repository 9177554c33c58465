/**
 * The chain's BlockHeader (reference §5.2): its 22 fields, 440-byte buffer and hash are the tx
 * codec's for an anchor header (the same layout; tx/anchor-header.ts), and the empty (genesis)
 * header. Its JSON form is the codec's (encoding/wire/headers.ts).
 * @module
 */
import type { BlockHeader, StateReference } from '../chain/types.ts';
import { anchorHeaderOf } from '../tx/anchor-header.ts';
import { ByteWriter } from '../tx/byte-writer.ts';
import { BYTES } from '../tx/constants.ts';
import { writeBlockHeader } from '../tx/kernel-encode.ts';
import { blockHeaderToFields as anchorHeaderToFields } from '../tx/kernel-fields.ts';
import { computeBlockHeaderHash } from '../tx/tx-hash.ts';

/** The 22 fields of a header in hashing order. */
export function blockHeaderToFields(h: BlockHeader): bigint[] {
  return anchorHeaderToFields(anchorHeaderOf(h));
}

/** BlockHeader.toBuffer(): 440 bytes (snapshots carry a u32 size; blockNumber and slot u32, timestamp u64, coinbase 20 bytes, gas fees u128). */
export function blockHeaderToBuffer(h: BlockHeader): Uint8Array {
  const w = new ByteWriter(BLOCK_HEADER_BUFFER_BYTES);
  writeBlockHeader(w, anchorHeaderOf(h));
  return w.finish();
}

/** Byte length of BlockHeader.toBuffer(). */
export const BLOCK_HEADER_BUFFER_BYTES = BYTES.blockHeader;

/** BlockHeader.hash(): the block hash, the archive leaf of this block. */
export function hashBlockHeader(h: BlockHeader): bigint {
  return computeBlockHeaderHash(anchorHeaderOf(h));
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
