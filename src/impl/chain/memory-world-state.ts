/**
 * The in-memory world state behind `ChainWorldState`: the five trees of reference §5 with the
 * block-insertion padding rules. It is derived data: the engine rebuilds it on start by replaying
 * the stored blocks, so a crash can never leave it out of step with the block store.
 * @module
 */
import { hashBlockHeader, genesisBlockHeader } from './block-header.ts';
import { IndexedTree } from './indexed-tree.ts';
import { SparseMerkleTree } from './sparse-merkle-tree.ts';
import type { BlockStateUpdate, ChainWorldState } from './world-state-port.ts';
import type { PublicDataWrite, Snapshot, StateReference } from './types.ts';

/** Tree heights and per-block constants (reference §5.1). */
export const TREE_HEIGHTS = { nullifier: 42, noteHash: 42, publicData: 40, l1ToL2: 36, archive: 30 } as const;
/** Note hashes and nullifiers are padded to this many per tx. */
export const MAX_EFFECTS_PER_TX = 64;
/** L1→L2 messages are padded to this many in a checkpoint's first block. */
export const L1_TO_L2_MESSAGES_PER_CHECKPOINT = 1024;
/** Prefilled leaves of the nullifier and public data trees. */
export const INDEXED_TREE_PREFILL = 128;

/** In-memory trees; `genesisPublicData` are extra public data leaves (e.g. funded accounts). */
export class MemoryWorldState implements ChainWorldState {
  #nullifiers = new IndexedTree(TREE_HEIGHTS.nullifier, false, INDEXED_TREE_PREFILL);
  #publicData = new IndexedTree(TREE_HEIGHTS.publicData, true, INDEXED_TREE_PREFILL);
  #noteHashes = new SparseMerkleTree(TREE_HEIGHTS.noteHash);
  #l1ToL2 = new SparseMerkleTree(TREE_HEIGHTS.l1ToL2);
  #archive = new SparseMerkleTree(TREE_HEIGHTS.archive);

  constructor(genesisPublicData: readonly PublicDataWrite[] = []) {
    // Sorted by slot so that the genesis state does not depend on the order given.
    const sorted = [...genesisPublicData].sort((a, b) => (a.leafSlot < b.leafSlot ? -1 : a.leafSlot > b.leafSlot ? 1 : 0));
    for (const w of sorted) this.#publicData.upsert(w.leafSlot, w.value);
    this.#archive.append([hashBlockHeader(genesisBlockHeader(this.stateReference()))]);
  }

  stateReference(): StateReference {
    return {
      l1ToL2MessageTree: snap(this.#l1ToL2),
      noteHashTree: snap(this.#noteHashes),
      nullifierTree: snap(this.#nullifiers.tree),
      publicDataTree: snap(this.#publicData.tree),
    };
  }

  archive(): Snapshot {
    return snap(this.#archive);
  }

  readPublicData(leafSlot: bigint): bigint {
    const i = this.#publicData.indexOf(leafSlot);
    return i === undefined ? 0n : (this.#publicData.leafAt(i)!.value ?? 0n);
  }

  hasNullifier(nullifier: bigint): boolean {
    return this.#nullifiers.indexOf(nullifier) !== undefined;
  }

  applyBlock(update: BlockStateUpdate): StateReference {
    // Checked up front so that a bad block changes nothing (the trees have no undo).
    const seen = new Set<bigint>();
    for (const tx of update.txs) {
      if (tx.noteHashes.length > MAX_EFFECTS_PER_TX || tx.nullifiers.length > MAX_EFFECTS_PER_TX) throw new RangeError('more than 64 note hashes or nullifiers in a tx');
      for (const n of tx.nullifiers) {
        if (n === 0n) continue;
        if (seen.has(n) || this.hasNullifier(n)) throw new Error(`duplicate nullifier 0x${n.toString(16)}`);
        seen.add(n);
      }
    }
    if ((update.l1ToL2Messages?.length ?? 0) > L1_TO_L2_MESSAGES_PER_CHECKPOINT) throw new RangeError('more than 1024 L1→L2 messages');
    if (update.l1ToL2Messages !== undefined) {
      this.#l1ToL2.append(padded(update.l1ToL2Messages, L1_TO_L2_MESSAGES_PER_CHECKPOINT));
    }
    for (const tx of update.txs) {
      this.#noteHashes.append(padded(tx.noteHashes, MAX_EFFECTS_PER_TX));
      const start = this.#nullifiers.tree.size;
      tx.nullifiers.forEach((n, k) => {
        if (n !== 0n) this.#nullifiers.insertAt(start + k, n);
      });
      this.#nullifiers.padTo(start + MAX_EFFECTS_PER_TX);
      for (const w of tx.publicDataWrites) this.#publicData.upsert(w.leafSlot, w.value);
    }
    return this.stateReference();
  }

  appendArchive(blockHash: bigint): Snapshot {
    this.#archive.append([blockHash]);
    return this.archive();
  }
}

function snap(t: SparseMerkleTree): Snapshot {
  return { root: t.root, nextAvailableLeafIndex: t.size };
}

function padded(values: readonly bigint[], length: number): bigint[] {
  return [...values, ...new Array<bigint>(length - values.length).fill(0n)];
}
