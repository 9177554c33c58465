/**
 * Domain separators used by contract identities, siloing and storage (trees.json
 * `domainSeparators`, Aztec 4.1.2 `GeneratorIndex`). Only the ones this package needs.
 * @module
 */

/** Aztec domain separators (u32) for the Poseidon2 hashes in this package. */
export const DomainSeparator = {
  SILOED_NOTE_HASH: 3361878420,
  NOTE_HASH_NONCE: 1721808740,
  UNIQUE_NOTE_HASH: 226850429,
  SILOED_NULLIFIER: 57496191,
  PUBLIC_LEAF_SLOT: 1247650290,
  PUBLIC_STORAGE_MAP_SLOT: 4015149901,
  PUBLIC_BYTECODE: 260313585,
  CONTRACT_CLASS_ID: 3923495515,
  PUBLIC_KEYS_HASH: 777457226,
  PARTIAL_ADDRESS: 2103633018,
  CONTRACT_ADDRESS_V1: 1788365517,
  PUBLIC_CALLDATA: 2760353947,
  PRIVATE_LOG_FIRST_FIELD: 2769976252,
} as const;
