/**
 * Public storage slot derivations: the public data tree leaf slot of (contract, storage slot) and
 * the storage slot of a map entry.
 * @module
 */
import { poseidon2HashWithSeparator } from '../crypto/poseidon2.ts';
import { DOMAIN_SEPARATOR } from '../tx/constants.ts';

/** computePublicDataTreeLeafSlot(contract, storageSlot). */
export function computePublicDataTreeLeafSlot(contract: bigint, storageSlot: bigint): bigint {
  return poseidon2HashWithSeparator([contract, storageSlot], DOMAIN_SEPARATOR.PUBLIC_LEAF_SLOT);
}

/** deriveStorageSlotInMap(mapSlot, key). */
export function deriveStorageSlotInMap(mapSlot: bigint, key: bigint): bigint {
  return poseidon2HashWithSeparator([mapSlot, key], DOMAIN_SEPARATOR.PUBLIC_STORAGE_MAP_SLOT);
}
