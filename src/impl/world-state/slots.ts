/**
 * Public storage slot derivations: the public data tree leaf slot of (contract, storage slot) and
 * the storage slot of a map entry.
 * @module
 */
import { poseidon2HashWithSeparator } from '../crypto/poseidon2.ts';
import { PUBLIC_LEAF_SLOT_SEPARATOR, PUBLIC_STORAGE_MAP_SLOT_SEPARATOR } from './constants.ts';

/** computePublicDataTreeLeafSlot(contract, storageSlot). */
export function computePublicDataTreeLeafSlot(contract: bigint, storageSlot: bigint): bigint {
  return poseidon2HashWithSeparator([contract, storageSlot], PUBLIC_LEAF_SLOT_SEPARATOR);
}

/** deriveStorageSlotInMap(mapSlot, key). */
export function deriveStorageSlotInMap(mapSlot: bigint, key: bigint): bigint {
  return poseidon2HashWithSeparator([mapSlot, key], PUBLIC_STORAGE_MAP_SLOT_SEPARATOR);
}
