/**
 * Siloing of public state and side effects to the contract that produced them: public data leaf
 * slots, map slots, nullifiers and note hashes (trees.json `publicDataLeafSlot`,
 * `deriveStorageSlotInMap`, `siloing`).
 * @module
 */
import { poseidon2HashWithSeparator } from '../crypto/poseidon2.ts';
import { DomainSeparator } from './domain-separators.ts';

/** Returns the public data tree leaf slot of `slot` in `contract`'s storage. */
export function computePublicDataLeafSlot(contract: bigint, slot: bigint): bigint {
  return poseidon2HashWithSeparator([contract, slot], DomainSeparator.PUBLIC_LEAF_SLOT);
}

/** Returns the storage slot of `key` in the map stored at `mapSlot` (Noir `derive_storage_slot_in_map`). */
export function deriveStorageSlotInMap(mapSlot: bigint, key: bigint): bigint {
  return poseidon2HashWithSeparator([mapSlot, key], DomainSeparator.PUBLIC_STORAGE_MAP_SLOT);
}

/** Returns the nullifier as stored in the nullifier tree: siloed by the emitting contract. */
export function siloNullifier(contract: bigint, innerNullifier: bigint): bigint {
  return poseidon2HashWithSeparator([contract, innerNullifier], DomainSeparator.SILOED_NULLIFIER);
}

/** Returns the note hash siloed by the emitting contract. */
export function siloNoteHash(contract: bigint, noteHash: bigint): bigint {
  return poseidon2HashWithSeparator([contract, noteHash], DomainSeparator.SILOED_NOTE_HASH);
}

/** Returns the nonce of the `noteIndexInTx`-th note hash of a tx whose first nullifier is given. */
export function computeNoteHashNonce(firstNullifier: bigint, noteIndexInTx: number): bigint {
  return poseidon2HashWithSeparator([firstNullifier, BigInt(noteIndexInTx)], DomainSeparator.NOTE_HASH_NONCE);
}

/** Returns the unique note hash (the tree leaf) from a nonce and a siloed note hash. */
export function computeUniqueNoteHash(nonce: bigint, siloedNoteHash: bigint): bigint {
  return poseidon2HashWithSeparator([nonce, siloedNoteHash], DomainSeparator.UNIQUE_NOTE_HASH);
}

/** Siloes a private log's tag (its first field) with the emitting contract, as the private kernel does. */
export function computeSiloedPrivateLogFirstField(contract: bigint, tag: bigint): bigint {
  return poseidon2HashWithSeparator([contract, tag], DomainSeparator.PRIVATE_LOG_FIRST_FIELD);
}
