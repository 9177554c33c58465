/**
 * The hashes a tx carries or commits to: the tx hash (TX-FORMAT §4), the calldata hash of a
 * public call and the hash of a contract class log (TX-FORMAT §1), and the anchor block hash.
 * @module
 */

import { createHash } from 'node:crypto';
import { poseidon2Hash, poseidon2HashWithSeparator } from '../crypto/poseidon2.ts';
import { poseidon2HashesOffThread } from '../crypto/poseidon2-off-thread.ts';
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
 * poseidon2Hash of each input, as one job on the process's Poseidon2 worker
 * (crypto/poseidon2-off-thread.ts; on the main thread in slices while it starts, or if it cannot).
 * Resolves in call order.
 */
export function hashOffThread(inputs: readonly (readonly bigint[])[]): Promise<bigint[]> {
  return poseidon2HashesOffThread(inputs);
}

/** computeTxHash on the tx-hash worker. */
export async function computeTxHashOffThread(data: PrivateKernelTailCircuitPublicInputs): Promise<bigint> {
  return (await hashOffThread([txHashPreimage(data)]))[0]!;
}

/**
 * Tx hashes this process computed, by a digest of the `data` text they were computed from (a tx's
 * hash is a function of its `data` alone, so the same text always has the same hash): a tx this
 * process built — the in-process bot's — is not hashed a second time when node_sendTx decodes it.
 * The key is SHA-256 of the text (~0.1 ms for a tx) rather than the ~130 KB text itself.
 */
const knownTxHashes = new Map<string, bigint>();
const KNOWN_TX_HASHES = 256;

function dataKey(dataText: string): string {
  return createHash('sha256').update(dataText).digest('base64');
}

/** Records that the tx whose wire `data` is `dataText` hashes to `txHash` (computed here). */
export function rememberTxHash(dataText: string, txHash: bigint): void {
  const key = dataKey(dataText);
  knownTxHashes.delete(key);
  knownTxHashes.set(key, txHash);
  if (knownTxHashes.size > KNOWN_TX_HASHES) knownTxHashes.delete(knownTxHashes.keys().next().value!);
}

/** The hash rememberTxHash recorded for this `data` text, if any. */
export function knownTxHash(dataText: string): bigint | undefined {
  return knownTxHashes.get(dataKey(dataText));
}

/** Computes a block header's hash (`BlockHeader.hash()`, TX-FORMAT §4.3). */
export function computeBlockHeaderHash(header: BlockHeader): bigint {
  return poseidon2HashWithSeparator(blockHeaderToFields(header), DOMAIN_SEPARATOR.BLOCK_HEADER_HASH);
}
