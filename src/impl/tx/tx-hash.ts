/**
 * The hashes a tx carries or commits to: the tx hash (TX-FORMAT §4), the calldata hash of a
 * public call and the hash of a contract class log (TX-FORMAT §1), and the anchor block hash.
 * @module
 */

import { poseidon2Hash, poseidon2HashWithSeparator } from '../crypto/poseidon2.ts';
import { DOMAIN_SEPARATOR } from './constants.ts';
import { blockHeaderToFields, kernelToFields } from './kernel-fields.ts';
import type { BlockHeader, PrivateKernelTailCircuitPublicInputs } from './types.ts';

/** Computes the tx hash from `Tx.data`; the `txHash` a client sends is never trusted. */
export function computeTxHash(data: PrivateKernelTailCircuitPublicInputs): bigint {
  const separator = data.isForPublic ? DOMAIN_SEPARATOR.PUBLIC_TX_HASH : DOMAIN_SEPARATOR.PRIVATE_TX_HASH;
  return poseidon2HashWithSeparator(kernelToFields(data), separator);
}

/** Computes the hash of a public call's calldata (`computeCalldataHash`; the empty list hashes the separator alone). */
export function computeCalldataHash(calldata: readonly bigint[]): bigint {
  return poseidon2HashWithSeparator(calldata, DOMAIN_SEPARATOR.PUBLIC_CALLDATA);
}

/** Computes a contract class log's hash: Poseidon2 over all its padded fields, with no separator. */
export function computeContractClassLogHash(fields: readonly bigint[]): bigint {
  return poseidon2Hash(fields);
}

/** The sponge input whose hash is the tx hash: the separator, then the kernel output's fields. */
export function txHashPreimage(data: PrivateKernelTailCircuitPublicInputs): bigint[] {
  const separator = data.isForPublic ? DOMAIN_SEPARATOR.PUBLIC_TX_HASH : DOMAIN_SEPARATOR.PRIVATE_TX_HASH;
  return [BigInt(separator), ...kernelToFields(data)];
}

/** The sponge input whose hash is a public call's calldata hash. */
export function calldataHashPreimage(calldata: readonly bigint[]): bigint[] {
  return [BigInt(DOMAIN_SEPARATOR.PUBLIC_CALLDATA), ...calldata];
}

/**
 * Header hashes computed, by the header's fields: a node hashes each tx's anchor header three
 * times on admission (validator, pool entry, sequencer view) and most txs anchor on the same few
 * latest headers (issue #21). Keyed by the fields themselves, so it is exact; bounded.
 */
const headerHashes = new Map<string, bigint>();
const HEADER_HASHES_KEPT = 64;

/** Computes a block header's hash (`BlockHeader.hash()`, TX-FORMAT §4.3). */
export function computeBlockHeaderHash(header: BlockHeader): bigint {
  const fields = blockHeaderToFields(header);
  const key = fields.join(',');
  let hash = headerHashes.get(key);
  if (hash === undefined) {
    hash = poseidon2HashWithSeparator(fields, DOMAIN_SEPARATOR.BLOCK_HEADER_HASH);
    if (headerHashes.size >= HEADER_HASHES_KEPT) headerHashes.delete(headerHashes.keys().next().value!);
    headerHashes.set(key, hash);
  }
  return hash;
}
